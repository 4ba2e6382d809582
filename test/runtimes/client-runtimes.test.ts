/**
 * a2a-kit/client on Bun and Deno (test/runtimes/client-main.ts, importing the package by name) against
 * an agent on Node whose card is signed: the signature is checked with the runtime's Web Crypto, then
 * send, stream and get run over JSON-RPC and HTTP+JSON.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { expectedLines } from './client-checks.js';
import { DENO_RUN, runtime, signedEchoAgent } from './runtimes-fixture.js';

const root = path.resolve(import.meta.dirname, '..', '..');
const main = path.join('test', 'runtimes', 'client-main.ts');

function run(cmd: string, args: string[], env: Record<string, string>): Promise<string> {
  const { NODE_TEST_CONTEXT: _, ...base } = process.env;
  return new Promise((resolve, reject) =>
    execFile(
      cmd,
      args,
      { cwd: root, env: { ...base, ...env }, timeout: 60_000 },
      (err, out, errOut) =>
        err
          ? reject(new Error(`${path.basename(cmd)} failed: ${err.message}\n${out}\n${errOut}`))
          : resolve(out),
    ),
  );
}

describe('a2a-kit/client on other runtimes', () => {
  const clients: Array<[string, ReturnType<typeof runtime>, string[]]> = [
    ['bun', runtime('bun'), [main]],
    ['deno', runtime('deno'), [...DENO_RUN, main]],
  ];
  for (const [name, rt, args] of clients) {
    it(
      `${name}: a signed card verified, then send, stream and get over JSON-RPC and HTTP+JSON`,
      { skip: rt.why },
      async () => {
        const agent = await signedEchoAgent();
        try {
          const out = await run(rt.bin!, [...args, agent.origin], {
            A2A_TRUST_JWK: JSON.stringify(agent.jwk),
          });
          assert.deepEqual(out.trimEnd().split('\n'), [...expectedLines(true), 'ok']);
        } finally {
          await agent.close();
        }
      },
    );
  }
});
