/**
 * `npm run agents` listens where it is told and nowhere else: --ports for the three HTTP servers and
 * --grpc-port (or A2A_KIT_GRPC_PORT) for the test-runner's gRPC server, checked from the process's own
 * listening sockets in /proc. Every agent answers /healthz and /readyz, and the kit drains and exits 0
 * on SIGTERM; a second kit on the same ports stops with the shared port-in-use message and exit 13.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, readlinkSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

/** A port nothing listens on right now (the kernel's pick for port 0). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The TCP ports a process listens on: its socket inodes matched against /proc/net/tcp{,6}. */
function listeningPorts(pid: number): number[] {
  const inodes = new Set<string>();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  const ports = new Set<number>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length > 9 && f[3] === '0A' && inodes.has(f[9]!))
        ports.add(parseInt(f[1]!.split(':')[1]!, 16));
    }
  }
  return [...ports].sort((a, b) => a - b);
}

interface Run {
  child: ChildProcess;
  out: () => string;
  err: () => string;
  exited: Promise<number | null>;
}

function run(args: string[], env: NodeJS.ProcessEnv): Run {
  const child = spawn(process.execPath, ['--import', 'tsx', 'kit/src/cli/agents.ts', ...args], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
  child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  const killer = setTimeout(() => child.kill('SIGKILL'), 4 * BOUND_MS);
  void exited.then(() => clearTimeout(killer));
  return { child, out: () => out, err: () => err, exited };
}

async function ready(r: Run): Promise<void> {
  for (let i = 0; i < BOUND_MS / 100 && !r.out().includes('Press Ctrl-C'); i++) {
    if (r.child.exitCode !== null) break;
    await new Promise((res) => setTimeout(res, 100));
  }
  assert.match(r.out(), /Press Ctrl-C/, `the kit did not come up:\n${r.out()}\n${r.err()}`);
}

describe('npm run agents: ports, health and drain', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-ports-'));
    env = {
      PATH: process.env.PATH,
      HOME: process.env.HOME,
      KIT_WORK_DIR: dir,
      KIT_STORE: 'memory',
      LOG_LEVEL: 'warn',
    };
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('listens on exactly --ports and --grpc-port; /healthz and /readyz answer; a second kit gets exit 13', async () => {
    const ports = [await freePort(), await freePort(), await freePort()];
    const grpc = await freePort();
    const kit = run(['--ports', ports.join(','), '--grpc-port', String(grpc)], env);
    try {
      await ready(kit);
      assert.deepEqual(
        listeningPorts(kit.child.pid!),
        [...ports, grpc].sort((a, b) => a - b),
      );
      for (const port of ports) {
        for (const probe of ['/healthz', '/readyz']) {
          const res = await fetch(`http://127.0.0.1:${port}${probe}`);
          assert.equal(res.status, 200, `${port}${probe}`);
          await res.body?.cancel();
        }
      }
      const second = run(['--ports', ports.join(','), '--grpc-port', String(grpc)], env);
      assert.equal(await second.exited, 13, second.err());
      assert.match(second.err(), /^agents: cannot listen, the port is already in use \(/m);
    } finally {
      kit.child.kill('SIGTERM');
    }
    // Drained within its 2 s deadline and exited by itself, cleanly (bounded by the killer above).
    assert.equal(await kit.exited, 0, kit.err());
  });

  it('A2A_KIT_GRPC_PORT sets the gRPC port; a malformed one is a usage error', async () => {
    const grpc = await freePort();
    const kit = run(['--ports', '0,0,0'], { ...env, A2A_KIT_GRPC_PORT: String(grpc) });
    try {
      await ready(kit);
      assert.ok(listeningPorts(kit.child.pid!).includes(grpc));
    } finally {
      kit.child.kill('SIGTERM');
    }
    assert.equal(await kit.exited, 0, kit.err());
    const bad = run(['--ports', '0,0,0', '--grpc-port', 'x'], env);
    assert.equal(await bad.exited, 2);
    assert.match(bad.err(), /--grpc-port expects a port \(0–65535\) or off, got "x"/);
  });
});
