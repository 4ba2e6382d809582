/**
 * The runtimes other than the machine's node, from npm (`npm ci --prefix .ci/runtimes`, which .ci/run
 * does): where their binaries are, and agents started on them as child processes. A runtime that is
 * not installed makes its tests skip and say why, except under CI=true, where that is a failure
 * (`mustHave`).
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import path from 'node:path';
import { mustHave } from '../service-fixture.js';

export { freePort } from '../service-fixture.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const bin = path.join(root, '.ci', 'runtimes', 'node_modules', '.bin');
const STARTUP_MS = 60_000;

/** A runtime's binary, or why its tests cannot run here. */
export function runtime(
  name: 'bun' | 'deno' | 'workerd',
): { bin: string; why?: undefined } | { bin?: undefined; why: string } {
  const file = path.join(bin, name);
  if (existsSync(file)) return { bin: file };
  return {
    why: mustHave(
      `${name} is not installed: npm ci --prefix .ci/runtimes installs it (with bun, deno, workerd, Node 22 and 24) from npm`,
    ),
  };
}

/** `deno run` with what our scripts need: the network, PORT and similar, node_modules, `.js` → `.ts`. */
export const DENO_RUN = ['run', '--allow-net', '--allow-env', '--allow-read', '--sloppy-imports'];

/** A child process serving an agent, and how to stop it. */
export interface RunningAgent {
  origin: string;
  stop(): Promise<void>;
}

/**
 * Starts `cmd args` in the repository and waits for its `echo agent at <origin>` line, or, given an
 * `origin` (workerd prints none), until the card is served there; the output goes into the error when
 * it fails.
 */
export function startAgent(
  cmd: string,
  args: string[],
  opts: { env?: Record<string, string>; origin?: string } = {},
): Promise<RunningAgent> {
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  const child = spawn(cmd, args, {
    cwd: root,
    env: { ...env, ...opts.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  return new Promise<RunningAgent>((resolve, reject) => {
    let done = false;
    const fail = (why: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      void stop().then(() =>
        reject(new Error(`${path.basename(cmd)} ${why}:\n${out.slice(-4000)}`)),
      );
    };
    const timer = setTimeout(
      () => fail(`printed no ready line within ${STARTUP_MS} ms`),
      STARTUP_MS,
    );
    const ready = (origin: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve({ origin, stop });
    };
    const seen = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /^echo agent at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
      if (m && !opts.origin) ready(m[1]!);
    };
    child.stdout.on('data', seen);
    child.stderr.on('data', seen);
    child.once('error', (err) => fail(`could not start: ${err.message}`));
    void exited.then(() =>
      fail(`exited (${child.exitCode ?? child.signalCode}) before it was ready`),
    );
    if (opts.origin)
      void cardServed(opts.origin, () => done).then((ok) => ok && ready(opts.origin!));
  });
}

/** Polls the agent's card (every 200 ms, at most STARTUP_MS) until it answers 200. */
async function cardServed(origin: string, givenUp: () => boolean): Promise<boolean> {
  const until = Date.now() + STARTUP_MS;
  while (!givenUp() && Date.now() < until) {
    const res = await fetch(`${origin}/.well-known/agent-card.json`).catch(() => undefined);
    await res?.body?.cancel();
    if (res?.status === 200) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/**
 * examples/runtimes/worker.ts bundled with esbuild as wrangler would (workerd does not resolve
 * packages), and a workerd configuration serving it on 127.0.0.1:`port`; returns the config's path.
 */
export async function workerdConfig(dir: string, port: number): Promise<string> {
  const esbuild = await import('esbuild');
  await esbuild.build({
    entryPoints: [path.join(root, 'examples', 'runtimes', 'worker.ts')],
    outfile: path.join(dir, 'worker.js'),
    bundle: true,
    format: 'esm',
    platform: 'neutral',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser'],
    external: ['node:*'], // workerd's nodejs_compat provides them
    logLevel: 'error',
  });
  const config = path.join(dir, 'config.capnp');
  writeFileSync(
    config,
    `using Workerd = import "/workerd/workerd.capnp";
const config :Workerd.Config = (
  services = [(name = "echo", worker = .echo)],
  sockets = [(name = "http", address = "127.0.0.1:${port}", http = (), service = "echo")],
);
const echo :Workerd.Worker = (
  modules = [(name = "worker.js", esModule = embed "worker.js")],
  compatibilityDate = "2025-09-01",
  compatibilityFlags = ["nodejs_compat"],
  bindings = [(name = "A2A_ALLOWED_HOSTS", text = "127.0.0.1")],
);
`,
  );
  return config;
}

/** An agent on Node with a signed card, for clients on other runtimes and in the browser. */
export interface SignedAgent {
  origin: string;
  /** The public key the card is signed with, as a JWK carrying its `kid`. */
  jwk: Record<string, unknown>;
  close(): Promise<void>;
}

/**
 * The echo agent (examples/echo.ts) with its card signed (ES256, §8.4), on a node:http server of its
 * own at 127.0.0.1:0. `extra` answers the requests it wants (a test page) before the agent sees them.
 */
export async function signedEchoAgent(
  extra?: (req: IncomingMessage, res: ServerResponse) => boolean,
): Promise<SignedAgent> {
  const { exportJWK, generateKeyPair } = await import('jose');
  const { createAgentServer } = await import('../../src/server/index.js');
  const { echo, echoCard } = await import('../../examples/echo.js');
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = 'runtimes-test';
  const agent = createAgentServer({
    executor: echo,
    card: echoCard,
    signingKeys: [{ privateKey, kid, alg: 'ES256' }],
  });
  const server = createHttpServer((req, res) => {
    if (extra?.(req, res)) return;
    agent.listener(req, res, () => res.writeHead(404).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  await agent.prepare(origin);
  return {
    origin,
    jwk: { ...(await exportJWK(publicKey)), kid },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await agent.close();
    },
  };
}
