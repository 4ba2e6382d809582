/**
 * What one caller may hold: live tasks (not yet in a terminal state) and the bytes its messages add to
 * stored tasks per hour. Without it one caller — or everyone without credentials, who share the
 * anonymous identity — could fill the store without end (60 tasks of 3.9 MB in 29 s took a store from
 * 16 to 251 MB, issue 28). Counted per process, by the caller's id (tenants share a caller's quota).
 *
 * A refusal is `Unavailable` (HTTP 503, gRPC UNAVAILABLE): §3.3.2 files an exceeded rate limit under
 * the system errors, a condition that passes (a task finishes, the hour's budget refills), and the
 * ErrorInfo says which quota (reason `QUOTA_EXCEEDED`) and when to retry.
 */
import {
  A2AError,
  ERROR_INFO_TYPE,
  KIT_ERROR_DOMAIN,
  isInterrupted,
  isTerminal,
  type Message,
  type StreamResponse,
  type Task,
} from '../../protocol/index.js';
import type { Scope } from '../store/task-store.js';
import { messageSize } from './sizes.js';

/** Per-caller quotas; `false` for one of them turns it off. */
export interface CallerQuotaOptions {
  /** Tasks one caller may have that are not in a terminal state. Default 1,000. */
  liveTasks?: number | false;
  /**
   * Characters of serialized messages one caller may add to stored tasks per hour, refilled
   * continuously (a token bucket). Default 256 Mi.
   */
  bytesPerHour?: number | false;
  /** A task waiting for input longer than this (ms) stops counting as live. Default 24 h. */
  interruptedAfterMs?: number;
}

/** The defaults of {@link CallerQuotaOptions}. */
export const DEFAULT_CALLER_QUOTA = {
  liveTasks: 1000,
  bytesPerHour: 256 * 1024 * 1024,
  interruptedAfterMs: 24 * 60 * 60 * 1000,
} as const;

const HOUR_MS = 60 * 60 * 1000;
/** Past this many callers tracked, callers with a full budget and no live task are forgotten. */
const SWEEP_AT = 10_000;
/** Tasks seen created but not yet sorted (see `#pending`) past which they are sorted at once. */
const PENDING_MAX = 10_000;
/** A caller at its live-task limit has its abandoned tasks looked for at most this often. */
const FORGET_EVERY_MS = 60_000;

/** One caller's account: its live tasks and its byte budget (a token bucket). */
interface Account {
  live: Map<string, Task>;
  tokens: number;
  at: number;
  forgotAt: number;
}

const keyOf = (scope: Scope, id: string): string => `${scope.tenant}\u0000${id}`;

/** Counts each caller's live tasks and recent bytes, and refuses a message past either quota. */
export class CallerQuota {
  readonly #live: number;
  readonly #bytes: number;
  readonly #interruptedMs: number;
  readonly #accounts = new Map<string, Account>();
  /** Which caller holds each live task: events name a task, not its owner's account. */
  readonly #owners = new Map<string, string>();
  /**
   * Tasks seen created (or changing) but not yet counted. Most tasks are finished by the time the
   * next message arrives (a synchronous agent finishes within its call): sorting them then, not at
   * each event, keeps the maps untouched on that path.
   */
  readonly #pending: Array<Scope | Task | undefined> = []; // scope, task, scope, task…
  /** Entries used in `#pending`: the array is reused (never shrunk), so the usual path allocates nothing. */
  #queued = 0;

  constructor(options: CallerQuotaOptions = {}) {
    this.#live = limit(options.liveTasks, DEFAULT_CALLER_QUOTA.liveTasks, 'liveTasks');
    this.#bytes = limit(options.bytesPerHour, DEFAULT_CALLER_QUOTA.bytesPerHour, 'bytesPerHour');
    this.#interruptedMs = options.interruptedAfterMs ?? DEFAULT_CALLER_QUOTA.interruptedAfterMs;
  }

