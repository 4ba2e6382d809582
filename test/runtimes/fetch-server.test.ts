/**
 * The echo agent recipe served through `toFetchHandler` (a2a-kit/server/fetch) by Bun, Deno and
 * workerd — examples/runtimes/serve-fetch.ts and examples/runtimes/worker.ts as they are — and called by
 * our client on Node over JSON-RPC and HTTP+JSON: discovery, send, stream, get.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { exerciseAgent, expectedLines } from './client-checks.js';
import { DENO_RUN, freePort, runtime, startAgent, workerdConfig } from './runtimes-fixture.js';

const serveFetch = path.join('examples', 'runtimes', 'serve-fetch.ts');

describe('the echo agent through toFetchHandler on other runtimes', () => {
  const hosts: Array<[string, ReturnType<typeof runtime>, string[]]> = [
    ['bun', runtime('bun'), [serveFetch]],
    ['deno', runtime('deno'), [...DENO_RUN, serveFetch]],
  ];
  for (const [name, rt, args] of hosts) {
    it(
      `${name} serves it: send, stream and get over JSON-RPC and HTTP+JSON`,
      { skip: rt.why },
      async () => {
        const agent = await startAgent(rt.bin!, args, { env: { PORT: '0' } });
        try {
          assert.deepEqual(await exerciseAgent(agent.origin), expectedLines(false));
        } finally {
          await agent.stop();
        }
      },
    );
  }

  const workerd = runtime('workerd');
  it(
    'workerd serves the Worker: send, stream and get over JSON-RPC and HTTP+JSON',
    { skip: workerd.why },
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'a2a-workerd-'));
      try {
        const port = await freePort();
        const config = await workerdConfig(dir, port);
        const agent = await startAgent(workerd.bin!, ['serve', config], {
          origin: `http://127.0.0.1:${port}`,
        });
        try {
          assert.deepEqual(await exerciseAgent(agent.origin), expectedLines(false));
        } finally {
          await agent.stop();
        }
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
