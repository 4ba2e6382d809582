/**
 * The gRPC transport behind A2AClient: chosen by interface selection (§8.3.2) only when the card
 * lists GRPC first among the bindings the caller accepts; the same typed results and A2AError kinds
 * as over JSON-RPC for all eleven operations; streams that stop when the caller stops; fallback when
 * the gRPC interface cannot be reached.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parseAgentCard, type AgentCard, type StreamResponse } from '../src/protocol/index.js';
import { A2AClient, isA2AClientError, isA2AError } from '../src/client/index.js';
import { grpcTransport } from '../src/client/grpc/index.js';
import { BOUND_MS, HOOK, REQUIRED_EXT, UNKNOWN, message } from './rest-fixture.js';
import { closeRawClients, startGrpcAgent } from './grpc-fixture.js';

type Running = Awaited<ReturnType<typeof startGrpcAgent>>;
let full: Running;
let ext: Running;

before(async () => {
  full = await startGrpcAgent('full');
  ext = await startGrpcAgent('ext');
});
after(async () => {
  closeRawClients();
  await Promise.all([full.close(), ext.close()]);
});

/** The agent's card with its GRPC interface listed first (as a card served with gRPC would). */
function grpcFirst(a: Running, grpcUrl = a.grpc.url): AgentCard {
  const card = a.server.service.card;
  return {
    ...card,
    supportedInterfaces: [
      { url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ...card.supportedInterfaces,
    ],
  };
}

const GRPC = { GRPC: grpcTransport() };
const msg = (text: string, extra = {}) => ({ message: message(text, extra) }) as never;

describe('§8.3.2 interface selection', () => {
  test('GRPC listed first and a gRPC transport given → the client speaks gRPC', () => {
    const c = new A2AClient(grpcFirst(full), { transports: GRPC });
    assert.equal(c.interface.binding, 'GRPC');
  });

  test('without a gRPC transport the GRPC entry is skipped, and the reason says so', () => {
    const c = new A2AClient(grpcFirst(full));
    assert.equal(c.interface.binding, 'JSONRPC');
    assert.match(c.interface.reason, /skipped \[0\] GRPC 1\.0: binding not spoken/);
  });

  test('a caller that does not accept GRPC keeps to JSON-RPC even with the transport at hand', () => {
    const c = new A2AClient(grpcFirst(full), {
      transports: GRPC,
      bindings: ['JSONRPC', 'HTTP+JSON'],
    });
    assert.equal(c.interface.binding, 'JSONRPC');
  });

  test('a card whose GRPC url is a bare host:port (as the reference SDKs write it) is valid; for JSON-RPC it is not', async () => {
    const card = full.server.service.card;
    const grpcEntry = { url: 'localhost:50051', protocolBinding: 'GRPC', protocolVersion: '1.0' };
    assert.ok((await parseAgentCard({ ...card, supportedInterfaces: [grpcEntry] })).ok);
    assert.ok(
      (
        await parseAgentCard({
          ...card,
          supportedInterfaces: [{ ...grpcEntry, url: '[::1]:50051' }],
        })
      ).ok,
    );
    const bad = await parseAgentCard({
      ...card,
      supportedInterfaces: [{ ...grpcEntry, url: '127.0.0.1:8080', protocolBinding: 'JSONRPC' }],
    });
    assert.ok(!bad.ok && bad.problems.some((p) => /absolute URL/.test(p)));
  });

  test('a bare host:port URL works for the transport too', async () => {
    const c = new A2AClient(grpcFirst(full, full.grpc.target), { transports: GRPC });
    const sent = await c.sendMessage(msg('echo bare'));
    assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
  });
});

test('all eleven operations over gRPC give the same typed results as over JSON-RPC', async () => {
  // The fixture's card declares no scheme, so the token goes as a plain header (metadata over gRPC).
  const creds = { headers: { authorization: 'Bearer good' } };
  const viaGrpc = new A2AClient(grpcFirst(full), { transports: GRPC, ...creds });
  const viaJson = new A2AClient(full.server.service.card, creds);
  assert.equal(viaJson.interface.binding, 'JSONRPC');

  const sent = await viaGrpc.sendMessage(msg('echo eleven'));
  assert.ok('task' in sent);
  const id = sent.task.id;
  assert.equal(
    sent.task.artifacts?.[0]?.parts[0] && 'text' in sent.task.artifacts[0].parts[0]
      ? sent.task.artifacts[0].parts[0].text
      : '',
    'echo eleven',
  );
  // Both bindings read the same task from the same store, and decode it to the same object.
  assert.deepEqual(await viaGrpc.getTask(id), await viaJson.getTask(id));
  assert.deepEqual(
    await viaGrpc.getTask({ id, historyLength: 0 }),
    await viaJson.getTask({ id, historyLength: 0 }),
  );
  const listed = await viaGrpc.listTasks({
    contextId: sent.task.contextId,
    includeArtifacts: true,
  });
  assert.deepEqual(
    listed,
    await viaJson.listTasks({ contextId: sent.task.contextId, includeArtifacts: true }),
  );
  assert.equal(listed.nextPageToken, '');

  const events: StreamResponse[] = [];
  for await (const ev of viaGrpc.sendStreamingMessage(msg('echo streamed'))) events.push(ev);
  assert.ok('task' in events[0]!);
  const last = events.at(-1)!;
  assert.ok('statusUpdate' in last && last.statusUpdate.status.state === 'TASK_STATE_COMPLETED');

  const started = await viaGrpc.sendMessage({
    message: message('slow'),
    configuration: { returnImmediately: true },
  } as never);
  assert.ok('task' in started);
  const subscribed: StreamResponse[] = [];
  for await (const ev of viaGrpc.subscribeToTask(started.task.id)) {
    subscribed.push(ev);
    if (subscribed.length === 1)
      assert.equal((await viaGrpc.cancelTask(started.task.id)).status.state, 'TASK_STATE_CANCELED');
  }
  assert.ok('task' in subscribed[0]!);
  const end = subscribed.at(-1)!;
  assert.ok('statusUpdate' in end && end.statusUpdate.status.state === 'TASK_STATE_CANCELED');

  const config = await viaGrpc.createPushNotificationConfig({
    taskId: id,
    id: 'cfg-1',
    url: HOOK,
    token: 'tok',
    authentication: { scheme: 'Bearer', credentials: 'c' },
  });
  assert.deepEqual(await viaGrpc.getPushNotificationConfig({ taskId: id, id: 'cfg-1' }), config);
  assert.deepEqual(
    await viaGrpc.listPushNotificationConfigs({ taskId: id }),
    await viaJson.listPushNotificationConfigs({ taskId: id }),
  );
  await viaGrpc.deletePushNotificationConfig({ taskId: id, id: 'cfg-1' });
  assert.deepEqual((await viaGrpc.listPushNotificationConfigs({ taskId: id })).configs, []);

  const extended = await viaGrpc.getExtendedAgentCard();
  assert.equal(extended.name, 'extended for alice');
});

test('§10.6 errors arrive as A2AError of the kind the agent sent, with its details', async () => {
  const c = new A2AClient(grpcFirst(full), { transports: GRPC, retry: false });
  await assert.rejects(
    c.getTask(UNKNOWN),
    (e: unknown) =>
      isA2AError(e) &&
      e.kind === 'TaskNotFound' &&
      e.details.some((d) => (d as any).reason === 'TASK_NOT_FOUND'),
  );
  const sent = await c.sendMessage(msg('echo done'));
  assert.ok('task' in sent);
  await assert.rejects(
    c.cancelTask(sent.task.id),
    (e: unknown) => isA2AError(e) && e.kind === 'TaskNotCancelable',
  );
  await assert.rejects(
    (async () => {
      for await (const _ of c.subscribeToTask(sent.task.id)) void _;
    })(),
    (e: unknown) => isA2AError(e) && e.kind === 'UnsupportedOperation',
  );
  await assert.rejects(c.getTask({ id: UNKNOWN, historyLength: -1 }), (e: unknown) => {
    const bad =
      isA2AError(e) && e.kind === 'InvalidParams'
        ? (e.details.find((d) => 'fieldViolations' in d) as any)
        : undefined;
    return bad?.fieldViolations[0].field === 'historyLength';
  });
  // A value protobuf cannot carry is refused before anything is sent, as the agent would refuse it.
  await assert.rejects(
    c.getTask({ id: 42 } as never),
    (e: unknown) =>
      isA2AError(e) && e.kind === 'InvalidParams' && /^GetTask not sent: id/.test(e.message),
  );
  await assert.rejects(
    c.sendMessage(msg('boom')),
    (e: unknown) => isA2AError(e) && e.kind === 'Internal',
  );
});

test('§4.6 extensions travel as a2a-extensions metadata', async () => {
  const without = new A2AClient(grpcFirst(ext), { transports: GRPC });
  await assert.rejects(
    without.sendMessage(msg('echo')),
    (e: unknown) => isA2AError(e) && e.kind === 'ExtensionSupportRequired',
  );
  const withExt = new A2AClient(grpcFirst(ext), { transports: GRPC, extensions: [REQUIRED_EXT] });
  const sent = await withExt.sendMessage(msg('echo ext'));
  assert.ok('task' in sent && sent.task.status.state === 'TASK_STATE_COMPLETED');
});

describe('streams stop when the caller stops', () => {
  const scope = { tenant: '', owner: '' };
  const listening = (id: string) =>
    full.server.service.tasks.liveRun(scope, id)?.listening === true;
  async function released(id: string): Promise<void> {
    const until = Date.now() + BOUND_MS;
    while (listening(id)) {
      assert.ok(Date.now() < until, 'the server still has the subscriber');
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  test('aborting the signal ends the gRPC call and the server lets the subscriber go', async () => {
    const c = new A2AClient(grpcFirst(full), { transports: GRPC, resume: false });
    const started = await c.sendMessage({
      message: message('slow'),
      configuration: { returnImmediately: true },
    } as never);
    assert.ok('task' in started);
    const ac = new AbortController();
    await assert.rejects(
      (async () => {
        for await (const _ of c.subscribeToTask(started.task.id, { signal: ac.signal })) ac.abort();
      })(),
      (e: unknown) => (e as Error).name === 'AbortError',
    );
    await released(started.task.id);
    await c.cancelTask(started.task.id);
  });

  test('breaking out of the loop ends the call too', async () => {
    const c = new A2AClient(grpcFirst(full), { transports: GRPC });
    const started = await c.sendMessage({
      message: message('slow'),
      configuration: { returnImmediately: true },
    } as never);
    assert.ok('task' in started);
    for await (const ev of c.subscribeToTask(started.task.id)) {
      assert.ok('task' in ev);
      break;
    }
    await released(started.task.id);
    await c.cancelTask(started.task.id);
  });
});

test('a unary call past its timeout is a TIMEOUT (the gRPC deadline tells the server too)', async () => {
  const c = new A2AClient(grpcFirst(full), { transports: GRPC, timeoutMs: 200, retry: false });
  const slow = c.sendMessage(msg('slow'));
  await assert.rejects(slow, (e: unknown) => isA2AClientError(e) && e.code === 'TIMEOUT');
});

test('§5.2 an unreachable gRPC interface falls back to the next one', async () => {
  // A port nothing listens on: the gRPC server of a stopped agent.
  const gone = await startGrpcAgent('bare');
  const deadUrl = gone.grpc.url;
  await gone.close();
  const c = new A2AClient(grpcFirst(full, deadUrl), { transports: GRPC });
  assert.equal(c.interface.binding, 'GRPC');
  const sent = await c.sendMessage(msg('echo fallback'));
  assert.ok('task' in sent);
  assert.equal(c.interface.binding, 'JSONRPC');
  assert.match(c.interface.reason, /could not be reached/);
});
