/**
 * gRPC both ways with neither @grpc/grpc-js nor protobufjs installed: an agent that serves gRPC next to
 * JSON-RPC (its card lists GRPC first) and A2AClient with `a2a-kit/client/grpc` calling it — a task, a
 * stream, and a missing task as the typed TaskNotFound. Type-checking this file also shows that the
 * .d.ts of both entry points name no grpc-js.
 */
import assert from 'node:assert/strict';
import { PROTOCOL_VERSION, isA2AError, type AgentCard } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { grpcTransport } from 'a2a-kit/client/grpc';

for (const dep of ['@grpc/grpc-js', 'protobufjs'])
  assert.throws(() => import.meta.resolve(dep), `this check needs a project without ${dep}`);

const shout: AgentExecutor = (ctx, task) => {
  task.addArtifact({ name: 'loud', parts: [{ text: ctx.text.toUpperCase() }] });
  task.complete();
};
const agent = createAgentServer({
  executor: shout,
  grpc: { port: 0 },
  card: (origin, grpc): AgentCard => ({
    name: 'shout',
    description: 'Repeats your text, louder',
    version: '1.0.0',
    supportedInterfaces: [
      { url: grpc!.url, protocolBinding: 'GRPC', protocolVersion: PROTOCOL_VERSION },
      {
        url: `${origin}/a2a/jsonrpc`,
        protocolBinding: 'JSONRPC',
        protocolVersion: PROTOCOL_VERSION,
      },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'shout', name: 'Shout', description: 'Upper-cases text', tags: ['demo'] }],
  }),
});
const origin = await agent.listen(0, '127.0.0.1');

try {
  const client = await A2AClient.connect(origin, { transports: { GRPC: grpcTransport() } });
  assert.equal(client.interface.binding, 'GRPC');
  const sent = await client.sendMessage({ message: userMessage('grpc') });
  assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  assert.equal(
    sent.task.artifacts?.[0]?.parts[0] && 'text' in sent.task.artifacts[0].parts[0]
      ? sent.task.artifacts[0].parts[0].text
      : '',
    'GRPC',
  );
  let events = 0;
  for await (const _ of client.sendStreamingMessage({ message: userMessage('stream') })) events++;
  assert.ok(events >= 2, `the stream brought ${events} event(s)`);
  await assert.rejects(
    client.getTask('00000000-0000-4000-8000-000000000000'),
    (e: unknown) => isA2AError(e) && e.kind === 'TaskNotFound',
  );
  console.log(
    `grpc-without-grpc-js: ok (serveGrpc and the gRPC client: a task, a stream of ${events} events, TaskNotFound; neither @grpc/grpc-js nor protobufjs is installed)`,
  );
} finally {
  await agent.close();
}
