/**
 * The PostgreSQL store behind real servers: two instances on one schema (a lost race is re-applied, not
 * overwritten), the database out of reach at start (a clear error, password masked), and a database that
 * restarts mid-run (calls fail as Unavailable, then work again without a restart; nothing stored is lost).
 * The restart uses a throwaway PostgreSQL of its own (initdb in a temp dir, on a free port it probes), never the shared one.
 */
import { test, describe, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { postgresStore, migrate } from '../src/server/store/postgres/index.js';
import {
  commandMissing,
  findCommand,
  freePort,
  POSTGRES,
  postgresBinDirs,
  serviceSkip,
} from './service-fixture.js';
import { rpc, msg, sendTask, start, waitForTask } from './core-fixture.js';
import { a2a } from './cli-fixture.js';

const PG_URL = `postgres://postgres@${POSTGRES.host}:${POSTGRES.port}/test`;
const pgSkip = await serviceSkip(POSTGRES);
const schema = `a2a_pgtest_${process.pid}_${Date.now().toString(36)}`;

after(async () => {
  if (pgSkip) return;
  const admin = new pg.Client({ connectionString: PG_URL });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
});

describe('PostgreSQL store behind servers', { skip: pgSkip }, () => {
  test('migrations: two servers starting together apply each once; `migrate` then finds nothing to do', async () => {
    const [a, b] = await Promise.all([
      start(undefined, { store: postgresStore(PG_URL, { schema }) }),
      start(undefined, { store: postgresStore(PG_URL, { schema }) }),
    ]);
    await a.close();
    await b.close();
    assert.deepEqual(await migrate(PG_URL, { schema }), []);
    const c = new pg.Client({ connectionString: PG_URL });
    await c.connect();
    const rows = (await c.query(`SELECT version FROM "${schema}".a2a_schema_migrations`)).rows;
    await c.end();
    assert.deepEqual(rows, [{ version: 1 }]);
  });

  test('`a2a db migrate URL` prints what it applied, then that the schema is current; exits 3 (unreachable) with the password masked', async () => {
    const cliSchema = `${schema}_cli`;
    try {
      const first = await a2a(['db', 'migrate', PG_URL, '--schema', cliSchema]);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, /applied 1: tasks and push configs/);
      const second = await a2a(['db', 'migrate', PG_URL, '--schema', cliSchema]);
      assert.match(second.stdout, /schema is up to date/);
      const down = await a2a(['db', 'migrate', 'postgres://app:s3cret@127.0.0.1:1/agents']);
      assert.equal(down.code, 3);
      assert.match(down.stderr, /postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/agents/);
      assert.doesNotMatch(down.stderr + down.stdout, /s3cret/);
    } finally {
      const c = new pg.Client({ connectionString: PG_URL });
      await c.connect();
      await c.query(`DROP SCHEMA IF EXISTS "${cliSchema}" CASCADE`);
      await c.end();
    }
  });

  test('a follow-up handled by B while A still runs the task: A lost the race, B’s outcome stands on both', async () => {
    const a = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
    const b = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
    try {
      // A asks for input but keeps running (then finishes on its own when its gate opens).
      const t = await sendTask(a.url, 'linger g1');
      assert.equal(t.status.state, 'TASK_STATE_INPUT_REQUIRED');
      const followUp = await rpc(b.url, 'SendMessage', {
        message: msg('the blue one', { taskId: t.id, contextId: t.contextId }),
      });
      assert.equal(
        followUp.body.result?.task?.status.state,
        'TASK_STATE_COMPLETED',
        JSON.stringify(followUp.body),
      );
      a.probe.gate('g1').open(); // A's stale run now tries to complete the task with its own message
      await waitForTask(a.url, t.id, (x) => x.status.state === 'TASK_STATE_COMPLETED');
      const onA = (await rpc(a.url, 'GetTask', { id: t.id })).body.result;
      const onB = (await rpc(b.url, 'GetTask', { id: t.id })).body.result;
      assert.deepEqual(onA, onB);
      assert.equal(
        onB.status.message?.parts[0].text,
        'thanks',
        'B’s completion is not overwritten by A’s',
      );
      assert.ok(
        onB.history.some(
          (m: { parts: Array<{ text?: string }> }) => m.parts[0]?.text === 'the blue one',
        ),
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('a second instance starting does not fail the task the first one is running (shared store)', async () => {
    const a = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
    let b: Awaited<ReturnType<typeof start>> | undefined;
    try {
      const sent = await rpc(a.url, 'SendMessage', {
        message: msg('gate g2'),
        configuration: { returnImmediately: true },
      });
      const id = sent.body.result?.task?.id as string;
      assert.ok(id, JSON.stringify(sent.body));
      await waitForTask(a.url, id, (x) => x.status.state === 'TASK_STATE_WORKING');
      b = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
      assert.equal(
        (await rpc(b.url, 'GetTask', { id })).body.result?.status.state,
        'TASK_STATE_WORKING',
      );
      a.probe.gate('g2').open();
      await waitForTask(b.url, id, (x) => x.status.state === 'TASK_STATE_COMPLETED');
    } finally {
      await a.close();
      await b?.close();
    }
  });

  test('a cancel through B wins over A finishing the task later: A adopts CANCELED and its executor is aborted', async () => {
    const a = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
    const b = await start(undefined, { store: postgresStore(PG_URL, { schema }) });
    try {
      const sent = await rpc(a.url, 'SendMessage', {
        message: msg('gate g3'),
        configuration: { returnImmediately: true },
      });
      const id = sent.body.result?.task?.id as string;
      await waitForTask(b.url, id, (x) => x.status.state === 'TASK_STATE_WORKING');
      const canceled = await rpc(b.url, 'CancelTask', { id });
      assert.equal(
        canceled.body.result?.status.state,
        'TASK_STATE_CANCELED',
        JSON.stringify(canceled.body),
      );
      a.probe.gate('g3').open(); // A's executor completes; its save loses to B's cancel
      await a.probe.aborted.get(id)?.opened;
      await waitForTask(a.url, id, (x) => x.status.state === 'TASK_STATE_CANCELED');
      assert.deepEqual(
        (await rpc(a.url, 'GetTask', { id })).body.result,
        (await rpc(b.url, 'GetTask', { id })).body.result,
      );
    } finally {
      await a.close();
      await b.close();
    }
  });

  test('database out of reach at start: listen fails with Unavailable, naming the URL without its password', async () => {
    const store = postgresStore('postgres://app:s3cret@127.0.0.1:1/agents');
    await assert.rejects(start(undefined, { store }), (err: Error & { kind?: string }) => {
      assert.equal(err.kind, 'Unavailable');
      assert.match(err.message, /postgres:\/\/app:\*\*\*@127\.0\.0\.1:1\/agents/);
      assert.doesNotMatch(err.message, /s3cret/);
      return true;
    });
    await store.close();
  });
});

/** A PostgreSQL server binary (initdb, pg_ctl) by its full path: Debian's are off PATH. */
const bin = (name: string): string => findCommand(name, postgresBinDirs()) ?? name;

/** A PostgreSQL of our own, in a temp dir, run as the postgres user: free to stop and start. */
class ThrowawayPg {
  readonly dir = mkdtempSync(join(tmpdir(), 'a2a-pg-'));
  constructor(readonly port: number) {
    chmodSync(this.dir, 0o700);
    const id = (flag: string) =>
      Number(execFileSync('id', [flag, 'postgres'], { encoding: 'utf8' }));
    chownSync(this.dir, id('-u'), id('-g'));
    this.#as([
      bin('initdb'),
      '-D',
      join(this.dir, 'data'),
      '-A',
      'trust',
      '-U',
      'postgres',
      '--no-sync',
    ]);
  }
  #as(cmd: string[]): void {
    const args = process.getuid?.() === 0 ? ['-u', 'postgres', '--', ...cmd] : cmd;
    execFileSync(
      process.getuid?.() === 0 ? 'runuser' : cmd[0]!,
      process.getuid?.() === 0 ? args : cmd.slice(1),
      { stdio: 'ignore', timeout: 60_000 },
    );
  }
  start(): void {
    this.#as([
      bin('pg_ctl'),
      '-D',
      join(this.dir, 'data'),
      '-w',
      '-t',
      '30',
      '-l',
      join(this.dir, 'log'),
      '-o',
      `-p ${this.port} -k ${this.dir} -c listen_addresses=127.0.0.1 -c fsync=off`,
      'start',
    ]);
  }
  stop(): void {
    this.#as([bin('pg_ctl'), '-D', join(this.dir, 'data'), '-w', '-t', '30', '-m', 'fast', 'stop']);
  }
  remove(): void {
    try {
      this.stop();
    } catch {
      // already stopped
    }
    rmSync(this.dir, { recursive: true, force: true });
  }
}

