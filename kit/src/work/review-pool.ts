/**
 * Reviews run in worker threads, never on the event loop that serves the agents: type-checking a 1 MB file
 * takes seconds of synchronous compiler work, and all agents of the kit share one process. The pool runs a
 * few reviews at once, keeps a bounded queue (and answers "busy" beyond it), gives each review a time budget
 * (the worker is terminated when it runs over) and a heap limit, and keeps one worker warm between reviews.
 */
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type {
  FileReview,
  ReviewJobFile,
  ReviewReport,
  ReviewWorkerData,
  ReviewWorkerMessage,
} from './review-core.js';
import type { RuleOptions } from './review-rules.js';

/**
 * Why the pool could not give a review: `BUSY` (queue full), `TIMEOUT` (over budget), `CRASHED` (the worker
 * died, ran out of memory, or the compiler threw on the input).
 */
export type ReviewErrorCode = 'BUSY' | 'TIMEOUT' | 'CRASHED';

/** A review the pool refused or had to stop; `message` is written for the requester. */
export class ReviewError extends Error {
  override readonly name = 'ReviewError';
  constructor(
    readonly code: ReviewErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** Thrown when the TypeScript compiler cannot be loaded (or a review worker cannot start at all). */
export class ReviewUnavailableError extends Error {
  override readonly name = 'ReviewUnavailableError';
}

/** Settings of a {@link ReviewPool}; every one has a default. */
export interface ReviewPoolOptions {
  /** Reviews running at once, one worker thread each. Default 2, or 1 on a machine with two cores or fewer. */
  maxConcurrent?: number;
  /** Reviews waiting for a worker; one more is answered with a `BUSY` {@link ReviewError}. Default 8. */
  maxQueued?: number;
  /** Wall-clock budget of one review once a worker has it; over it the worker is terminated. Default 60 s. */
  timeBudgetMs?: number;
  /** Old-generation heap limit of a worker, in MB; a review that needs more is stopped. Default 2048. */
  maxHeapMb?: number;
  /** An idle worker beyond the first is stopped after this long. Default 2 minutes. */
  idleMs?: number;
  /**
   * Heap, in MB, a worker's garbage may grow past what it kept after its last collection before it
   * collects right after a review. Each review leaves a compiler program behind as garbage, and V8 lets
   * a heap that is far from its limit grow for a long time: under steady reviews a worker's heap went
   * 90 → 220 MB before its own collection, most of the agents' memory swing. Default 64.
   */
  heapSlackMb?: number;
}

/** The defaults of {@link ReviewPoolOptions}. */
export const DEFAULT_REVIEW_POOL: Required<ReviewPoolOptions> = {
  maxConcurrent: Math.max(1, Math.min(2, os.availableParallelism() - 1)),
  maxQueued: 8,
  timeBudgetMs: 60_000,
  maxHeapMb: 2048,
  idleMs: 120_000,
  heapSlackMb: 64,
};

/** Callbacks of one review. */
export interface ReviewRunHooks {
  onFile?: (review: FileReview) => void | Promise<void>;
  /** Aborting removes a queued review or terminates its worker; the review rejects with the signal's reason. */
  signal?: AbortSignal;
}

interface Job {
  id: number;
  files: ReviewJobFile[];
  rules: RuleOptions;
  hooks: ReviewRunHooks;
  resolve: (r: ReviewReport) => void;
  reject: (err: unknown) => void;
  /** onFile calls in order; the result waits for the last one. */
  chain: Promise<void>;
  hookError?: { err: unknown };
  timer?: NodeJS.Timeout;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  /** Heap the worker used after its last review (and collection, if it made one). */
  heapBytes?: number;
  job?: Job;
  idle?: NodeJS.Timeout;
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10} s`;
}

function positive(name: string, v: number | undefined, fallback: number): number {
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v <= 0)
    throw new RangeError(`${name} must be a positive number, got ${v}`);
  return v;
}

function startWorker(maxHeapMb: number, heapSlackMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: maxHeapMb };
  const workerData: ReviewWorkerData = { heapSlackBytes: heapSlackMb * 1024 * 1024 };
  if (import.meta.url.endsWith('.ts')) {
    // Running from source (tests, development). tsx hooks only the main thread, so under tsx the worker
    // registers it before loading its TypeScript entry; a runtime that strips types itself needs nothing.
    const entry = new URL('./review-worker.ts', import.meta.url);
    let tsx: string;
    try {
      tsx = import.meta.resolve('tsx/esm/api');
    } catch {
      return new Worker(entry, { resourceLimits, workerData });
    }
    const code = `import(${JSON.stringify(tsx)}).then((m) => { m.register(); return import(${JSON.stringify(entry.href)}); });`;
    return new Worker(code, { eval: true, resourceLimits, workerData });
  }
  return new Worker(new URL('./review-worker.js', import.meta.url), {
    resourceLimits,
    workerData,
  });
}

/** A small pool of review workers with a bounded queue, a time budget per review and a heap limit per worker. */
export class ReviewPool {
  /** The effective settings. */
  readonly settings: Readonly<Required<ReviewPoolOptions>>;
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private warmWaiters: { resolve: () => void; reject: (err: unknown) => void }[] = [];
  private nextId = 1;
  private startFailures = 0;
  private closed = false;

  constructor(opts: ReviewPoolOptions = {}) {
    const d = DEFAULT_REVIEW_POOL;
    this.settings = {
      maxConcurrent: Math.floor(positive('maxConcurrent', opts.maxConcurrent, d.maxConcurrent)),
      maxQueued:
        opts.maxQueued === 0 ? 0 : Math.floor(positive('maxQueued', opts.maxQueued, d.maxQueued)),
      timeBudgetMs: positive('timeBudgetMs', opts.timeBudgetMs, d.timeBudgetMs),
      maxHeapMb: Math.floor(positive('maxHeapMb', opts.maxHeapMb, d.maxHeapMb)),
      idleMs: positive('idleMs', opts.idleMs, d.idleMs),
      heapSlackMb: positive('heapSlackMb', opts.heapSlackMb, d.heapSlackMb),
    };
  }

  /** Heap each started worker used after its last review, in bytes (after a collection when it made one). */
  get workerHeapBytes(): number[] {
    return this.slots.flatMap((s) => (s.heapBytes === undefined ? [] : [s.heapBytes]));
  }

  /** Reviews running and waiting right now. */
  get load(): { running: number; queued: number } {
    return { running: this.slots.filter((s) => s.job).length, queued: this.queue.length };
  }

  /** Runs one review in a worker. Rejects with {@link ReviewError} when busy, over budget or crashed. */
  run(
    files: ReviewJobFile[],
    rules: RuleOptions,
    hooks: ReviewRunHooks = {},
  ): Promise<ReviewReport> {
    hooks.signal?.throwIfAborted();
    if (this.closed) return Promise.reject(new Error('the review pool is closed'));
    const { running, queued } = this.load;
    const { maxConcurrent, maxQueued } = this.settings;
    if (running + queued >= maxConcurrent + maxQueued) {
      return Promise.reject(
        new ReviewError(
          'BUSY',
          `the code reviewer is busy (${running} review(s) running, ${queued} waiting, limit ${maxConcurrent} + ${maxQueued}); try again later`,
        ),
      );
    }
    return new Promise<ReviewReport>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        files,
        rules,
        hooks,
        resolve,
        reject,
        chain: Promise.resolve(),
      };
      if (hooks.signal) {
        const signal = hooks.signal;
        job.onAbort = () => this.stop(job, signal.reason);
        signal.addEventListener('abort', job.onAbort, { once: true });
      }
      this.queue.push(job);
      this.pump();
    });
  }

  /** Starts a worker (if none is running) and waits until it has loaded the compiler and its declarations. */
  warmUp(): Promise<void> {
    if (this.slots.some((s) => s.ready)) return Promise.resolve();
    if (this.closed) return Promise.reject(new Error('the review pool is closed'));
    const waiting = new Promise<void>((resolve, reject) =>
      this.warmWaiters.push({ resolve, reject }),
    );
    if (this.slots.length === 0) this.spawn();
    return waiting;
  }

  /** Stops every worker; running and queued reviews reject. */
  async close(): Promise<void> {
    this.closed = true;
    const err = new Error('the review pool is closed');
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(err));
    this.failWarmWaiters(err);
    const slots = this.slots.splice(0);
    for (const s of slots) if (s.job) this.settle(s.job, () => s.job?.reject(err));
    await Promise.allSettled(slots.map((s) => s.worker.terminate()));
  }

  private pump(): void {
    while (this.queue.length > 0 && !this.closed) {
      const idle = this.slots.find((s) => s.ready && !s.job);
      if (idle) {
        this.assign(idle, this.queue.shift()!);
        continue;
      }
      const starting = this.slots.filter((s) => !s.ready).length;
      if (this.slots.length >= this.settings.maxConcurrent || starting >= this.queue.length) break;
      this.spawn();
    }
  }

  private spawn(): void {
    let worker: Worker;
    try {
      worker = startWorker(this.settings.maxHeapMb, this.settings.heapSlackMb);
    } catch (err) {
      this.failAll(new ReviewUnavailableError(`a review worker could not start: ${String(err)}`));
      return;
    }
    const slot: Slot = { worker, ready: false };
    this.slots.push(slot);
    worker.on('message', (m: ReviewWorkerMessage) => this.onMessage(slot, m));
    worker.on('error', (err) => this.onGone(slot, err));
    worker.on('exit', (code) => this.onGone(slot, undefined, code));
  }

  private assign(slot: Slot, job: Job): void {
    clearTimeout(slot.idle);
    slot.job = job;
    slot.worker.ref();
    const budget = this.settings.timeBudgetMs;
    job.timer = setTimeout(() => {
      this.stop(
        job,
        new ReviewError(
          'TIMEOUT',
          `the review did not finish within its time budget of ${seconds(budget)} and was stopped`,
        ),
      );
    }, budget);
    slot.worker.postMessage({ type: 'review', id: job.id, files: job.files, rules: job.rules });
  }

  private onMessage(slot: Slot, m: ReviewWorkerMessage): void {
    if (!this.slots.includes(slot)) return;
    if (m.type === 'ready') {
      slot.ready = true;
      this.startFailures = 0;
      const waiters = this.warmWaiters.splice(0);
      for (const w of waiters) w.resolve();
      this.idle(slot);
      this.pump();
      return;
    }
    if (m.type === 'heap') {
      slot.heapBytes = m.heapBytes;
      return;
    }
    if (m.type === 'unavailable') {
      this.drop(slot);
      this.failAll(new ReviewUnavailableError(m.message));
      return;
    }
    const job = slot.job;
    if (!job || job.id !== m.id) return;
    if (m.type === 'file') {
      const onFile = job.hooks.onFile;
      if (onFile) {
        job.chain = job.chain
          .then(() => onFile(m.review))
          .catch((err: unknown) => void (job.hookError ??= { err }));
      }
      return;
    }
    slot.job = undefined;
    this.idle(slot);
    this.pump();
    if (m.type === 'done') {
      void job.chain.then(() =>
        this.settle(job, () =>
          job.hookError ? job.reject(job.hookError.err) : job.resolve(m.report),
        ),
      );
    } else {
      // The compiler threw (a stack overflow on absurdly nested code, say): the input is the likely cause.
      this.settle(job, () =>
        job.reject(
          new ReviewError('CRASHED', `the compiler could not process this input (${m.message})`),
        ),
      );
    }
  }

  /** A worker that stopped without being told to: its review fails, and a worker that never started fails the queue. */
  private onGone(slot: Slot, err?: NodeJS.ErrnoException, code?: number): void {
    if (!this.slots.includes(slot)) return;
    this.drop(slot);
    const oom = err?.code === 'ERR_WORKER_OUT_OF_MEMORY';
    const why = oom
      ? `the review needed more than the reviewer's ${this.settings.maxHeapMb} MB of memory and was stopped`
      : `the review worker stopped unexpectedly (${err ? err.message : `exit code ${code}`})`;
    const job = slot.job;
    if (job) this.settle(job, () => job.reject(new ReviewError('CRASHED', why)));
    if (!slot.ready) this.startFailures += 1;
    // A worker that cannot start would be respawned forever; give up on the waiting reviews instead.
    if (!slot.ready && (this.slots.length === 0 || this.startFailures >= 3)) {
      this.startFailures = 0;
      this.failAll(
        new ReviewUnavailableError(
          `a review worker could not start: ${err ? err.message : `exit code ${code}`}`,
        ),
      );
    }
    this.pump();
  }

