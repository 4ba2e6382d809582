/**
 * Push notifications with the receiver. The client runs a webhook (`a2a-kit/client/push-receiver`) that
 * accepts only notifications carrying the token it chose, starts a task without waiting
 * (`returnImmediately`) and asks for its updates at that webhook; the agent posts each event there.
 *
 *   npx tsx examples/push-notifications.ts
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomBytes } from 'node:crypto';
import { isTerminal, type StreamResponse } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { createPushReceiver } from 'a2a-kit/client/push-receiver';

const builder: AgentExecutor = async (_ctx, task) => {
  for (const step of ['compiling', 'linking']) {
    task.working(step);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  task.addArtifact({ name: 'build', parts: [{ text: 'app.bin, 42 kB' }] });
  task.complete('built');
};

const agent = createAgentServer({
  executor: builder,
  card: (origin) => ({
    name: 'builder',
    description: 'Builds, and tells you when done',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'build', name: 'Build', description: 'Builds the app', tags: ['demo'] }],
  }),
  // Webhooks on loopback are refused by default (SSRF guard); this example's webhook is local.
  push: { policy: { allowLoopback: true } },
});
const client = await A2AClient.connect(await agent.listen(0));

// The client's webhook: a secret token per run, checked on every notification.
const token = randomBytes(16).toString('hex');
let finished!: () => void;
const done = new Promise<void>((resolve) => (finished = resolve));
const receiver = createPushReceiver({
  token,
  onEvent: (event: StreamResponse) => {
    if ('task' in event) console.log(`push: task ${event.task.status.state}`);
    if ('statusUpdate' in event) console.log(`push: ${event.statusUpdate.status.state}`);
    if ('artifactUpdate' in event)
      console.log(`push: artifact ${event.artifactUpdate.artifact.name}`);
    const state =
      'task' in event
        ? event.task.status.state
        : 'statusUpdate' in event
          ? event.statusUpdate.status.state
          : undefined;
    if (state && isTerminal(state)) finished();
  },
});
// Tighter than Node's defaults: a sender that trickles its request is cut off.
const webhook = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, receiver.listener);
await new Promise<void>((resolve) => webhook.listen(0, '127.0.0.1', resolve));
const url = `http://127.0.0.1:${(webhook.address() as AddressInfo).port}/a2a-push`;

const res = await client.sendMessage({
  message: userMessage('build it'),
  configuration: { returnImmediately: true, taskPushNotificationConfig: { url, token } },
});
console.log(`sent: task ${'task' in res ? res.task.status.state : '?'}; updates go to the webhook`);

const timeout = setTimeout(
  () => (console.error('no terminal notification within 10 s'), process.exit(1)),
  10_000,
);
await done;
clearTimeout(timeout);

await agent.close();
webhook.closeAllConnections();
await new Promise<void>((resolve) => webhook.close(() => resolve()));
