/**
 * The runs this process keeps in memory: the ones in progress, and for a while the finished ones that
 * had streams (a client may resume with Last-Event-ID). Bounded: finished runs go after
 * `replayRetentionMs`, and beyond `maxRetainedRuns` the oldest go first.
 */
import { isTerminalOrInterrupted } from '../../protocol/index.js';
import type { TaskEventBus } from '../events/bus.js';
import { taskKey, type Scope } from '../store/task-store.js';
import type { TaskRun } from './run.js';

/** What the registry is built with (a subset of the task manager's options). */
export interface RegistryOptions {
  readonly replayRetentionMs?: number;
  readonly maxRetainedRuns?: number;
  readonly bus?: TaskEventBus;
}

/** The task manager's map of runs. */
export class RunRegistry {
  readonly #runs = new Map<string, TaskRun>();
  /** Finished runs kept for Last-Event-ID resumes, oldest first. */
  readonly #retained = new Map<string, { run: TaskRun; until: number }>();

  constructor(private readonly options: RegistryOptions) {}

  /** The run of a task kept here, whatever its state (scope checked). */
  get(scope: Scope, id: string): TaskRun | undefined {
    const r = this.#runs.get(taskKey(scope, id));
    if (!r || r.scope.owner !== scope.owner || r.scope.tenant !== scope.tenant) return undefined;
    return r;
  }

  /** The live run of a task: one this process may answer from (see the rule below). */
  live(scope: Scope, id: string): TaskRun | undefined {
    const r = this.get(scope, id);
    // With other instances, a run kept here that is neither executing nor saving may be behind the
    // store (a follow-up ran elsewhere): the store is the truth then.
    if (r && this.options.bus && (r.lost || (!r.busy && !r.saves.pending && !r.saves.dirty)))
      return undefined;
    return r;
  }

  track(run: TaskRun): TaskRun {
    this.#runs.set(taskKey(run.scope, run.taskId), run);
    return run;
  }

  /** Forget a run once nothing needs it in memory; keep it a while for stream resumes. */
  release(run: TaskRun): void {
    if (run.active || run.listening) return;
    if (run.task && !isTerminalOrInterrupted(run.task.status.state)) return;
    const key = taskKey(run.scope, run.taskId);
    if (!run.hadStreams) {
      if (this.#runs.get(key) === run) this.#runs.delete(key);
      return;
    }
    this.#retained.delete(key); // re-inserted last: the map stays in expiry order
    this.#retained.set(key, {
      run,
      until: Date.now() + (this.options.replayRetentionMs ?? 60_000),
    });
    this.#sweep();
  }

  /** Drop retained runs that expired or exceed the cap, oldest first (bounded memory under heavy streaming). */
  #sweep(): void {
    const now = Date.now();
    const cap = this.options.maxRetainedRuns ?? 1000;
    for (const [key, r] of this.#retained) {
      if (this.#retained.size <= cap && r.until > now) break;
      this.#retained.delete(key);
      if (this.#runs.get(key) === r.run && !r.run.active && !r.run.listening)
        this.#runs.delete(key);
    }
  }

  /** Every run kept here. */
  all(): IterableIterator<TaskRun> {
    return this.#runs.values();
  }
}
