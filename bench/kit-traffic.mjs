/**
 * Normal traffic for bench/soak-attack.mjs, in its own process: what the kit's agents are for, through
 * a2a-kit/client. Test runs (streamed; JSON-RPC and gRPC in turn; change-broken now and then), reviews of
 * the sample's source sent as file parts (streamed), deploys with the deployer's bearer token (staging;
 * every third one to production, confirmed through INPUT_REQUIRED), and GetTask/ListTasks. One loop per
 * kind with a pause between calls. Runs for `seconds` (or until told `{ cmd: 'stop' }`), then answers
 * `{ cmd: 'done', summary }` over IPC: per kind, calls that ended as expected, failures and latencies.
 *
 *   node bench/kit-traffic.mjs '{"testRunner": URL, "reviewer": URL, "deployer": URL, "token": "…",
 *     "workspace": DIR, "seconds": N, "pauseMs": 500}'
 */
import { performance } from 'node:perf_hooks';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';
import { A2AClient, userMessage } from 'a2a-kit/client';
import { grpcTransport } from 'a2a-kit/client/grpc';
import { percentile } from './lib.mjs';

const cfg = JSON.parse(process.argv[2]);
const deadline = Date.now() + cfg.seconds * 1000;
let stopping = false;
process.on('message', (m) => {
  if (m?.cmd === 'stop') stopping = true;
});
const timeoutMs = 60_000;
const running = () => !stopping && Date.now() < deadline;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

const runner = await A2AClient.connect(cfg.testRunner, { timeoutMs });
const runnerGrpc = await A2AClient.connect(cfg.testRunner, {
  timeoutMs,
  bindings: ['GRPC'],
  transports: { GRPC: grpcTransport() },
});
const reviewer = await A2AClient.connect(cfg.reviewer, { timeoutMs });
const deployer = await A2AClient.connect(cfg.deployer, {
  timeoutMs,
  credentials: { bearer: cfg.token },
});

const srcDir = path.join(cfg.workspace, 'change-ok', 'src');
const files = await Promise.all(
  (await readdir(srcDir)).map(async (name) => ({
    text: await readFile(path.join(srcDir, name), 'utf8'),
    filename: `src/${name}`,
    mediaType: 'text/javascript',
  })),
);

/** The state a stream ended in (its last status), or of the task it opened with. */
async function streamedState(stream) {
  let state;
  for await (const ev of stream) {
    if (ev.task) state = ev.task.status.state;
    else if (ev.statusUpdate) state = ev.statusUpdate.status.state;
    else if (ev.message) state = 'message';
  }
  return state;
}

const expect = (state, want, what) => {
  if (state !== want) throw new Error(`${what}: ${state ?? 'no state'} where ${want} was expected`);
};
const recent = [];

const kinds = {
  async tests(i) {
    const client = i % 2 ? runnerGrpc : runner;
    const project = i % 4 === 3 ? 'change-broken' : 'change-ok';
    const state = await streamedState(
      client.sendStreamingMessage({ message: userMessage(`run tests in ${project}`) }),
    );
    expect(state, 'TASK_STATE_COMPLETED', `tests in ${project}`);
  },
  async reviews() {
    const message = userMessage([{ text: 'review these files' }, ...files]);
    expect(
      await streamedState(reviewer.sendStreamingMessage({ message })),
      'TASK_STATE_COMPLETED',
      'review',
    );
  },
  async deploys(i) {
    const target = i % 3 === 2 ? 'production' : 'staging';
    const first = await deployer.sendMessage({
      message: userMessage(`deploy change-ok to ${target}`),
    });
    let task = first.task;
    if (target === 'production') {
      expect(task?.status.state, 'TASK_STATE_INPUT_REQUIRED', 'production deploy');
      const next = await deployer.sendMessage({
        message: userMessage('confirm', { taskId: task.id, contextId: task.contextId }),
      });
      task = next.task;
    }
    expect(task?.status.state, 'TASK_STATE_COMPLETED', `deploy to ${target}`);
    recent.push(task.id);
    if (recent.length > 20) recent.shift();
  },
  async reads(i) {
    if (recent.length) await deployer.getTask({ id: recent[i % recent.length], historyLength: 2 });
    await runner.listTasks({ pageSize: 10 });
  },
};

const summary = {};
await Promise.all(
  Object.entries(kinds).map(async ([kind, call]) => {
    const s = (summary[kind] = { ok: 0, failed: 0, errors: {}, ms: [] });
    for (let i = 0; running(); i++) {
      const t0 = performance.now();
      try {
        await call(i);
        s.ok++;
        s.ms.push(performance.now() - t0);
      } catch (err) {
        s.failed++;
        const why = String(err?.message ?? err).slice(0, 120);
        s.errors[why] = (s.errors[why] ?? 0) + 1;
      }
      await sleep(cfg.pauseMs ?? 500);
    }
  }),
);
for (const s of Object.values(summary)) {
  s.p50 = percentile(s.ms, 50);
  s.p99 = percentile(s.ms, 99);
  delete s.ms;
}
process.send?.({ cmd: 'done', summary });
process.disconnect?.();
