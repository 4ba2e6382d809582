/**
 * Finished tasks, as read or written by this instance: a finished task never changes again (the task
 * manager refuses changes and a lost race adopts the stored terminal state), so every instance may keep
 * it and answer GetTask without a round trip. Bounded; the oldest entries go first.
 */
import { isTerminal, type TaskState } from '../../../protocol/index.js';
import type { Scope } from '../task-store.js';

interface Entry {
  owner: string;
  tenant: string;
  body: string;
  version: number;
}

/** A bounded map of finished tasks' stored JSON text, by tenant and id (owner checked on every hit). */
export class FinishedCache {
  readonly #entries = new Map<string, Entry>();
  constructor(readonly max: number) {}

  get(scope: Scope, id: string): Entry | undefined {
    const e = this.#entries.get(key(scope.tenant, id));
    return e && e.owner === scope.owner && e.tenant === scope.tenant ? e : undefined;
  }

  /** Remember a finished task; forget one that is not finished (a replace by an unconditional save). */
  put(scope: Scope, id: string, state: TaskState, body: string, version: number): void {
    const k = key(scope.tenant, id);
    if (this.max <= 0) return;
    if (!isTerminal(state)) {
      this.#entries.delete(k);
      return;
    }
    this.#entries.delete(k);
    this.#entries.set(k, { owner: scope.owner, tenant: scope.tenant, body, version });
    if (this.#entries.size > this.max) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

function key(tenant: string, id: string): string {
  return `${tenant}\u0000${id}`;
}
