/**
 * Soak: mixed load on one server for a fixed time — unary SendMessage on both bindings, streams (some
 * abandoned half way), follow-ups to interrupted tasks, GetTask/ListTasks, push configs with deliveries to
 * a local webhook — while the server's RSS and heap are sampled after a forced GC. Memory must stay flat:
 * the report compares the last third of the run with the first third.
 *
 *   node bench/soak.mjs [--minutes 10] [--concurrency 16] [--out bench/results/soak-<date>.md]
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import { writeFileSync } from 'node:fs';
import { ask, cliOptions, here, thirds } from './lib.mjs';

const { values } = cliOptions(
  'node bench/soak.mjs [--minutes 10] [--concurrency 16] [--sample-seconds 15] [--out FILE]',
  {
    minutes: { type: 'string' },
    concurrency: { type: 'string' },
    'sample-seconds': { type: 'string' },
    out: { type: 'string' },
  },
  { numbers: ['minutes', 'concurrency', 'sample-seconds'] },
);
const minutes = values.minutes ?? 10;
const concurrency = values.concurrency ?? 16;
const sampleMs = (values['sample-seconds'] ?? 15) * 1000;
const day = new Date().toISOString().slice(0, 10);
const out = values.out ?? here(`./results/soak-${day}.md`);

// The webhook: counts deliveries, answers 200.
let deliveries = 0;
const hook = createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    deliveries++;
    res.writeHead(200).end();
  });
});
await new Promise((r) => hook.listen(0, '127.0.0.1', r));
const hookUrl = `http://127.0.0.1:${hook.address().port}/hook`;

const child = fork(here('./servers/soak-server.mjs'), [], {
  execArgv: ['--expose-gc'],
  stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
});
const origin = await new Promise((resolve, reject) => {
  child.once('message', (m) =>
    m?.cmd === 'ready' ? resolve(m.origin) : reject(new Error('no ready message')),
  );
  child.once('exit', (code) => reject(new Error(`server exited (${code})`)));
});
const rpcUrl = `${origin}/a2a/jsonrpc`;
const restUrl = `${origin}/a2a/rest`;
const H = { 'content-type': 'application/json', 'a2a-version': '1.0' };

let n = 0;
const counts = {
  send: 0,
  rest: 0,
  stream: 0,
  abandoned: 0,
  followUp: 0,
  get: 0,
  list: 0,
  push: 0,
  errors: 0,
};
const message = (text, extra = {}) => ({
  messageId: `soak-${++n}`,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
const rpc = async (method, params) => {
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({ jsonrpc: '2.0', id: ++n, method, params }),
    signal: AbortSignal.timeout(30_000),
  });
  const body = await res.json();
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
};

async function oneStream(abandon) {
  const ctl = new AbortController();
  const res = await fetch(rpcUrl, {
    method: 'POST',
    headers: H,
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: ++n,
      method: 'SendStreamingMessage',
      params: { message: message('stream 20') },
    }),
    signal: AbortSignal.any([ctl.signal, AbortSignal.timeout(30_000)]),
  });
  const reader = res.body.getReader();
  let chunks = 0;
  for (;;) {
    const { done } = await reader.read();
    if (done) break;
    if (abandon && ++chunks === 1) {
      ctl.abort();
      counts.abandoned++;
      return;
    }
  }
  counts.stream++;
}

const scenarios = [
  async () => {
    await rpc('SendMessage', { message: message('echo') });
    counts.send++;
  },
  async () => {
    const res = await fetch(`${restUrl}/message:send`, {
      method: 'POST',
      headers: H,
      body: JSON.stringify({ message: message('echo') }),
      signal: AbortSignal.timeout(30_000),
    });
    if (!res.ok) throw new Error(`REST ${res.status}`);
    await res.arrayBuffer();
    counts.rest++;
  },
  () => oneStream(false),
  () => oneStream(true).catch(() => undefined),
  async () => {
    const first = await rpc('SendMessage', { message: message('ask') });
    await rpc('SendMessage', { message: message('answer', { taskId: first.task.id }) });
    counts.followUp++;
  },
  async () => {
    const t = await rpc('SendMessage', {
      message: message('ask'),
      configuration: { returnImmediately: true },
    });
    await rpc('CreateTaskPushNotificationConfig', {
      taskId: t.task.id,
      url: hookUrl,
      token: 'soak',
    });
    await rpc('SendMessage', { message: message('answer', { taskId: t.task.id }) });
    counts.push++;
  },
  async () => {
    const t = await rpc('SendMessage', { message: message('echo') });
    await rpc('GetTask', { id: t.task.id, historyLength: 1 });
    counts.get++;
  },
  async () => {
    await rpc('ListTasks', { pageSize: 20 });
    counts.list++;
  },
];

const samples = [];
const started = Date.now();
const deadline = started + minutes * 60_000;
const sample = async () => {
  const { mem } = await ask(child, 'mem');
  samples.push({
    s: Math.round((Date.now() - started) / 1000),
    rss: mem.rss,
    heap: mem.heapUsed,
    deliveries,
    ...counts,
  });
  process.stdout.write(
    `${samples.at(-1).s}s rss ${(mem.rss / 2 ** 20).toFixed(1)} MB heap ${(mem.heapUsed / 2 ** 20).toFixed(1)} MB, ${JSON.stringify(counts)}, deliveries ${deliveries}\n`,
  );
};
await sample();
const timer = setInterval(() => void sample(), sampleMs);

await Promise.all(
  Array.from({ length: concurrency }, async (_, w) => {
    for (let i = w; Date.now() < deadline; i++) {
      try {
        await scenarios[i % scenarios.length]();
      } catch (err) {
        counts.errors++;
        if (counts.errors <= 5) process.stderr.write(`error: ${err.message}\n`);
      }
    }
  }),
);
clearInterval(timer);
await sample();
child.send({ cmd: 'exit' });
hook.close();

const mb = (b) => (b / 2 ** 20).toFixed(1);
const rss = thirds(samples, 'rss');
const heap = thirds(samples, 'heap');
const lines = [
  `# Soak, ${day}`,
  '',
  `${minutes} min, ${concurrency} concurrent clients, mixed: JSON-RPC and REST SendMessage, streams (half of them abandoned after their first chunk),`,
  'follow-ups to INPUT_REQUIRED tasks, push configs with deliveries to a local webhook, GetTask, ListTasks.',
  `In-memory store capped at 5,000 tasks (steady state within the first minute; growth after that would be a leak). \`node bench/soak.mjs --minutes ${minutes} --concurrency ${concurrency}\`.`,
  '',
  `Operations: ${JSON.stringify(counts)}; webhook deliveries: ${deliveries}.`,
  '',
  `RSS, first third → last third (after GC): ${mb(rss.early)} MB → ${mb(rss.late)} MB (×${rss.ratio.toFixed(2)}).`,
  `Heap used: ${mb(heap.early)} MB → ${mb(heap.late)} MB.`,
  '',
  '| t (s) | RSS MB | heap MB | ops | deliveries |',
  '|--:|--:|--:|--:|--:|',
  ...samples.map(
    (x) =>
      `| ${x.s} | ${mb(x.rss)} | ${mb(x.heap)} | ${x.send + x.rest + x.stream + x.abandoned + x.followUp + x.get + x.list + x.push} | ${x.deliveries} |`,
  ),
  '',
];
writeFileSync(out, lines.join('\n'));
process.stdout.write(`wrote ${out}\n`);
process.exit(counts.errors > 0 ? 1 : 0);
