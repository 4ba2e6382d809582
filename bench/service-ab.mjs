#!/usr/bin/env node
/**
 * A/B two builds of our service in one process, without HTTP: batches of JSON-RPC SendMessage calls
 * (parse the body, call the service, serialise the answer) alternate between the builds, so a slow
 * phase of the machine hits both alike. For changes to our own code, whose effect the kernel and
 * node:http would drown in an HTTP run.
 *
 *   node bench/service-ab.mjs <distA> <distB> [--rounds N] [--calls N]
 *
 * Keep the copies inside the repository (`cp -r dist bench/results/ab/before`). Pin it to one core
 * (`taskset -c 0 node bench/service-ab.mjs …`) for steadier numbers.
 */
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { cliOptions } from './lib.mjs';

const { values: o, positionals: dists } = cliOptions(
  'node bench/service-ab.mjs <distA> <distB> [--rounds N] [--calls N]',
  { rounds: { type: 'string' }, calls: { type: 'string' } },
  { positionals: 2, numbers: ['rounds', 'calls'] },
);
const rounds = Math.min(50, Math.max(3, o.rounds ?? 12));
const calls = Math.min(200_000, Math.max(1000, o.calls ?? 20_000));
const WARM_ROUNDS = 2;

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'SendMessage',
  params: { message: { messageId: 'm1', role: 'ROLE_USER', parts: [{ text: 'hello' }] } },
});
const echo = (ctx, task) => {
  task.working();
  task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
  task.complete();
};
const card = {
  name: 'echo',
  description: 'Echoes what you send',
  version: '1.0.0',
  supportedInterfaces: [
    { url: 'http://127.0.0.1:1/a2a/jsonrpc', protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true },
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
};

/** The first module of `paths` (relative to a dist) that exists: builds before and after the re-layout differ. */
async function first(base, paths) {
  for (const p of paths) {
    try {
      return await import(`${base}${p}`);
    } catch (err) {
      if (err.code !== 'ERR_MODULE_NOT_FOUND') throw err;
    }
  }
  throw new Error(`none of ${paths.join(', ')} in ${base}`);
}

async function load(dist) {
  const base = pathToFileURL(`${resolve(dist)}/`).href;
  const server = await import(`${base}server/index.js`);
  const OperationDispatcher =
    server.A2AService ?? (await first(base, ['server/dispatch/dispatcher.js'])).OperationDispatcher;
  const { callContext } = server.callContext
    ? server
    : await first(base, ['server/dispatch/call-context.js']);
  const { OPERATIONS_BY_METHOD } = await import(`${base}protocol/index.js`);
  const { resultJson } = await first(base, ['server/tasks/json.js', 'server/task-json.js']);
  const service = new OperationDispatcher({ card, executor: echo });
  const op = OPERATIONS_BY_METHOD.get('SendMessage');
  return async (n) => {
    for (let i = 0; i < n; i++) {
      const msg = JSON.parse(BODY);
      const result = await service.call(op, msg.params, callContext({ version: '1.0' }));
      const text = resultJson('SendMessage', result);
      if (!text.includes('TASK_STATE_COMPLETED'))
        throw new Error(`${dist}: unexpected answer ${text.slice(0, 200)}`);
    }
  };
}

const builds = [await load(dists[0]), await load(dists[1])];
const ns = [[], []];
const ratios = [];
for (let r = 0; r < rounds; r++) {
  const got = [];
  for (let k = 0; k < 2; k++) {
    // Alternate which build goes first, so neither always follows the other's garbage.
    const b = (k + r) % 2;
    const t0 = process.hrtime.bigint();
    await builds[b](calls);
    got[b] = Number(process.hrtime.bigint() - t0) / calls;
  }
  if (r < WARM_ROUNDS) continue;
  ns[0].push(got[0]);
  ns[1].push(got[1]);
  ratios.push(got[1] / got[0]);
  console.log(
    `round ${r + 1 - WARM_ROUNDS}: A ${got[0].toFixed(0)} ns  B ${got[1].toFixed(0)} ns  B/A ${(got[1] / got[0]).toFixed(3)}`,
  );
}
const median = (a) => a.slice().sort((x, y) => x - y)[a.length >> 1];
console.log(
  `SendMessage through the service, ns per call: A ${median(ns[0]).toFixed(0)}, B ${median(ns[1]).toFixed(0)}; B/A median ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(3)}–${Math.max(...ratios).toFixed(3)}) over ${ratios.length} rounds`,
);
