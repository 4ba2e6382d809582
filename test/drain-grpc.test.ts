/**
 * The drain over gRPC: an open server stream is ended with UNAVAILABLE, the client's cue to subscribe
 * again (elsewhere), and the server's report counts it with the SSE streams, in one registry.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCard, StreamResponse } from '../src/protocol/index.js';
import { A2AClient, isA2AClientError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { createAgentServer, type AgentExecutor } from '../src/server/index.js';
import { BOUND_MS, agent, cardFor, message, optionsFor } from './rest-fixture.js';

function grpcCard(origin: string, url: string): AgentCard {
  const card = cardFor(origin, 'full');
  return {
    ...card,
    supportedInterfaces: [
      { url, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ...card.supportedInterfaces,
    ],
  };
}

test('drain: an open gRPC stream ends with UNAVAILABLE and the client resumes; the agent still finishes', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const gated: AgentExecutor = async (ctx, task) => {
    if (!ctx.text.startsWith('gate')) return agent(ctx, task);
    task.working();
    await gate;
    task.complete();
  };
  const server = createAgentServer(
    optionsFor('full', { executor: gated, card: (o, g) => grpcCard(o, g!.url), grpc: { port: 0 } }),
  );
  const origin = await server.listen(0);
  const resumes: Array<{ error?: { code?: string } }> = [];
  const client = await A2AClient.connect(origin, {
    transports: { GRPC: grpcTransport() },
    resume: { maxRetries: 1, baseDelayMs: 10, maxDelayMs: 10 },
    logger: { info: (obj) => resumes.push(obj) },
  });
  assert.equal(client.interface.binding, 'GRPC');
  let draining: ReturnType<typeof server.drain> | undefined;
  const states: string[] = [];
  let failure: unknown;
  try {
    for await (const ev of client.sendStreamingMessage({
      message: message('gate grpc'),
    } as never) as AsyncIterable<StreamResponse>) {
      const state =
        'task' in ev
          ? ev.task.status.state
          : 'statusUpdate' in ev
            ? ev.statusUpdate.status.state
            : '';
      states.push(state);
      if (state === 'TASK_STATE_WORKING' && !draining) draining = server.drain(BOUND_MS);
    }
  } catch (err) {
    failure = err;
  }
  release();
  const report = await draining!;
  assert.ok(
    states.includes('TASK_STATE_WORKING') && !states.includes('TASK_STATE_COMPLETED'),
    states.join(),
  );
  assert.equal(
    resumes[0]?.error?.code,
    'UNAVAILABLE',
    'the stream ended with UNAVAILABLE, and the client tried to resume',
  );
  assert.ok(isA2AClientError(failure), String(failure));
  assert.deepEqual(report.streams, { sse: 0, grpc: 1 });
  assert.deepEqual(report.tasksAborted, []);
});
