/**
 * Operation hooks: the one seam for cross-cutting concerns (logs, traces, metrics, rate limits).
 * The dispatcher runs them after a call is admitted (version, capability, extensions, validation), so a
 * hook sees typed params; no binding knows about them. With no hooks installed the dispatcher never
 * reaches this file, so the usual call allocates nothing for them.
 */
import {
  A2AError,
  isA2AError,
  type OperationName,
  type OperationRequests,
  type OperationResults,
  type StreamingOperationName,
} from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { EventStream, StreamSink } from '../tasks/event-stream.js';
import type { CallContext } from './call-context.js';

/** What the `after` hook of a streaming operation learns once the stream has ended. */
export interface StreamSummary {
  /** Events written to the client, the first one (a Task or a Message) included. */
  events: number;
}

/** What `after` receives as the result of operation `N`: its answer, or a {@link StreamSummary} for a stream. */
export type HookResult<N extends OperationName> = N extends StreamingOperationName
  ? StreamSummary
  : OperationResults[N];

/** One admitted call of operation `N`, as its hooks see it. */
export interface OperationCallOf<N extends OperationName> {
  /** The operation, e.g. `'SendMessage'`: checking it narrows `params` (and `result` in `after`). */
  readonly operation: N;
  /** The validated request. Read it; changing it changes what the operation does. */
  readonly params: OperationRequests[N];
  /** Who is calling (`context.caller`), `A2A-Version`, requested extensions, the binding name. */
  readonly context: CallContext;
  /** The tenant of the call (`''` when none). */
  readonly tenant: string;
}

/** An admitted call of any operation; a union, so `call.operation === 'GetTask'` narrows `call.params`. */
export type OperationCall = { [N in OperationName]: OperationCallOf<N> }[OperationName];

/** A call that succeeded, with its result; `operation` narrows `result` as it narrows `params`. */
export type CompletedCall = {
  [N in OperationName]: OperationCallOf<N> & {
    /** The answer (do not change it), or for a stream the number of events sent. */
    readonly result: HookResult<N>;
  };
}[OperationName];

/**
 * Hooks around every operation the dispatcher runs, over any binding. All three are optional. The same
 * call object is passed to `before`, `after` and `error` of one call, so per-call state (a span, a start
 * time) can be kept in a `WeakMap` keyed by it. Hooks run only for calls that passed the protocol checks
 * and validation; a refused request never reaches them.
 *
 * - `before` runs before the operation (for a stream: before it opens). Throw an {@link A2AError} to
 *   refuse the call: the client gets that error, the operation does not run. It may return a promise.
 * - `after` runs when the operation succeeded, with its result; for `SendStreamingMessage` and
 *   `SubscribeToTask` when the stream ends (or the client leaves), with the number of events sent.
 * - `error` runs when the call failed, with the error the client gets (anything that is not an
 *   A2AError reaches the client, and this hook, as `Internal`).
 * - `around` wraps the operation itself (after every `before`), e.g. to make a tracing context active
 *   for the agent's code; the first hook set listed is the outermost.
 *
 * What `after` and `error` throw or reject with is logged and does not change the answer.
 * With several hook sets, `before` runs in the order given, `after` and `error` in reverse order.
 *
 * @example
 * ```ts
 * import { A2AError, createAgentServer, type AgentCard, type AgentExecutor, type OperationHooks } from 'a2a-kit/server';
 * declare const card: AgentCard, executor: AgentExecutor;
 *
 * const calls = new Map<string, number>(); // operation → completed calls
 * const failures = new Map<string, number>(); // error kind → failed calls
 * const perCaller = new Map<string, number>();
 * let streamedEvents = 0;
 * const hooks: OperationHooks = {
 *   before(call) {
 *     const who = call.context.caller?.id ?? 'anonymous';
 *     perCaller.set(who, (perCaller.get(who) ?? 0) + 1);
 *     if (perCaller.get(who)! > 1000) throw new A2AError('PermissionDenied', 'Too many requests; try again later');
 *   },
 *   after(call) {
 *     calls.set(call.operation, (calls.get(call.operation) ?? 0) + 1);
 *     if (call.operation === 'SendStreamingMessage') streamedEvents += call.result.events;
 *   },
 *   error(_call, error) {
 *     failures.set(error.kind, (failures.get(error.kind) ?? 0) + 1);
 *   },
 * };
 * const server = createAgentServer({ card, executor, hooks });
 * ```
 */
export interface OperationHooks {
  /** Before the operation runs; throw an A2AError to refuse the call. */
  before?(call: OperationCall): void | Promise<void>;
  /** After the operation succeeded (for a stream: after it ended). */
  after?(call: CompletedCall): void | Promise<void>;
  /** After the call failed, with the error the client gets. */
  error?(call: OperationCall, error: A2AError): void | Promise<void>;
  /**
   * Runs the operation (for a stream: its opening) inside `run`, after `before`; returns what `run`
   * returns. For what must hold around the work itself, such as an active tracing context that the
   * agent's code and its store calls inherit. Must call `run` exactly once.
   */
  around?<T>(call: OperationCall, run: () => T): T;
}