  /**
   * Admit a message of `size` characters from `scope`'s caller (a new task when `creates`), or throw
   * `Unavailable` naming the quota it would exceed. Admitted bytes are taken from the budget at once.
   */
  admit(scope: Scope, size: number, creates: boolean, now = Date.now()): void {
    if (this.#queued > 0) this.#sort();
    const a = this.#account(scope.owner, now);
    if (creates && a.live.size >= this.#live) {
      this.#forgetIdle(a, now);
      if (a.live.size >= this.#live)
        throw refusal(
          'liveTasks',
          `This caller already has ${a.live.size} unfinished tasks, the most this agent keeps per caller; let some finish or cancel them`,
          this.#live,
        );
    }
    if (a.tokens < size) {
      const wait = Math.ceil(((size - a.tokens) / this.#bytes) * HOUR_MS);
      throw refusal(
        'bytesPerHour',
        `This caller sent more than ${amount(this.#bytes)} of messages in the last hour, the most this agent stores per caller; retry in ${Math.ceil(wait / 1000)} s`,
        this.#bytes,
        wait,
      );
    }
    a.tokens -= size;
  }

  /** Follows every task event (the task manager's observer): a task is live until it is terminal. */
  observe(scope: Scope, task: Task | undefined, event: StreamResponse): void {
    if (!task) return;
    const created = 'task' in event;
    if (!created && !('statusUpdate' in event)) return;
    const terminal = isTerminal(task.status.state);
    if (!terminal) {
      // A task that may be live: counted when the next message comes (or a tracked one refreshed).
      if (created || this.#owners.size > 0) this.#queue(scope, task);
      if (this.#queued > 2 * PENDING_MAX) this.#sort();
      return;
    }
    // In order with what is pending: an older event of the task (perhaps from another copy of
    // its object, still showing a live state) must not count it again once sorted.
    if (this.#queued > 0) this.#queue(scope, task);
    if (this.#owners.size > 0) this.#untrack(keyOf(scope, task.id));
  }

  #untrack(key: string): void {
    const owner = this.#owners.get(key);
    if (owner === undefined) return;
    this.#owners.delete(key);
    this.#accounts.get(owner)?.live.delete(key);
  }

  /** Count the pending tasks that are still live (the latest object of each, for its state). */
  #sort(): void {
    const pending = this.#pending;
    const now = Date.now();
    for (let i = 0; i < this.#queued; i += 2) {
      const scope = pending[i] as Scope;
      const task = pending[i + 1] as Task;
      if (isTerminal(task.status.state)) {
        if (this.#owners.size > 0) this.#untrack(keyOf(scope, task.id));
        continue;
      }
      const key = keyOf(scope, task.id);
      const owner = this.#owners.get(key) ?? scope.owner;
      this.#owners.set(key, owner);
      this.#account(owner, now).live.set(key, task);
    }
    pending.fill(undefined, 0, this.#queued); // let the tasks go
    this.#queued = 0;
  }

  #queue(scope: Scope, task: Task): void {
    this.#pending[this.#queued++] = scope;
    this.#pending[this.#queued++] = task;
  }

  /** The account of `owner`, refilled up to `now`. */
  #account(owner: string, now: number): Account {
    let a = this.#accounts.get(owner);
    if (!a) {
      if (this.#accounts.size >= SWEEP_AT) this.#sweep(now);
      a = { live: new Map(), tokens: this.#bytes, at: now, forgotAt: 0 };
      this.#accounts.set(owner, a);
      return a;
    }
    a.tokens = this.#refilled(a, now);
    a.at = now;
    return a;
  }

  /** The budget of `a` at `now`: what it had, plus the hour's budget pro rata, at most the budget. */
  #refilled(a: Account, now: number): number {
    if (a.tokens >= this.#bytes || now <= a.at) return a.tokens;
    return Math.min(this.#bytes, a.tokens + ((now - a.at) / HOUR_MS) * this.#bytes);
  }

  /**
   * Tasks that ended unseen, or have waited for input longer than the limit (abandoned), stop
   * counting. At most once a minute per caller: a caller at its limit cannot make us scan per request.
   */
  #forgetIdle(a: Account, now: number): void {
    if (now - a.forgotAt < FORGET_EVERY_MS) return;
    a.forgotAt = now;
    for (const [key, task] of a.live) {
      const { state, timestamp } = task.status;
      const idle = isInterrupted(state) && now - Date.parse(timestamp ?? '') > this.#interruptedMs;
      if (isTerminal(state) || idle) {
        a.live.delete(key);
        this.#owners.delete(key);
      }
    }
  }

  /** Forget callers that hold nothing: no live task and (by now) a full budget. */
  #sweep(now: number): void {
    for (const [owner, a] of this.#accounts)
      if (a.live.size === 0 && this.#refilled(a, now) >= this.#bytes) this.#accounts.delete(owner);
  }
}

/** `65536` → `64 KiB`, `268435456` → `256 MiB`. */
function amount(bytes: number): string {
  return bytes >= 1024 * 1024
    ? `${Math.round(bytes / 1024 / 1024)} MiB`
    : `${Math.round(bytes / 1024)} KiB`;
}

function limit(v: number | false | undefined, fallback: number, name: string): number {
  if (v === false) return Number.POSITIVE_INFINITY;
  if (v === undefined) return fallback;
  if (!Number.isFinite(v) || v < 1)
    throw new TypeError(`quota.${name} must be a number above 0 or false, got ${String(v)}`);
  return v;
}

function refusal(quota: string, message: string, max: number, retryMs?: number): A2AError {
  const metadata: Record<string, string> = { quota, limit: String(max) };
  if (retryMs !== undefined) metadata.retryAfterSeconds = String(Math.ceil(retryMs / 1000));
  return new A2AError('Unavailable', message, [
    { '@type': ERROR_INFO_TYPE, reason: 'QUOTA_EXCEEDED', domain: KIT_ERROR_DOMAIN, metadata },
  ]);
}

/**
 * Admit a client's message before it reaches the task manager: no bigger than a whole task may be
 * (per request), then within its caller's quota (when there is one).
 */
export function admitMessage(
  message: Message,
  scope: Scope,
  taskBytes: number,
  quota: CallerQuota | undefined,
): void {
  const size = messageSize(message);
  if (size > taskBytes) {
    throw new A2AError(
      'UnsupportedOperation',
      `The message is ${Math.ceil(size / 1024)} KiB, more than the ${Math.round(taskBytes / 1024)} KiB of content this agent keeps per task`,
    );
  }
  quota?.admit(scope, size, !message.taskId);
}
