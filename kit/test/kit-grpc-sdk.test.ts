/**
 * Issue 25's reproduction against the kit: `@a2a-js/sdk` 1.3's client with only its gRPC transport,
 * `sendMessage` then `getTask({ id })` with plain request objects (no tenant), to the test-runner on
 * its SQLite store. The task the SDK made must be the one JSON-RPC reads, and the same after the
 * SDK asks for it by id.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { AgentCard as SdkAgentCard, Role } from '@a2a-js/sdk';
import { ClientFactory, ClientFactoryOptions, type Client as SdkClient } from '@a2a-js/sdk/client';
import { GrpcTransportFactory } from '@a2a-js/sdk/client/grpc';
import { rpc, startKit, type KitFixture } from './kit-agents-fixture.js';

let f: KitFixture;
let sdk: SdkClient;
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'kit-grpc-sdk-'));

before(async () => {
  f = await startKit({ storeDir });
  const card = f.kit.agents['test-runner'].card;
  const grpc = card.supportedInterfaces.find((i) => i.protocolBinding === 'GRPC');
  assert.ok(grpc, 'the test-runner lists gRPC');
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [new GrpcTransportFactory()],
    }),
  );
  // The SDK hands the URL to grpc-js as a channel target, so host:port (the kit's README says so).
  sdk = await factory.createFromAgentCard(
    SdkAgentCard.fromJSON({
      ...card,
      supportedInterfaces: [{ ...grpc, url: new URL(grpc.url).host }],
    }),
  );
});
after(async () => {
  await f.close();
  rmSync(storeDir, { recursive: true, force: true });
});

test('the SDK gRPC client: sendMessage, then getTask({ id }) over gRPC and GetTask over JSON-RPC', async () => {
  const task = (await sdk.sendMessage({
    message: {
      messageId: 'sdk-grpc-1',
      contextId: '',
      taskId: '',
      role: Role.ROLE_USER,
      parts: [
        {
          content: { $case: 'text', value: 'run tests in change-ok' },
          filename: '',
          mediaType: '',
        },
      ],
      extensions: [],
      referenceTaskIds: [],
    },
  } as never)) as { id?: string };
  assert.ok(task.id, `a task, not a message: ${JSON.stringify(task).slice(0, 300)}`);
  const again = (await sdk.getTask({ id: task.id } as never)) as { id: string };
  assert.equal(again.id, task.id);
  const overJson = await rpc(f, 'test-runner', 'GetTask', { id: task.id });
  assert.equal(overJson.body.result?.id, task.id, JSON.stringify(overJson.body));
});
