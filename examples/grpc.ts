/**
 * gRPC next to JSON-RPC, with nothing to install: the agent serves the A2AService on a port of its own
 * and its card lists that interface first; a client that accepts gRPC takes it (§8.3.2), one that does
 * not takes the JSON-RPC entry after it. Same operations, same typed results and errors either way.
 *
 *   npx tsx examples/grpc.ts
 */
import { isA2AError, textOf } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { grpcTransport } from 'a2a-kit/client/grpc';

const counter: AgentExecutor = (ctx, task) => {
  task.working(`counting the words of "${ctx.text}"`);
  task.complete(`${ctx.text.split(/\s+/).filter(Boolean).length} words`);
};

const agent = createAgentServer({
  executor: counter,
  grpc: { port: 0 }, // started by listen(), before the card is built: the card function gets its URL
  card: (origin, grpc) => ({
    name: 'counter',
    description: 'Counts words',
    version: '1.0.0',
    supportedInterfaces: [
      { url: grpc!.url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'count', name: 'Count', description: 'Counts the words you send', tags: ['demo'] },
    ],
  }),
});
const origin = await agent.listen(0);

// With the gRPC transport the client accepts GRPC too, and the card's order makes it the choice.
const viaGrpc = await A2AClient.connect(origin, { transports: { GRPC: grpcTransport() } });
console.log(`with grpcTransport: ${viaGrpc.interface.reason}`);
for await (const event of viaGrpc.sendStreamingMessage({
  message: userMessage('the quick brown fox'),
})) {
  if ('statusUpdate' in event && event.statusUpdate.status.message) {
    console.log(
      `  ${event.statusUpdate.status.state}  ${textOf(event.statusUpdate.status.message)}`,
    );
  }
}
try {
  await viaGrpc.getTask('no-such-task');
} catch (err) {
  if (!isA2AError(err)) throw err;
  console.log(`  GetTask of an unknown id over gRPC: ${err.kind}`);
}

const plain = await A2AClient.connect(origin); // JSON-RPC and HTTP+JSON only: the GRPC entry is skipped
console.log(`without it: ${plain.interface.reason}`);

await agent.close();
