import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { AgentCard } from '../src/protocol/index.js';
import { staticBearerTokens } from '../src/server/index.js';
import { TRANSPORTS, bearerHeader, call, failed, ok, say, start } from './auth-fixture.js';

const SECURED: Partial<AgentCard> = {
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
};
const AUTH = { verifiers: { bearer: staticBearerTokens({ 'tok-a': 'alice', 'tok-b': 'bob' }) } };
const A = bearerHeader('tok-a');
const B = bearerHeader('tok-b');

for (const t of TRANSPORTS) {
  test(`[${t}] §13.1 another caller's task is not found, never forbidden: GetTask, CancelTask, SubscribeToTask, push config, ListTasks`, async () => {
    const s = await start(
      { ...SECURED, capabilities: { streaming: true, pushNotifications: true } },
      { auth: AUTH },
    );
    try {
      const task = ok(await call(s.origin, t, 'SendMessage', say('mine'), A)).task;
      assert.equal(task.status.state, 'TASK_STATE_INPUT_REQUIRED');
      const id: string = task.id;

      // The owner sees it everywhere.
      assert.equal(ok(await call(s.origin, t, 'GetTask', { id }, A)).id, id);
      assert.deepEqual(
        ok(await call(s.origin, t, 'ListTasks', {}, A)).tasks.map((x: any) => x.id),
        [id],
      );

      // Bob gets exactly what a made-up id would get.
      const unknown = '00000000-0000-4000-8000-000000000000';
      for (const taskId of [id, unknown]) {
        failed(await call(s.origin, t, 'GetTask', { id: taskId }, B), 'TaskNotFound');
        failed(await call(s.origin, t, 'CancelTask', { id: taskId }, B), 'TaskNotFound');
        failed(await call(s.origin, t, 'SubscribeToTask', { id: taskId }, B), 'TaskNotFound');
        failed(
          await call(
            s.origin,
            t,
            'CreateTaskPushNotificationConfig',
            { taskId, url: 'https://hooks.example/a2a' },
            B,
          ),
          'TaskNotFound',
        );
      }
      const bobsGet = await call(s.origin, t, 'GetTask', { id }, B);
      assert.doesNotMatch(JSON.stringify(bobsGet.body), /alice|forbidden|permission/i);
      assert.deepEqual(ok(await call(s.origin, t, 'ListTasks', {}, B)).tasks, []);
      assert.deepEqual(
        ok(await call(s.origin, t, 'ListTasks', { contextId: task.contextId }, B)).tasks,
        [],
      );

      // Bob cannot continue Alice's task either: a follow-up naming it is not found.
      const followUp = say('hijack');
      failed(
        await call(s.origin, t, 'SendMessage', { message: { ...followUp.message, taskId: id } }, B),
        'TaskNotFound',
      );

      // Bob's failed attempts changed nothing for Alice: her task is still open and cancelable by her.
      assert.equal(
        ok(await call(s.origin, t, 'GetTask', { id }, A)).status.state,
        'TASK_STATE_INPUT_REQUIRED',
      );
      assert.equal(
        ok(await call(s.origin, t, 'CancelTask', { id }, A)).status.state,
        'TASK_STATE_CANCELED',
      );
    } finally {
      await s.close();
    }
  });

  test(`[${t}] §13.1 with optional auth, anonymous tasks and a named caller's tasks do not see each other`, async () => {
    const s = await start({ securitySchemes: SECURED.securitySchemes! }, { auth: AUTH });
    try {
      const anonTask = ok(await call(s.origin, t, 'SendMessage', say('anon'))).task;
      const aliceTask = ok(await call(s.origin, t, 'SendMessage', say('alice'), A)).task;
      assert.deepEqual(
        ok(await call(s.origin, t, 'ListTasks', {})).tasks.map((x: any) => x.id),
        [anonTask.id],
      );
      assert.deepEqual(
        ok(await call(s.origin, t, 'ListTasks', {}, A)).tasks.map((x: any) => x.id),
        [aliceTask.id],
      );
      failed(await call(s.origin, t, 'GetTask', { id: anonTask.id }, A), 'TaskNotFound');
      failed(await call(s.origin, t, 'GetTask', { id: aliceTask.id }), 'TaskNotFound');
    } finally {
      await s.close();
    }
  });

  test(`[${t}] §3.1.11 §13.3 extended card: per caller when authenticated, 401 for anonymous`, async () => {
    const s = await start(
      { ...SECURED, capabilities: { extendedAgentCard: true } },
      {
        auth: AUTH,
        extendedCard: (caller) => ({
          ...s.server.service.card,
          skills: [
            ...s.server.service.card.skills,
            { id: `vip-${caller.id}`, name: 'VIP', description: 'members only', tags: ['vip'] },
          ],
        }),
      },
    );
    try {
      const forAlice = ok(await call(s.origin, t, 'GetExtendedAgentCard', {}, A));
      assert.deepEqual(
        forAlice.skills.map((k: any) => k.id),
        ['s', 'vip-alice'],
      );
      const forBob = ok(await call(s.origin, t, 'GetExtendedAgentCard', {}, B));
      assert.deepEqual(
        forBob.skills.map((k: any) => k.id),
        ['s', 'vip-bob'],
      );
      const anon = await call(s.origin, t, 'GetExtendedAgentCard', {});
      failed(anon, 'Unauthenticated');
      assert.ok(anon.headers.get('www-authenticate')?.startsWith('Bearer realm='));
      failed(
        await call(s.origin, t, 'GetExtendedAgentCard', {}, bearerHeader('tok-x')),
        'Unauthenticated',
      );
    } finally {
      await s.close();
    }
  });

  test(`[${t}] §13.3 extended card on an agent that allows anonymous calls still requires a caller`, async () => {
    const s = await start(
      { securitySchemes: SECURED.securitySchemes!, capabilities: { extendedAgentCard: true } },
      {
        auth: AUTH,
        extendedCard: (caller) => ({ ...s.server.service.card, description: `for ${caller.id}` }),
      },
    );
    try {
      ok(await call(s.origin, t, 'SendMessage', say('hi')));
      const anon = await call(s.origin, t, 'GetExtendedAgentCard', {});
      assert.match(failed(anon, 'Unauthenticated'), /authenticated/);
      assert.equal(anon.headers.get('www-authenticate'), 'Bearer realm="Guarded \\"agent\\""');
      assert.equal(
        ok(await call(s.origin, t, 'GetExtendedAgentCard', {}, A)).description,
        'for alice',
      );
    } finally {
      await s.close();
    }
  });

  test(`[${t}] §13.3 extended card not declared → UnsupportedOperation; declared, not configured → ExtendedAgentCardNotConfigured`, async () => {
    const undeclared = await start(SECURED, {
      auth: AUTH,
      extendedCard: (c) => ({ ...undeclared.server.service.card, description: c.id }),
    });
    try {
      const a = await call(undeclared.origin, t, 'GetExtendedAgentCard', {}, A);
      failed(a, 'UnsupportedOperation');
      if (t === 'jsonrpc') assert.equal(a.body.error.code, -32004);
    } finally {
      await undeclared.close();
    }
    const unconfigured = await start(
      { ...SECURED, capabilities: { extendedAgentCard: true } },
      { auth: AUTH },
    );
    try {
      const a = await call(unconfigured.origin, t, 'GetExtendedAgentCard', {}, A);
      failed(a, 'ExtendedAgentCardNotConfigured');
      if (t === 'jsonrpc') assert.equal(a.body.error.code, -32007);
    } finally {
      await unconfigured.close();
    }
  });
}
