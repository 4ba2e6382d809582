/**
 * The persistence bookkeeping of one task run: whether a change waits to be saved, the save in flight,
 * the store version the next save must carry, and why the latest save failed. Owned by the run; the
 * save loop (save.ts) moves it through the transitions below. Rules: at most one save in flight; a
 * change made while it runs is saved after it (coalesced); the version only ever takes what the store
 * answered or what was read from it.
 */

/** Save state of one run; `T` is what the save loop resolves with (the run when its save failed). */
export class RunSaves<T> {
  #dirty = false;
  #saving: Promise<T> | undefined;
  #version: number | undefined;
  #error: unknown;

  /** @param version the stored version (0: not stored yet; undefined: unknown, merge before saving). */
  constructor(version: number | undefined) {
    this.#version = version;
  }

  /** The store version the next save carries. */
  get version(): number | undefined {
    return this.#version;
  }

  /** The save loop in flight, if any. */
  get pending(): Promise<T> | undefined {
    return this.#saving;
  }

  /** Whether a change is waiting to be saved. */
  get dirty(): boolean {
    return this.#dirty;
  }

  /** Why the latest save failed; undefined once a later one succeeded. */
  get error(): unknown {
    return this.#error;
  }

  /**
   * The task changed. Returns true when no save loop is running: the caller starts one and hands it
   * to {@link started}; else the running loop saves this change too.
   */
  changed(): boolean {
    this.#dirty = true;
    return this.#saving === undefined;
  }

  /** The save loop that was started (it must not settle synchronously). */
  started(loop: Promise<T>): void {
    this.#saving = loop;
  }

  /** The loop takes the waiting change (what it writes next includes it); false when none waits. */
  take(): boolean {
    const dirty = this.#dirty;
    this.#dirty = false;
    return dirty;
  }

  /** A write landed; stores without versions answer nothing. */
  stored(version: number | void): void {
    if (typeof version === 'number') this.#version = version;
    this.#error = undefined; // the latest state is stored: an earlier failure no longer matters
  }

  /** A write lost a race: the change waits again (to be laid over the newer task). */
  retry(): void {
    this.#dirty = true;
  }

  /** The write failed for good. */
  failed(err: unknown): void {
    this.#error = err;
  }

  /** The stored state stands as it is: nothing of ours is left to save. */
  superseded(): void {
    this.#error = undefined;
  }

  /** The task was re-read after a lost race, at this version. */
  rebased(version: number | undefined): void {
    this.#version = version;
  }

  /** The version the task was read at, when the run did not know one yet. */
  know(version: number | undefined): void {
    this.#version ??= version;
  }

  /** The loop is over; true when the latest save failed. */
  ended(): boolean {
    this.#saving = undefined;
    return this.#error !== undefined;
  }
}