// Debian keeps the server binaries off PATH, in /usr/lib/postgresql/<version>/bin.
const noInitdb = commandMissing('initdb', 'postgresql', postgresBinDirs());
describe('database restarting mid-run', { skip: noInitdb }, () => {
  test('calls fail with Unavailable (503 / -32012) while it is down, and work again after, with nothing lost', async () => {
    const db = new ThrowawayPg(await freePort());
    after(() => db.remove());
    db.start();
    const url = `postgres://postgres:pw@127.0.0.1:${db.port}/postgres`;
    const s = await start(undefined, {
      store: postgresStore(url, { pool: { connectionTimeoutMillis: 2000 } }),
    });
    try {
      const before = await sendTask(s.url, 'hello before');
      assert.equal(before.status.state, 'TASK_STATE_COMPLETED');
      db.stop();
      // A finished task this instance knows is still answered (finished tasks never change); the rest waits for the database.
      assert.deepEqual((await rpc(s.url, 'GetTask', { id: before.id })).body.result, before);
      for (const call of [
        rpc(s.url, 'SendMessage', { message: msg('while down') }),
        rpc(s.url, 'ListTasks', {}),
      ]) {
        const r = await call;
        assert.equal(r.body.error?.code, -32012, JSON.stringify(r.body));
        assert.match(
          r.body.error.message,
          new RegExp(
            `PostgreSQL at postgres://postgres:\\*\\*\\*@127\\.0\\.0\\.1:${db.port}/postgres\\) is unavailable`,
          ),
        );
      }
      db.start();
      const listed = await rpc(s.url, 'ListTasks', {});
      assert.deepEqual(
        listed.body.result?.tasks.map((t: { id: string }) => t.id),
        [before.id],
        'nothing half-written while it was down',
      );
      const fresh = await start(undefined, { store: postgresStore(url, { cacheFinished: 0 }) });
      assert.deepEqual(
        (await rpc(fresh.url, 'GetTask', { id: before.id })).body.result,
        before,
        'the task stored before the restart is intact',
      );
      await fresh.close();
      assert.equal((await sendTask(s.url, 'hello after')).status.state, 'TASK_STATE_COMPLETED');
    } finally {
      await s.close();
    }
  });
});
