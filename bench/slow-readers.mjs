/**
 * Issue 28's reproduction of unread streams, on its own: one agent (built `dist/`) whose task holds a
 * 15 MB artifact and stays WORKING, and N raw SubscribeToTask calls over HTTP/1.1 that never read a
 * byte. Prints the RSS after a forced GC before and 2, 5, 12, 25 and 35 s after they subscribe: with a
 * bounded send buffer it comes back to where it was once the slow readers are dropped and their
 * connections destroyed (20 s at most); without, it stays up for as long as they stay connected.
 *
 *   node --expose-gc bench/slow-readers.mjs [N=20] [DIST=./dist]
 */
import { connect } from 'node:net';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

if (typeof globalThis.gc !== 'function') {
  console.error('run with node --expose-gc');
  process.exit(2);
}
const n = Number(process.argv[2] ?? 20);
const dist = pathToFileURL(resolve(process.argv[3] ?? 'dist')).href;
const { createAgentServer } = await import(`${dist}/server/index.js`);

let release;
const gate = new Promise((r) => (release = r));
const server = createAgentServer({
  card: (o) => ({
    name: 'slow-readers',
    description: 'a task with a 15 MB artifact',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${o}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
  }),
  sse: { keepAliveMs: 0 },
  executor: async (_ctx, task) => {
    task.working();
    task.addArtifact({ name: 'big', parts: [{ text: 'x'.repeat(15 * 1024 * 1024) }] });
    await gate;
    task.complete();
  },
});
const origin = await server.listen(0);
const port = Number(new URL(origin).port);
const started = await fetch(`${origin}/a2a/rest/message:send`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
  body: JSON.stringify({
    message: { messageId: 'm', role: 'ROLE_USER', parts: [{ text: 'go' }] },
    configuration: { returnImmediately: true },
  }),
});
const id = (await started.json()).task.id;
const rss = () => {
  globalThis.gc();
  return Math.round(process.memoryUsage().rss / 1048576);
};
console.log(`${n} subscribers that never read a task of 15 MB`);
console.log(`RSS before: ${rss()} MB`);
const sockets = [];
for (let i = 0; i < n; i++) {
  const s = connect(port, '127.0.0.1');
  s.write(
    `POST /a2a/rest/tasks/${id}:subscribe HTTP/1.1\r\nHost: 127.0.0.1\r\nA2A-Version: 1.0\r\nContent-Length: 0\r\n\r\n`,
  );
  s.pause();
  s.on('error', () => undefined);
  sockets.push(s);
}
const t0 = Date.now();
for (const at of [2, 5, 12, 25, 35]) {
  await new Promise((r) => setTimeout(r, Math.max(0, t0 + at * 1000 - Date.now())));
  console.log(`RSS ${at} s after: ${rss()} MB`);
}
release();
for (const s of sockets) s.destroy();
await server.close(100);
