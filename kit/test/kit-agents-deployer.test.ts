/**
 * The deployer agent over real HTTP (KIT.md): a bearer token on every call, staging at once, production
 * only after confirmation through TASK_STATE_INPUT_REQUIRED, cancel, rollback, and clear refusals.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import { verifyAgentCard } from 'a2a-kit/client';
import { startKitAgents } from '../src/agents/start.js';
import {
  AUTH,
  TOKEN,
  artifactData,
  rest,
  rpc,
  send,
  startKit,
  statusText,
  type KitFixture,
} from './kit-agents-fixture.js';

let f: KitFixture;
before(async () => {
  f = await startKit();
});
after(async () => {
  await f?.close();
});

const deploy = (params: unknown) => rpc(f, 'deployer', 'SendMessage', params, AUTH);
const releasesOf = (target: string): string[] => {
  const dir = path.join(f.releases, target, 'releases');
  return existsSync(dir) ? readdirSync(dir).filter((n) => !n.startsWith('.')) : [];
};

describe('deployer security (§7.4: the card requires a bearer token on every call)', () => {
  test('no token → 401 with WWW-Authenticate, over both bindings; nothing is published', async () => {
    const r = await rpc(
      f,
      'deployer',
      'SendMessage',
      send([{ text: 'deploy change-ok to staging' }]),
    );
    assert.equal(r.status, 401);
    assert.match(r.headers.get('www-authenticate') ?? '', /^Bearer realm="deployer"/);
    assert.equal(r.body.error.code, -32010);
    const viaRest = await rest(
      f,
      'deployer',
      'POST',
      '/message:send',
      send([{ text: 'deploy change-ok to staging' }]),
    );
    assert.equal(viaRest.status, 401);
    assert.ok(viaRest.headers.get('www-authenticate'));
    assert.deepEqual(releasesOf('staging'), []);
  });

  test('a wrong token → 401 too, and the answer never echoes a token', async () => {
    const r = await rpc(
      f,
      'deployer',
      'GetTask',
      { id: '00000000-0000-4000-8000-000000000000' },
      { authorization: 'Bearer wrong-token-xxxxxxxx' },
    );
    assert.equal(r.status, 401);
    assert.doesNotMatch(JSON.stringify(r.body), /wrong-token|test-token/);
  });

  test('streaming is ruled out by the card → -32004 even with a token', async () => {
    const r = await rpc(
      f,
      'deployer',
      'SendStreamingMessage',
      send([{ text: 'deploy change-ok to staging' }]),
      AUTH,
    );
    assert.equal(r.body.error.code, -32004);
  });
});

describe('deployer work', () => {
  let first = '';

  test('staging deploy → COMPLETED at once with a release artifact; current points at it', async () => {
    const r = await deploy(send([{ data: { release: 'change-ok', target: 'staging' } }]));
    const task = r.body.result.task;
    assert.equal(task.status.state, 'TASK_STATE_COMPLETED', statusText(task));
    const rel = artifactData(task, 'release');
    assert.equal(rel.target, 'staging');
    assert.equal(rel.previous, null);
    assert.match(rel.version, /^1\.0\.0\+/);
    assert.ok(existsSync(path.join(rel.path, 'package.json')));
    assert.equal(
      readlinkSync(path.join(f.releases, 'staging', 'current')),
      `releases/${rel.version}`,
    );
    first = rel.version;
  });

  test('a second staging deploy names the previous release; rollback (extended skill) returns to it', async () => {
    const r = await deploy(send([{ text: 'deploy change-ok to staging as 9.9.9' }]));
    const rel = artifactData(r.body.result.task, 'release');
    assert.equal(rel.version, '9.9.9');
    assert.equal(rel.previous, first);
    const rb = await deploy(send([{ text: 'rollback staging' }]));
    assert.equal(rb.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    assert.deepEqual(artifactData(rb.body.result.task, 'rollback'), {
      action: 'rollback',
      target: 'staging',
      version: first,
      previous: '9.9.9',
    });
    assert.equal(readlinkSync(path.join(f.releases, 'staging', 'current')), `releases/${first}`);
  });

  test('production → INPUT_REQUIRED asking to confirm; other replies re-ask; confirm → COMPLETED', async () => {
    const r = await deploy(send([{ text: 'deploy change-ok to production' }]));
    const task = r.body.result.task;
    assert.equal(task.status.state, 'TASK_STATE_INPUT_REQUIRED');
    assert.match(
      statusText(task),
      /^Reply 'confirm' to deploy v1\.0\.0\+\S+ to production, or cancel the task\.$/,
    );
    assert.deepEqual(releasesOf('production'), [], 'nothing is published before confirmation');
    const follow = (parts: unknown[]) =>
      deploy(send(parts, { taskId: task.id, contextId: task.contextId }));
    const again = await follow([{ text: 'hmm, maybe later?' }]);
    assert.equal(again.body.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
    assert.match(statusText(again.body.result.task), /Not confirmed/);
    const done = await follow([{ text: 'confirm' }]);
    assert.equal(done.body.result.task.status.state, 'TASK_STATE_COMPLETED');
    const rel = artifactData(done.body.result.task, 'release');
    assert.equal(rel.target, 'production');
    assert.deepEqual(releasesOf('production'), [rel.version]);
  });

  test('data {confirm: true} confirms too', async () => {
    const r = await deploy(
      send([{ data: { source: 'change-ok', target: 'production', version: '2.0.0' } }]),
    );
    assert.equal(r.body.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
    const t = r.body.result.task;
    const done = await deploy(send([{ data: { confirm: true } }], { taskId: t.id }));
    assert.equal(artifactData(done.body.result.task, 'release').version, '2.0.0');
  });

  test('CancelTask on a waiting production deploy → CANCELED, nothing published', async () => {
    const before = releasesOf('production');
    const r = await deploy(send([{ text: 'deploy change-ok to production as 3.0.0' }]));
    const id = r.body.result.task.id;
    assert.equal(r.body.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
    const c = await rpc(f, 'deployer', 'CancelTask', { id }, AUTH);
    assert.equal(c.body.result.status.state, 'TASK_STATE_CANCELED');
    const late = await deploy(send([{ text: 'confirm' }], { taskId: id }));
    assert.ok(late.body.error, 'a canceled task takes no confirmation');
    assert.deepEqual(releasesOf('production'), before);
  });

  test('refusals: outside the workspace, unknown target, existing version → clear answers, no crash', async () => {
    const out = await deploy(send([{ data: { release: '..', target: 'staging' } }]));
    assert.equal(out.body.result.task.status.state, 'TASK_STATE_REJECTED');
    assert.match(statusText(out.body.result.task), /outside the workspace/);
    const bad = await deploy(send([{ text: 'deploy change-ok to the-moon' }]));
    assert.match(bad.body.result.message.parts[0].text, /not a target/);
    const dup = await deploy(send([{ text: 'deploy change-ok to staging as 9.9.9' }]));
    assert.equal(dup.body.result.task.status.state, 'TASK_STATE_REJECTED');
  });

  test('gibberish gets a message saying what the deployer accepts', async () => {
    const r = await deploy(send([{ text: 'xyzzy' }]));
    assert.match(r.body.result.message.parts[0].text, /deploy <directory> to staging\|production/);
  });
});

describe('signed cards (§8.4)', () => {
  test('with signing keys, every public card and the deployer extended card verify against the trusted key', async () => {
    const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
    const trust = {
      keys: [{ kid: 'kit-test', key: { ...(await exportJWK(publicKey)), alg: 'ES256' } }],
    };
    const signed = await startKit({ signingKeys: [{ privateKey, kid: 'kit-test', alg: 'ES256' }] });
    try {
      for (const agent of ['test-runner', 'code-reviewer', 'deployer'] as const) {
        const card = await (
          await fetch(`${signed.kit.agents[agent].origin}/.well-known/agent-card.json`)
        ).json();
        assert.deepEqual(
          await verifyAgentCard(card, trust),
          { verified: true, kid: 'kit-test', alg: 'ES256' },
          agent,
        );
      }
      const ext = await rpc(signed, 'deployer', 'GetExtendedAgentCard', {}, AUTH);
      assert.deepEqual(
        ext.body.result.skills.map((s: any) => s.id),
        ['deploy', 'rollback'],
      );
      assert.equal((await verifyAgentCard(ext.body.result, trust)).verified, true);
    } finally {
      await signed.close();
    }
  });
});

describe('push (deployer does not stream, so a planner takes a webhook)', () => {
  test('an inline push config on a staging deploy delivers the task events to a local webhook', async () => {
    const bodies: any[] = [];
    let gotFinal!: () => void;
    const final = new Promise<void>((r) => (gotFinal = r));
    const hook = createServer((req, res) => {
      let raw = '';
      req.setEncoding('utf8').on('data', (c: string) => (raw += c));
      req.on('end', () => {
        const body = JSON.parse(raw);
        bodies.push({ token: req.headers['x-a2a-notification-token'], body });
        if (
          body.statusUpdate?.status.state === 'TASK_STATE_COMPLETED' ||
          body.task?.status.state === 'TASK_STATE_COMPLETED'
        )
          gotFinal();
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', () => r()));
    try {
      const url = `http://127.0.0.1:${(hook.address() as { port: number }).port}/webhook`;
      const r = await deploy(
        send(
          [{ text: 'deploy change-ok to staging as 7.0.0' }],
          {},
          { taskPushNotificationConfig: { url, token: 'hook-secret' } },
        ),
      );
      assert.equal(r.body.result.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(r.body));
      const arrived = await Promise.race([
        final.then(() => true),
        new Promise<boolean>((res) => setTimeout(() => res(false), 30_000).unref()),
      ]);
      assert.ok(arrived, `the webhook saw the COMPLETED event (got ${bodies.length} deliveries)`);
      assert.ok(bodies.every((b) => b.token === 'hook-secret'));
    } finally {
      hook.closeAllConnections();
      await new Promise<void>((r) => hook.close(() => r()));
    }
  });
});

describe('restart (tasks in SQLite)', () => {
  test('a production deploy waiting for confirmation can be confirmed after the agents restart', async () => {
    const first = await startKit({ warmUp: false }); // only for its workspace and releases dirs
    const storeDir = path.join(first.dir, 'store');
    await first.kit.close();
    mkdirSync(storeDir);
    const opts = {
      workspaceRoot: first.workspace,
      releasesDir: first.releases,
      deployerToken: TOKEN,
      storeDir,
      warmUp: false,
      ports: { 'test-runner': 0, 'code-reviewer': 0, deployer: 0 },
    };
    let kit = await startKitAgents(opts);
    try {
      const g = { ...first, kit };
      const asked = await rpc(
        g,
        'deployer',
        'SendMessage',
        send([{ text: 'deploy change-ok to production as 4.0.0' }]),
        AUTH,
      );
      const id = asked.body.result.task.id;
      assert.equal(asked.body.result.task.status.state, 'TASK_STATE_INPUT_REQUIRED');
      await kit.close();
      kit = await startKitAgents(opts);
      const h = { ...first, kit };
      const done = await rpc(
        h,
        'deployer',
        'SendMessage',
        send([{ text: 'yes' }], { taskId: id }),
        AUTH,
      );
      assert.equal(
        done.body.result.task.status.state,
        'TASK_STATE_COMPLETED',
        JSON.stringify(done.body),
      );
      assert.equal(artifactData(done.body.result.task, 'release').version, '4.0.0');
    } finally {
      await kit.close();
      rmSync(first.dir, { recursive: true, force: true });
    }
  });
});
