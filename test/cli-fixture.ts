/**
 * Helpers of the `a2a` command-line tests: the built binary run as a child process (stdin a pipe,
 * so never a terminal; bounded in time), and a2a-kit agents on 127.0.0.1:0 whose behaviour the
 * message text chooses — streaming or not, asking for input, failing, waiting to be canceled, with
 * bearer auth, push notifications and a signed card. Everything is real: servers, processes, files.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { exportJWK, generateKeyPair } from 'jose';
import {
  createAgentServer,
  generatePushSigner,
  staticBearerTokens,
  type AgentExecutor,
  type AgentServer,
  type CardSigningKey,
} from '../src/server/index.js';
import type { AgentCard } from '../src/index.js';

const root = path.resolve(import.meta.dirname, '..');
/** The built binary, as `npx a2a` runs it. */
export const BIN = path.join(root, 'dist', 'cli', 'a2a.js');
/** Upper bound of one command; a hang fails the test instead of blocking the run. */
export const BOUND_MS = 30_000;
export const TOKEN = 'cli-test-token-0123456789abcdef';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout split into lines, without the trailing empty one. */
  lines: string[];
}

/** Runs `node dist/cli/a2a.js …` with a clean environment (no colours forced, no token) unless `env` adds some. */
export function a2a(
  args: string[],
  opts: { env?: Record<string, string>; input?: string; boundMs?: number } = {},
): Promise<Run> {
  if (!existsSync(BIN)) throw new Error(`${BIN} is missing: run npm run build first`);
  return new Promise((resolve, reject) => {
    const env: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, ...opts.env };
    const child = spawn(process.execPath, [BIN, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `a2a ${args.join(' ')} did not finish within ${opts.boundMs ?? BOUND_MS} ms\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, opts.boundMs ?? BOUND_MS);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({
        code,
        stdout,
        stderr,
        lines: stdout.split('\n').filter((l, i, all) => l !== '' || i < all.length - 1),
      });
    });
    child.stdin.end(opts.input ?? '');
  });
}

/** A running `a2a` child whose output can be awaited line by line (push listen, subscribe). */
export interface Background {
  stdout(): string;
  stderr(): string;
  /** Resolves once stderr/stdout matches (bounded). */
  waitFor(stream: 'stdout' | 'stderr', re: RegExp): Promise<RegExpMatchArray>;
  exit: Promise<Run>;
  kill(signal?: NodeJS.Signals): void;
}

export function a2aBackground(args: string[], env: Record<string, string> = {}): Background {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  const out = { stdout: '', stderr: '' };
  const waiters: Array<() => void> = [];
  const wake = () => waiters.splice(0).forEach((w) => w());
  child.stdout.on('data', (d: Buffer) => ((out.stdout += d.toString()), wake()));
  child.stderr.on('data', (d: Buffer) => ((out.stderr += d.toString()), wake()));
  child.stdin.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), BOUND_MS);
  const exit = new Promise<Run>((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      wake();
      resolve({ code, ...out, lines: out.stdout.split('\n').filter(Boolean) });
    }),
  );
  return {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    exit,
    kill: (signal = 'SIGTERM') => child.kill(signal),
    async waitFor(stream, re) {
      const deadline = Date.now() + BOUND_MS;
      for (let i = 0; i < 10_000 && Date.now() < deadline; i++) {
        const m = re.exec(out[stream]);
        if (m) return m;
        if (child.exitCode !== null) break;
        await new Promise<void>((r) => {
          waiters.push(r);
          setTimeout(r, 200);
        });
      }
      throw new Error(
        `no ${re} on ${stream} of a2a ${args.join(' ')}\nstdout: ${out.stdout}\nstderr: ${out.stderr}`,
      );
    },
  };
}

/**
 * What the test agents do, chosen by the first word of the message: `echo …` replies with a message;
 * `work N` streams N steps and two artifacts (one in chunks); `ask` waits for input, then greets;
 * `fail` / `reject`; `wait` works until canceled; `files` reports the file and data parts it got.
 */
export const executor: AgentExecutor = async (ctx, task) => {
  const text = ctx.text.trim();
  if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') return task.complete(`hello ${text}`);
  const [cmd = '', arg] = text.split(/\s+/);
  switch (cmd) {
    case 'echo':
      return task.reply(text.slice(5));
    case 'work': {
      const n = Number(arg ?? 3);
      for (let i = 1; i <= n; i++) {
        task.working(`step ${i} of ${n}`);
        await new Promise((r) => setImmediate(r));
      }
      const id = task.addArtifact(
        { name: 'story', parts: [{ text: 'once upon ' }] },
        { lastChunk: false },
      );
      task.addArtifact(
        { artifactId: id, name: 'story', parts: [{ text: 'a time' }] },
        { append: true, lastChunk: true },
      );
      task.addArtifact({ name: 'numbers', parts: [{ data: { steps: n } }] });
      return task.complete(`did ${n} steps`);
    }
    case 'ask':
      return task.inputRequired({
        parts: [{ text: 'What is your name?' }, { data: { field: 'name' } }],
      });
    case 'fail':
      return task.fail('it broke');
    case 'reject':
      return task.reject('not for me');
    case 'wait':
      task.working('waiting until canceled');
      await new Promise<void>((resolve) =>
        ctx.signal.aborted
          ? resolve()
          : ctx.signal.addEventListener('abort', () => resolve(), { once: true }),
      );
      return;
    case 'files': {
      const files = ctx.message.parts
        .filter((p) => p.raw !== undefined)
        .map((p) => ({
          filename: p.filename ?? null,
          mediaType: p.mediaType ?? null,
          bytes: Buffer.from(p.raw, 'base64').length,
        }));
      const data = ctx.message.parts.filter((p) => p.data !== undefined).map((p) => p.data!);
      task.addArtifact({ name: 'received', parts: [{ data: { files, data } }] });
      task.addArtifact({
        name: 'copy',
        parts: [
          {
            raw: Buffer.from('hello bytes').toString('base64'),
            filename: 'hello.bin',
            mediaType: 'application/octet-stream',
          },
        ],
      });
      return task.complete(`got ${files.length} file(s) and ${data.length} data part(s)`);
    }
    default:
      return task.complete(`you said: ${text}`);
  }
};

export interface TestAgent {
  url: string;
  server: AgentServer;
}

export interface TestAgents {
  /** Streams, takes push notifications, signs its card. */
  streaming: TestAgent;
  /** Does not stream (send + GetTask polling), JSON-RPC only, signs its push notifications (key `push-key`). */
  plain: TestAgent;
  /** Streams; every call needs `Authorization: Bearer TOKEN`; has an extended card with one more skill. */
  secured: TestAgent;
  /** The public key set that verifies `streaming`'s card, and one with the same kid but another key. */
  jwksFile: string;
  wrongJwksFile: string;
  kid: string;
  dir: string;
  close(): Promise<void>;
}

function card(
  name: string,
  origin: string,
  extra: Partial<AgentCard> = {},
  bindings = ['JSONRPC', 'HTTP+JSON'],
): AgentCard {
  return {
    name,
    description: `the ${name} test agent`,
    version: '1.2.3',
    supportedInterfaces: bindings.map((b) => ({
      url: `${origin}/a2a/${b === 'JSONRPC' ? 'jsonrpc' : 'rest'}`,
      protocolBinding: b,
      protocolVersion: '1.0',
    })),
    capabilities: { streaming: true, pushNotifications: true },
    defaultInputModes: ['text/plain', 'application/json', 'text/markdown'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: [
      {
        id: 'chat',
        name: 'Chat',
        description: 'Does what the first word says',
        tags: ['test'],
        examples: ['work 3'],
      },
    ],
    ...extra,
  };
}

export async function startAgents(): Promise<TestAgents> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-cli-'));
  const kid = 'cli-test-key';
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  const other = await generateKeyPair('ES256', { extractable: true });
  const jwksFile = path.join(dir, 'jwks.json');
  const wrongJwksFile = path.join(dir, 'wrong-jwks.json');
  writeFileSync(
    jwksFile,
    JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' }] }),
  );
  writeFileSync(
    wrongJwksFile,
    JSON.stringify({
      keys: [{ ...(await exportJWK(other.publicKey)), kid, alg: 'ES256', use: 'sig' }],
    }),
  );
  const signingKeys: CardSigningKey[] = [{ privateKey, kid, alg: 'ES256' }];
  const push = { push: { policy: { allowLoopback: true } } };

  const streaming = createAgentServer({
    executor,
    card: (o) => card('streamer', o),
    signingKeys,
    ...push,
  });
  const plain = createAgentServer({
    executor,
    card: (o) =>
      card('plain', o, { capabilities: { streaming: false, pushNotifications: true } }, [
        'JSONRPC',
      ]),
    push: { ...push.push, sender: { signer: await generatePushSigner('ES256', 'push-key') } },
  });
  const bearer = {
    securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  };
  let extended: AgentCard | undefined;
  const secured = createAgentServer({
    executor,
    card: (o) => {
      const c = card('secured', o, {
        ...bearer,
        capabilities: { streaming: true, extendedAgentCard: true },
      });
      extended = {
        ...c,
        skills: [
          ...c.skills,
          {
            id: 'admin',
            name: 'Admin',
            description: 'Only for callers with a token',
            tags: ['test'],
          },
        ],
      };
      return c;
    },
    extendedCard: () => extended,
    auth: { verifiers: { bearer: staticBearerTokens({ [TOKEN]: 'tester' }) } },
  });
  const servers = [streaming, plain, secured];
  const urls = await Promise.all(servers.map((s) => s.listen(0, '127.0.0.1')));
  return {
    streaming: { url: urls[0]!, server: streaming },
    plain: { url: urls[1]!, server: plain },
    secured: { url: urls[2]!, server: secured },
    jwksFile,
    wrongJwksFile,
    kid,
    dir,
    close: async () => {
      await Promise.all(servers.map((s) => s.close(1000)));
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Each stdout line parsed as JSON (NDJSON). */
export function ndjson(run: Run): any[] {
  return run.lines.map((l) => JSON.parse(l));
}

/** A free port nobody listens on (bound then released). */
export async function closedPort(): Promise<number> {
  const { createServer } = await import('node:net');
  const s = createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', r));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
