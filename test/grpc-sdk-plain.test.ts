/**
 * The reported reproduction (issue 25): `@a2a-js/sdk` 1.3's gRPC client used the way its README shows,
 * with plain request objects (`getTask({ id })`) and no tenant, against an agent with an SQLite store.
 * The SDK's encoder writes the text `undefined` for every string member the object lacks, so its
 * requests name the tenant "undefined"; our gRPC edge reads that tenant as none. The tasks must be
 * the same ones the JSON bindings see, and the row on disk must hold no such tenant.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { AgentCard as SdkAgentCard, Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client as SdkClient } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';
import { call } from './rest-fixture.js';
import { startGrpcAgent } from './grpc-fixture.js';

let dir: string;
let agent: Awaited<ReturnType<typeof startGrpcAgent>>;
let sdk: SdkClient;

/** A complete SDK message (its encoder needs every list); the request around it is left plain. */
const plainMessage = (text: string) =>
  ({
    messageId: `plain-${text.replace(/\W/g, '-')}`,
    contextId: '',
    taskId: '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: text }, filename: '', mediaType: '' }],
    extensions: [],
    referenceTaskIds: [],
  }) as never;

before(async () => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'grpc-sdk-plain-'));
  agent = await startGrpcAgent('full', {
    store: new SqliteTaskStore({ path: path.join(dir, 'tasks.sqlite') }),
  });
  const card = agent.server.service.card;
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
    }),
  );
  // The SDK's gRPC client takes a bare host:port (see the README's notes on the SDK).
  sdk = await factory.createFromAgentCard(
    SdkAgentCard.fromJSON({
      ...card,
      supportedInterfaces: [
        { url: agent.grpc.target, protocolBinding: 'GRPC', protocolVersion: '1.0' },
      ],
    }),
  );
});
after(async () => {
  await agent.close();
  rmSync(dir, { recursive: true, force: true });
});

test('the SDK gRPC client: sendMessage then getTask({ id }) finds the task, over gRPC and JSON-RPC', async () => {
  const sent = (await sdk.sendMessage({ message: plainMessage('echo plain') } as never)) as {
    id: string;
    contextId: string;
  };
  assert.ok(sent.id, JSON.stringify(sent));
  const got = (await sdk.getTask({ id: sent.id } as never)) as { id: string };
  assert.equal(got.id, sent.id);
  const overJson = await call(agent.origin, 'jsonrpc', 'GetTask', { id: sent.id });
  assert.equal(overJson.result?.id, sent.id, JSON.stringify(overJson));
  const listed = await call(agent.origin, 'jsonrpc', 'ListTasks', { contextId: sent.contextId });
  assert.deepEqual(
    listed.result.tasks.map((t: { id: string }) => t.id),
    [sent.id],
  );
  const db = new Database(path.join(dir, 'tasks.sqlite'), { readonly: true });
  try {
    const rows = db.prepare('SELECT tenant FROM a2a_tasks WHERE id = ?').all(sent.id);
    assert.deepEqual(rows, [{ tenant: '' }]);
  } finally {
    db.close();
  }
});

test('a task made over JSON-RPC is found, canceled and followed by the SDK with plain requests', async () => {
  const made = await call(agent.origin, 'jsonrpc', 'SendMessage', {
    message: { messageId: 'json-slow', role: 'ROLE_USER', parts: [{ text: 'slow' }] },
    configuration: { returnImmediately: true },
  });
  const id = made.result.task.id as string;
  assert.equal(((await sdk.getTask({ id } as never)) as { id: string }).id, id);
  const canceled = (await sdk.cancelTask({ id } as never)) as { status: { state: number } };
  assert.equal(canceled.status.state, 5, 'TASK_STATE_CANCELED');
  const after = await call(agent.origin, 'rest', 'GetTask', { id });
  assert.equal(after.result.status.state, 'TASK_STATE_CANCELED');
});

test('a tenant the SDK really sends still scopes the task', async () => {
  const sent = (await sdk.sendMessage({
    tenant: 'acme',
    message: plainMessage('echo tenant'),
  } as never)) as { id: string };
  const other = await call(agent.origin, 'jsonrpc', 'GetTask', { id: sent.id });
  assert.equal(other.error?.kind, 'TaskNotFound', 'no tenant is not tenant acme');
  const same = await call(agent.origin, 'jsonrpc', 'GetTask', { id: sent.id }, { tenant: 'acme' });
  assert.equal(same.result?.id, sent.id);
});