/** The call object all hooks of one call share; one class, so every call object has the same shape. */
class LiveCall {
  result: unknown = undefined;
  constructor(
    readonly operation: OperationName,
    readonly params: object,
    readonly context: CallContext,
    readonly tenant: string,
  ) {}
}

/** A call the runner knows about; opaque to the dispatcher. */
export type HookedCall = LiveCall;

const isPromise = (v: unknown): v is Promise<unknown> =>
  typeof v === 'object' && v !== null && typeof (v as Promise<unknown>).then === 'function';

/** The installed hooks, sorted by kind once. */
export class HookRunner {
  readonly #before: OperationHooks[];
  readonly #after: OperationHooks[];
  readonly #error: OperationHooks[];
  readonly #around: OperationHooks[];
  readonly #logger: Logger;

  /** A runner for `hooks`, or undefined when there is nothing to run (then the dispatcher skips hooks entirely). */
  static of(
    hooks: OperationHooks | readonly OperationHooks[] | undefined,
    logger: Logger,
  ): HookRunner | undefined {
    const list =
      hooks === undefined ? [] : Array.isArray(hooks) ? [...hooks] : [hooks as OperationHooks];
    return list.some((h) => h.before || h.after || h.error || h.around)
      ? new HookRunner(list, logger)
      : undefined;
  }

  private constructor(hooks: OperationHooks[], logger: Logger) {
    this.#before = hooks.filter((h) => h.before);
    this.#after = hooks.filter((h) => h.after).reverse();
    this.#error = hooks.filter((h) => h.error).reverse();
    this.#around = hooks.filter((h) => h.around);
    this.#logger = logger;
  }

  /** `work` inside the `around` hooks, the first listed outermost. */
  run<T>(call: HookedCall, work: () => T): T {
    const hooks = this.#around;
    if (hooks.length === 0) return work();
    let wrapped = work;
    for (let i = hooks.length - 1; i >= 0; i--) {
      const inner = wrapped;
      wrapped = () => hooks[i]!.around!(call as OperationCall, inner);
    }
    return wrapped();
  }

  /** The object every hook of this call receives. */
  call<N extends OperationName>(
    operation: N,
    params: OperationRequests[N],
    context: CallContext,
    tenant: string,
  ): HookedCall {
    return new LiveCall(operation, params, context, tenant);
  }

  /** Runs the `before` hooks in order; returns a promise only when one of them does. A throw refuses the call. */
  before(call: HookedCall): Promise<void> | undefined {
    const hooks = this.#before;
    for (let i = 0; i < hooks.length; i++) {
      const pending = hooks[i]!.before!(call as OperationCall);
      if (isPromise(pending)) return this.#beforeFrom(call, pending, i + 1);
    }
    return undefined;
  }

  async #beforeFrom(call: HookedCall, pending: Promise<void>, next: number): Promise<void> {
    await pending;
    for (let i = next; i < this.#before.length; i++)
      await this.#before[i]!.before!(call as OperationCall);
  }

  /** Runs the `after` hooks with the result. */
  after(call: HookedCall, result: unknown): void {
    call.result = result;
    for (const h of this.#after) this.#guard(call, () => h.after!(call as CompletedCall), 'after');
  }

  /** Runs the `error` hooks with the error the client will get. */
  error(call: HookedCall, err: unknown): void {
    if (this.#error.length === 0) return;
    const error = isA2AError(err) ? err : new A2AError('Internal');
    for (const h of this.#error)
      this.#guard(call, () => h.error!(call as OperationCall, error), 'error');
  }

  /** `stream`, counting the events written to the client; `after` runs once when it ends or is closed. */
  stream(call: HookedCall, stream: EventStream): EventStream {
    return new CountedStream(stream, (events) =>
      this.after(call, { events } satisfies StreamSummary),
    );
  }

  #guard(call: HookedCall, run: () => void | Promise<void>, kind: string): void {
    const failed = (err: unknown) =>
      this.#logger.error({ err, operation: call.operation }, `an operation ${kind} hook failed`);
    try {
      const r = run();
      if (isPromise(r)) r.catch(failed);
    } catch (err) {
      failed(err);
    }
  }
}

/** Passes events through, counting them, and reports the count once when the stream ends either way. */
class CountedStream implements EventStream {
  #events = 0;
  #ended = false;

  constructor(
    readonly inner: EventStream,
    readonly onEnd: (events: number) => void,
  ) {}

  open(sink: StreamSink): void {
    this.inner.open({
      event: (event, id) => {
        this.#events++;
        sink.event(event, id);
      },
      end: () => {
        // Before the client sees the end, so whoever reads the whole stream finds the hooks done.
        this.#end();
        sink.end();
      },
    });
  }

  close(): void {
    this.inner.close();
    this.#end();
  }

  #end(): void {
    if (this.#ended) return;
    this.#ended = true;
    this.onEnd(this.#events);
  }
}
