/**
 * Every file in examples/ runs as a user would run it (`node --import tsx examples/<file>.ts`, a child
 * process importing a2a-kit by package name) and prints what its recipe promises. Type-checking them is
 * `tsc -p tsconfig.json`'s job. Each run is bounded by a timeout; the examples start their agents on
 * port 0 on 127.0.0.1 and stop them before exiting.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const TIMEOUT_MS = 60_000;
const { NODE_TEST_CONTEXT: _, ...env } = process.env;

/** Example → what its output must contain. */
const EXPECTED: Record<string, RegExp[]> = {
  'client.ts': [
    /^echo 1\.0\.0: chose \[0\] JSONRPC 1\.0 at http:\/\/127\.0\.0\.1:\d+\/a2a\/jsonrpc/m,
    /^artifact echo: hello$/m,
    /^TASK_STATE_COMPLETED/m,
  ],
  'mount-node-http.ts': [
    /^node:http: card at http:\/\/127\.0\.0\.1:\d+ → \S+\/a2a\/jsonrpc → TASK_STATE_COMPLETED "hello via node:http"$/m,
    /^node:http: \/health → ok$/m,
  ],
  'mount-express.ts': [
    /^express: card at .* → TASK_STATE_COMPLETED "hello via express"$/m,
    /^express \/reporter: card at \S+\/reporter → \S+\/reporter\/a2a\/jsonrpc → TASK_STATE_COMPLETED "hello via express \/reporter"$/m,
  ],
  'mount-fastify.ts': [
    /^fastify: card at .* → TASK_STATE_COMPLETED "hello via fastify"$/m,
    /^fastify \/reporter: card at \S+\/reporter → \S+\/reporter\/a2a\/jsonrpc → TASK_STATE_COMPLETED "hello via fastify \/reporter"$/m,
  ],
  'mount-fetch.ts': [
    /^fetch: card at http:\/\/agent\.localhost → http:\/\/agent\.localhost\/a2a\/jsonrpc → TASK_STATE_COMPLETED "hello via fetch"$/m,
  ],
  'progress-and-file.ts': [
    /^TASK_STATE_WORKING {2}measuring Brest \(1\/3\)$/m,
    /^TASK_STATE_WORKING {2}measuring Nice \(3\/3\)$/m,
    /^file report\.csv \(text\/csv\) saved: "city,letters\\nBrest,5\\nLyon,4\\nNice,4\\n"$/m,
    /^TASK_STATE_COMPLETED {2}measured 3 cities$/m,
  ],
  'cancellation.ts': [
    /^started: TASK_STATE_WORKING$/m,
    /^canceled: TASK_STATE_CANCELED$/m,
    /^cancel again: TaskNotCancelable: /m,
  ],
  'multi-turn.ts': [
    /^TASK_STATE_INPUT_REQUIRED: Production: reply 'yes'/m,
    /^TASK_STATE_COMPLETED: deployed to production$/m,
  ],
  'bearer-auth.ts': [/^with a token: hello, alice$/m, /^without a token: Unauthenticated: /m],
  'grpc.ts': [
    /^with grpcTransport: chose \[0\] GRPC 1\.0 at http:\/\/127\.0\.0\.1:\d+$/m,
    /^ {2}TASK_STATE_COMPLETED {2}4 words$/m,
    /^ {2}GetTask of an unknown id over gRPC: TaskNotFound$/m,
    /^without it: skipped \[0\] GRPC 1\.0: binding not spoken; chose \[1\] JSONRPC 1\.0/m,
  ],
  'errors.ts': [
    /^GetTask of an unknown id: TaskNotFound → /m,
    /^a data part: ContentTypeNotSupported → .*send text only$/m,
    /^push config without the capability: PushNotificationNotSupported → /m,
    /^an agent that throws mid-task: no exception, the task is TASK_STATE_FAILED$/m,
    /^the agent is gone: client side, NETWORK → /m,
  ],
  'push-notifications.ts': [
    /^sent: task TASK_STATE_(SUBMITTED|WORKING)/m,
    /^push: TASK_STATE_WORKING$/m,
    /^push: artifact build$/m,
    /^push: TASK_STATE_COMPLETED$/m,
  ],
};
/** Not runnable recipes: the agent itself, the long-running agent (tested with the client below), a helper. */
const NOT_RECIPES = new Set(['echo.ts', 'echo-agent.ts', 'try-agent.ts']);

function runExample(file: string, args: string[] = []): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', path.join('examples', file), ...args],
      { cwd: root, env, timeout: TIMEOUT_MS },
      (err, stdout, stderr) => {
        if (err)
          reject(
            new Error(
              `examples/${file} failed (${err.killed ? `killed after ${TIMEOUT_MS} ms` : `exit ${err.code}`}):\n${stdout}\n${stderr}`,
            ),
          );
        else resolve(stdout);
      },
    );
  });
}

function assertOutput(file: string, out: string, expected: RegExp[]): void {
  for (const re of expected) assert.match(out, re, `examples/${file} printed:\n${out}`);
}

describe('examples', () => {
  it('every runnable example is listed here, so CI runs it', () => {
    const files = readdirSync(path.join(root, 'examples')).filter(
      (f) => f.endsWith('.ts') && !NOT_RECIPES.has(f),
    );
    assert.deepEqual(files.sort(), Object.keys(EXPECTED).sort());
  });

  for (const [file, expected] of Object.entries(EXPECTED)) {
    it(`examples/${file} runs and prints what it promises`, async () => {
      assertOutput(file, await runExample(file), expected);
    });
  }

  it('examples/echo-agent.ts serves until stopped, and examples/client.ts talks to it by URL', async () => {
    const agent = spawn(
      process.execPath,
      ['--import', 'tsx', path.join('examples', 'echo-agent.ts')],
      { cwd: root, env: { ...env, PORT: '0' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    const exited = new Promise<number | null>((resolve) =>
      agent.once('exit', (code) => resolve(code)),
    );
    try {
      const origin = await new Promise<string>((resolve, reject) => {
        let out = '';
        const timer = setTimeout(
          () => reject(new Error(`no "echo agent at" line within ${TIMEOUT_MS} ms:\n${out}`)),
          TIMEOUT_MS,
        );
        agent.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          const m = /^echo agent at (http:\/\/127\.0\.0\.1:\d+)$/m.exec(out);
          if (!m) return;
          clearTimeout(timer);
          resolve(m[1]!);
        });
        agent.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
        void exited.then(
          (code) => (
            clearTimeout(timer),
            reject(new Error(`echo-agent exited (${code}) before listening:\n${out}`))
          ),
        );
      });
      const out = await runExample('client.ts', [origin, 'from the test']);
      assertOutput('client.ts', out, [/^artifact echo: from the test$/m, /^TASK_STATE_COMPLETED/m]);
    } finally {
      agent.kill('SIGTERM');
      const timer = setTimeout(() => agent.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    }
    assert.equal(await exited, 0, 'echo-agent exits cleanly on SIGTERM');
  });
});
