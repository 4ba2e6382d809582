/**
 * Entry point of a review worker thread: loads the compiler, parses the shared declarations once (a warm-up
 * review), says it is ready, then runs one job at a time as the pool sends them. The pool enforces the time
 * budget by terminating this thread, so nothing here needs to watch the clock.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';
import type * as TS from 'typescript';
import { runInBackground } from './background.js';
import { libMounts, type LibMounts } from './review-host.js';
import {
  reviewProgram,
  type ReviewJobMessage,
  type ReviewWorkerData,
  type ReviewWorkerMessage,
} from './review-core.js';

const port = parentPort;
const post = (m: ReviewWorkerMessage): void => port?.postMessage(m);

// The pool always says (ReviewPoolOptions.heapSlackMb); a worker started some other way leaves it to V8.
const heapSlack = (workerData as ReviewWorkerData | undefined)?.heapSlackBytes ?? Infinity;
const heapUsed = (): number => getHeapStatistics().used_heap_size;

/**
 * This thread's garbage collector as a function: `--expose-gc` set now, then `gc` read from a fresh
 * context of this isolate (Node refuses V8 flags in a worker's execArgv). Jest measures heaps this way.
 */
function collector(): (() => void) | undefined {
  try {
    setFlagsFromString('--expose-gc');
    return runInNewContext('gc') as () => void;
  } catch {
    return undefined; // not here: the heap grows as V8 sees fit
  }
}

/**
 * After a review: when the garbage left since the last collection is past the slack, collect it now,
 * while no review waits on this thread, rather than when V8 gets round to it. Returns the heap used.
 */
function settleHeap(state: { kept: number; gc: (() => void) | undefined }): number {
  let used = heapUsed();
  if (state.gc && used > state.kept + heapSlack) {
    state.gc();
    used = heapUsed();
    state.kept = used;
  }
  return used;
}

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
  const heap = { kept: 0, gc: collector() };
  heap.gc?.();
  heap.kept = heapUsed();
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
    // The answer is on its way; the collection, if any, runs before the next review starts.
    post({ type: 'heap', heapBytes: settleHeap(heap) });
  });
  post({ type: 'ready' });
}

void start();
