#!/usr/bin/env node
/**
 * `npm run conformance:itk`: a2a-kit against the TypeScript reference agents of the cross-SDK
 * integration kit (a2aproject/a2a-itk, `agents/ts/v10` on @a2a-js/sdk 1.0 and `agents/ts/v03` on
 * 0.3.14), both directions, on every binding, plain, streaming, with push and by resubscribing.
 *
 * The ITK is checked out at a pinned commit into the cache (`A2A_KIT_CACHE`, else ~/.cache/a2a-kit)
 * from `A2A_ITK_DIR` or the machine's mirror, and its agents' npm dependencies are installed there from
 * the registry with their own lockfiles. Each scenario sends the ITK's traversal instruction (a chain
 * of hops, each answering with its name) to the first agent over JSON-RPC and checks every hop's
 * answer came back; push scenarios also check that the notification service was called.
 * Without a copy of the ITK it says so and exits 0 — except under CI=true.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, rmSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { randomUUID } from 'node:crypto';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { A2AClient } from 'a2a-kit/client';
import { freePort, startServer, stop } from '../processes.mjs';
import { scenarios, instructionPart, expectedAnswers } from './scenarios.mjs';

const ITK_COMMIT = 'cd1537f4035229839dd53a8a9fb49c1c4137ed12';
const here = fileURLToPath(new URL('.', import.meta.url));
const root = resolve(here, '..', '..');
const log = (line) => console.log(`[itk] ${line}`);

function checkout() {
  const source = process.env.A2A_ITK_DIR || '/work/.mirror/a2aproject+a2a-itk/repo';
  if (!existsSync(source)) return undefined;
  const cache = process.env.A2A_KIT_CACHE || join(homedir(), '.cache', 'a2a-kit');
  const dir = join(cache, `a2a-itk-${ITK_COMMIT.slice(0, 12)}`);
  const git = (args, cwd) => execFileSync('git', args, { cwd, stdio: 'pipe' }).toString().trim();
  if (!existsSync(join(dir, 'README.md')) || git(['rev-parse', 'HEAD'], dir) !== ITK_COMMIT) {
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(cache, { recursive: true });
    git(['clone', '--quiet', '--no-checkout', source, dir]);
    git(['-c', 'advice.detachedHead=false', 'checkout', '--quiet', ITK_COMMIT], dir);
  }
  for (const v of ['v10', 'v03']) {
    const agent = join(dir, 'agents', 'ts', v);
    if (existsSync(join(agent, 'node_modules', '.bin', 'tsx'))) continue;
    log(`installing the ITK's ${v} agent's dependencies (npm ci, its lockfile)`);
    execFileSync('npm', ['ci', '--no-audit', '--no-fund', '--omit=dev'], {
      cwd: agent,
      stdio: 'inherit',
      timeout: 600_000,
    });
  }
  return dir;
}

/** Start one agent on fresh ports; resolves to `{ name, url, child }`. */
async function startAgent(name, cmd, args, cwd) {
  const httpPort = await freePort();
  const grpcPort = await freePort();
  const { child } = await startServer(
    cmd,
    [...args, '--httpPort', String(httpPort), '--grpcPort', String(grpcPort)],
    {
      cwd,
      ready: /(gRPC server listening|ITK a2a-kit agent at)/,
      timeoutMs: 120_000,
      log: (line) => process.env.ITK_VERBOSE && log(`${name}: ${line.slice(0, 300)}`),
    },
  );
  // The reference agents print their gRPC line before HTTP is surely up: wait for the card.
  const url = `http://127.0.0.1:${httpPort}`;
  for (let i = 0; i < 100; i++) {
    const ok = await fetch(`${url}/.well-known/agent-card.json`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  return { name, url, child };
}

/** The ITK's notification service: counts POSTs to /notifications (bodies up to 1 MiB). */
async function notifications() {
  const received = [];
  const server = createServer((req, res) => {
    let size = 0;
    req.on('data', (c) => (size += c.length) > 1 << 20 && req.destroy());
    req.on('end', () => {
      if (req.url === '/notifications' && req.method === 'POST')
        received.push(req.headers['x-a2a-notification-token']);
      res.writeHead(200).end('OK');
    });
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    received,
    close: () => server.close(),
  };
}

async function runScenario(s, agents, hub) {
  const nodes = s.chain.map((n) => agents[n]);
  const before = hub.received.length;
  const client = await A2AClient.connect(nodes[0].url, {
    bindings: ['JSONRPC'],
    versions: ['1.0', '0.3'],
  });
  const r = await client.sendMessage(
    {
      message: {
        messageId: randomUUID(),
        role: 'ROLE_USER',
        parts: [instructionPart(s, nodes, hub.url)],
      },
    },
    { timeoutMs: 90_000 },
  );
  const task = r.task;
  const text = (task?.status.message?.parts ?? []).map((p) => p.text ?? '').join('\n');
  const missing = expectedAnswers(s).filter((a) => !text.includes(a));
  if (task?.status.state !== 'TASK_STATE_COMPLETED' || missing.length) {
    return `${task?.status.state ?? 'no task'}: ${text.slice(0, 300) || '(no text)'}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`;
  }
  if (s.behavior === 'push' && hub.received.length === before)
    return 'no push notification arrived';
  return undefined;
}

async function main() {
  const itk = checkout();
  if (!itk) {
    console.log('ITK not run: no copy of a2aproject/a2a-itk (set A2A_ITK_DIR)');
    process.exit(process.env.CI === 'true' ? 1 : 0);
  }
  const hub = await notifications();
  const tsAgent = (v) => ['node_modules/.bin/tsx', ['main.ts'], join(itk, 'agents', 'ts', v)];
  const started = await Promise.all([
    startAgent('a2a-kit', process.execPath, ['--import', 'tsx', join(here, 'agent.ts')], root),
    startAgent('ts_v10', ...tsAgent('v10')),
    startAgent('ts_v03', ...tsAgent('v03')),
  ]);
  const agents = Object.fromEntries(started.map((a) => [a.name, a]));
  let passed = 0;
  const failed = [];
  try {
    const list = scenarios();
    // A few at a time: the resubscribe scenarios spend most of their time in the held task's ticks.
    for (let i = 0; i < list.length; i += 4) {
      await Promise.all(
        list.slice(i, i + 4).map(async (s) => {
          const why = await runScenario(s, agents, hub).catch((e) =>
            String(e?.message ?? e).slice(0, 400),
          );
          if (why === undefined) passed++;
          else if (s.expectedToFail) log(`known: ${s.name}: ${s.expectedToFail}`);
          else failed.push(`${s.name}: ${why}`);
          log(`${why === undefined ? '✔' : s.expectedToFail ? '…' : '✘'} ${s.name}`);
        }),
      );
    }
  } finally {
    for (const a of started) stop(a.child);
    hub.close();
  }
  for (const f of failed) console.log(`  ✘ ${f}`);
  console.log(`itk: ${passed} passed, ${failed.length} failed`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((e) => {
  console.error(e instanceof Error ? e.message : e);
  process.exit(1);
});
