/**
 * A child process for test/attack-connections.test.ts, started under a small `ulimit -n`: the echo
 * agent with its gRPC listener; prints `{"http":…,"grpc":…}`, then answers each `probe` line on stdin
 * with whether the process can still open a file (`ok`, or the error code, e.g. EMFILE).
 */
import { closeSync, openSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { createAgentServer, silentLogger } from '../src/server/index.js';
import { options } from './mount-fixture.js';

const server = createAgentServer(options({ logger: silentLogger, grpc: {} }));
const origin = await server.listen(0);
process.stdout.write(
  `${JSON.stringify({ http: Number(new URL(origin).port), grpc: server.grpc!.port })}\n`,
);
for await (const line of createInterface({ input: process.stdin })) {
  if (line !== 'probe') continue;
  try {
    closeSync(openSync('/dev/null', 'r'));
    process.stdout.write('ok\n');
  } catch (err) {
    process.stdout.write(`${(err as NodeJS.ErrnoException).code ?? String(err)}\n`);
  }
}
await server.close(200);
