/**
 * Entry point of a review worker thread: loads the compiler, parses the shared declarations once (a warm-up
 * review), says it is ready, then runs one job at a time as the pool sends them. The pool enforces the time
 * budget by terminating this thread, so nothing here needs to watch the clock.
 */
import { parentPort } from 'node:worker_threads';
import type * as TS from 'typescript';
import { runInBackground } from './background.js';
import { libMounts, type LibMounts } from './review-host.js';
import { reviewProgram, type ReviewJobMessage, type ReviewWorkerMessage } from './review-core.js';

const port = parentPort;
const post = (m: ReviewWorkerMessage): void => port?.postMessage(m);

async function loadTypeScript(): Promise<typeof TS> {
  const m = await import('typescript');
  return (m as unknown as { default?: typeof TS }).default ?? m;
}

async function start(): Promise<void> {
  runInBackground();
  let ts: typeof TS;
  let libs: LibMounts;
  try {
    ts = await loadTypeScript();
    libs = libMounts(ts);
  } catch (err) {
    post({
      type: 'unavailable',
      message: `the code reviewer needs the "typescript" package, which could not be loaded: ${String(err)}`,
    });
    return;
  }
  reviewProgram(ts, libs, [{ path: 'warm-up.ts', content: 'export {};\n' }], {}, () => undefined);
  port?.on('message', (job: ReviewJobMessage) => {
    try {
      const report = reviewProgram(ts, libs, job.files, job.rules, (review) =>
        post({ type: 'file', id: job.id, review }),
      );
      post({ type: 'done', id: job.id, report });
    } catch (err) {
      post({
        type: 'failed',
        id: job.id,
        message: err instanceof Error ? `${err.name}: ${err.message}` : String(err),
      });
    }
  });
  post({ type: 'ready' });
}

void start();
