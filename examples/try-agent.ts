/** Helpers the mounting examples share: a free local port, and one round trip that shows an agent answers where its card says. */
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { A2AClient, userMessage, type ConnectOptions } from 'a2a-kit/client';

/** A port nobody listens on right now, so an example can know its origin before it starts listening. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

/** Fetch the card under `base`, send one message to the interface it advertises, print what came back. */
export async function tryAgent(
  label: string,
  base: string,
  options: ConnectOptions = {},
): Promise<void> {
  const client = await A2AClient.connect(base, { cache: false, ...options });
  if (!client.interface.url.startsWith(`${base}/`)) {
    throw new Error(
      `${label}: the card at ${base} advertises ${client.interface.url}, outside ${base}/`,
    );
  }
  const res = await client.sendMessage({ message: userMessage(`hello via ${label}`) });
  const echoed = 'task' in res ? res.task.artifacts?.[0]?.parts[0]?.text : undefined;
  console.log(
    `${label}: card at ${base} → ${client.interface.url} → ${'task' in res ? res.task.status.state : 'message'} "${echoed}"`,
  );
}
