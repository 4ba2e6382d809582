/**
 * Discover an agent, show the interface the client chose and the card's capability flags, then
 * stream one task. Usage: npx tsx examples/discover-and-stream.ts [base-url] [text]
 * (without a base URL it starts the echo example agent on a free port first).
 */
import { randomUUID } from 'node:crypto';
import { A2AClient } from 'a2a-kit/client';
import { echoAgent } from './echo-agent.js';

const local = process.argv[2] ? undefined : await echoAgent(0);
const base = process.argv[2] ?? local!.origin;
const client = await A2AClient.connect(base);
const caps = client.capabilities;
console.log(`${client.card.name} ${client.card.version} — ${client.card.description}`);
console.log(`interface: ${client.interface.reason}`);
console.log(`streaming=${caps.streaming ?? 'absent'} pushNotifications=${caps.pushNotifications ?? 'absent'} extendedAgentCard=${caps.extendedAgentCard ?? 'absent'}`);

const message = { messageId: randomUUID(), role: 'ROLE_USER' as const, parts: [{ text: process.argv[3] ?? 'hello from the example' }] };
if (caps.streaming) {
  for await (const event of client.sendStreamingMessage({ message })) console.log(JSON.stringify(event));
} else {
  console.log(JSON.stringify(await client.sendMessage({ message })));
}
await local?.close();
