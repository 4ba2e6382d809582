/**
 * The shortest client: discover an agent from its card, then stream one message.
 *
 *   npx tsx examples/client.ts [base-url] [text]
 *
 * Without a base URL it starts the echo agent (examples/echo-agent.ts) on a free port first.
 */
import { textOf } from 'a2a-kit';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { echoAgent } from './echo-agent.js';

const local = process.argv[2] ? undefined : await echoAgent(0);
const client = await A2AClient.connect(process.argv[2] ?? local!.origin);
console.log(`${client.card.name} ${client.card.version}: ${client.interface.reason}`);

for await (const event of client.sendStreamingMessage({
  message: userMessage(process.argv[3] ?? 'hello'),
})) {
  if ('task' in event) console.log(`task ${event.task.id} ${event.task.status.state}`);
  else if ('statusUpdate' in event)
    console.log(
      event.statusUpdate.status.state,
      event.statusUpdate.status.message ? textOf(event.statusUpdate.status.message) : '',
    );
  else if ('artifactUpdate' in event)
    console.log(
      `artifact ${event.artifactUpdate.artifact.name}: ${event.artifactUpdate.artifact.parts.map((p) => p.text).join('')}`,
    );
  else console.log(`message: ${textOf(event.message)}`);
}
await local?.close();
