/**
 * `npm run agents` listens where it is told and nowhere else: --ports for the three HTTP servers and
 * --grpc-port (or A2A_KIT_GRPC_PORT) for the test-runner's gRPC server, checked from the process's own
 * listening sockets in /proc. Every agent answers /healthz and /readyz, and the kit drains and exits 0
 * on SIGTERM and on SIGINT, a running task aborted when the kit's 2 s drain deadline passes; a second kit on the same ports stops with the shared port-in-use message and exit 13.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../test/service-fixture.js';

const BOUND_MS = 90_000; // the process loads the TypeScript compiler before it listens

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

/** A file's text, or '' while it does not exist yet. */
function readFileIfAny(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
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

/** Until the kit says it is up, or exits, or BOUND_MS has passed. */
async function comeUp(r: Run): Promise<void> {
  for (let i = 0; i < BOUND_MS / 100 && !r.out().includes('Press Ctrl-C'); i++) {
    if (r.child.exitCode !== null) break;
    await new Promise((res) => setTimeout(res, 100));
  }
}

async function ready(r: Run): Promise<void> {
  await comeUp(r);
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

  /**
   * The kit on four ports that were free a moment ago. Another test process may take one in between
   * (CI saw it once): then the kit exits 13 and it is tried again on fresh ports, up to three times.
   */
  async function kitOnFreePorts(): Promise<{ kit: Run; ports: number[]; grpc: number }> {
    for (let attempt = 1; ; attempt++) {
      const ports = [await freePort(), await freePort(), await freePort()];
      const grpc = await freePort();
      const kit = run(['--ports', ports.join(','), '--grpc-port', String(grpc)], env);
      await comeUp(kit);
      if (attempt < 3 && kit.child.exitCode === 13) continue; // 13: a port was taken
      return { kit, ports, grpc };
    }
  }

  it('listens on exactly --ports and --grpc-port; /healthz and /readyz answer; a second kit gets exit 13', async () => {
    const { kit, ports, grpc } = await kitOnFreePorts();
    try {
      await ready(kit);
      assert.deepEqual(
        listeningPorts(kit.child.pid!),
        [...ports, grpc].sort((a, b) => a - b),
      );
      for (const port of ports) {
        const live = await fetch(`http://127.0.0.1:${port}/healthz`);
        assert.equal(live.status, 200, `${port}/healthz`);
        assert.deepEqual(await live.json(), { status: 'live' });
        const ready = await fetch(`http://127.0.0.1:${port}/readyz`);
        assert.equal(ready.status, 200, `${port}/readyz`);
        assert.equal(((await ready.json()) as { status: string }).status, 'ready');
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

  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    it(`${signal} with a test run hanging: every agent drains with its 2 s deadline, the run is aborted when it passes, exit 0`, async () => {
      const workspace = path.join(dir, `workspace-${signal}`);
      const pidFile = path.join(dir, `hang-${signal}.pid`);
      mkdirSync(path.join(workspace, 'hang', 'test'), { recursive: true });
      writeFileSync(
        path.join(workspace, 'hang', 'test', 'hang.test.js'),
        `require('node:fs').writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));\n` +
          `require('node:test')('hangs', () => new Promise((r) => setTimeout(r, 600000)));\n`,
      );
      const kit = run(['--ports', '0,0,0', '--grpc-port', 'off', '--workspace', workspace], {
        ...env,
        LOG_LEVEL: 'info',
      });
      let hangPid = 0;
      try {
        await ready(kit);
        const runner = /test-runner +(\S+)/.exec(kit.out())![1]!;
        const card = (await (await fetch(runner)).json()) as {
          supportedInterfaces: { url: string; protocolBinding: string; protocolVersion: string }[];
        };
        const rpcUrl = card.supportedInterfaces.find(
          (i) => i.protocolBinding === 'JSONRPC' && i.protocolVersion === '1.0',
        )!.url;
        const sent = await fetch(rpcUrl, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'SendMessage',
            params: {
              message: {
                messageId: `m-${signal}`,
                role: 'ROLE_USER',
                parts: [{ text: 'run tests in hang' }],
              },
              configuration: { returnImmediately: true },
            },
          }),
        });
        assert.equal(sent.status, 200);
        // The hanging test has started once it wrote its pid: the run is in progress.
        for (let i = 0; i < BOUND_MS / 100 && !hangPid; i++) {
          hangPid = Number(readFileIfAny(pidFile));
          if (!hangPid) await new Promise((res) => setTimeout(res, 100));
        }
        assert.ok(hangPid, `the hanging test never started:\n${kit.err()}`);
      } finally {
        kit.child.kill(signal);
      }
      assert.equal(await kit.exited, 0, kit.err());
      const logs = kit
        .err()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { agent?: string; msg: string; deadlineMs?: number });
      for (const agent of ['test-runner', 'code-reviewer', 'deployer']) {
        const drain = logs.find((l) => l.agent === agent && l.msg.startsWith('draining'));
        assert.equal(drain?.deadlineMs, 2000, `${agent} drained with its deadline:\n${kit.err()}`);
      }
      assert.ok(
        logs.some(
          (l) =>
            l.agent === 'test-runner' &&
            /^drain deadline of 2000 ms passed: 1 task\(s\) aborted/.test(l.msg),
        ),
        `the hanging run was aborted at the deadline:\n${kit.err()}`,
      );
      assert.ok(
        logs.some((l) => l.msg === 'stopping the agents' && JSON.stringify(l).includes(signal)),
      );
    });
  }

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