  /** Ends a job early: out of the queue, or its worker terminated (a fresh one replaces it on demand). */
  private stop(job: Job, reason: unknown): void {
    const queued = this.queue.indexOf(job);
    if (queued !== -1) this.queue.splice(queued, 1);
    const slot = this.slots.find((s) => s.job === job);
    if (queued === -1 && !slot) return;
    if (slot) this.drop(slot);
    this.settle(job, () => job.reject(reason));
    this.pump();
  }

  private drop(slot: Slot): void {
    const i = this.slots.indexOf(slot);
    if (i !== -1) this.slots.splice(i, 1);
    clearTimeout(slot.idle);
    void slot.worker.terminate();
  }

  /** A ready worker without a job does not keep the process alive; one beyond the first retires when idle long. */
  private idle(slot: Slot): void {
    if (slot.job) return;
    slot.worker.unref();
    clearTimeout(slot.idle);
    slot.idle = setTimeout(() => {
      if (!slot.job && this.slots.length > 1) this.drop(slot);
    }, this.settings.idleMs);
    slot.idle.unref();
  }

  private settle(job: Job, done: () => void): void {
    clearTimeout(job.timer);
    if (job.onAbort) job.hooks.signal?.removeEventListener('abort', job.onAbort);
    done();
  }

  private failAll(err: Error): void {
    for (const job of this.queue.splice(0)) this.settle(job, () => job.reject(err));
    this.failWarmWaiters(err);
  }

  private failWarmWaiters(err: Error): void {
    for (const w of this.warmWaiters.splice(0)) w.reject(err);
  }
}
