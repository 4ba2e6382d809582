/**
 * The event bus between instances of one agent. Without one (the default) a task's events travel only
 * inside the process, from its TaskRun to the listeners of that run: no cost, no dependency, and a
 * task is only visible to streams on the instance that runs it. With a bus (e.g. `redisEvents(url)`
 * from `a2a-kit/server/redis`) several instances behind a load balancer act as one agent:
 *
 * - every event of a task is published to the bus, in order, by the instance running its executor;
 * - `SubscribeToTask` (also resumed with `Last-Event-ID`) on any other instance reads that task's
 *   events from the bus;
 * - the instance running an executor holds a lease on the task and renews it; `CancelTask` anywhere
 *   reaches that instance; when a lease expires (its instance died) another instance fails the task,
 *   or runs it again when the executor is {@link AgentExecutor.resumable}.
 *
 * Why Redis Streams (rather than NATS JetStream or PostgreSQL LISTEN/NOTIFY) is written down in
 * the README section "Running several instances" and on {@link RedisEventBus}.
 */
import type { A2AError, StreamResponse, Task } from '../../protocol/index.js';
import type { Scope } from '../store/task-store.js';
import type { PushQueue } from '../push/dispatcher.js';
import type { PushSender } from '../push/sender.js';

/** What a subscription on the bus receives: events in order, each once, or an error that ends it. */
export interface BusSink {
  /** The next event of the task, with its event id. */
  event(event: StreamResponse, id: string): void;
  /** The bus failed (e.g. it went down): the subscription is over. */
  error(err: A2AError): void;
}

/** A subscription to one task's events on the bus. */
export interface BusSubscription {
  /**
   * True when the subscription continues after the `Last-Event-ID` it was asked for (the events the
   * client missed come first); false when that id is unknown or out of the retention window.
   */
  readonly resumed: boolean;
  /** The id of the last event before this subscription's first one (for the opening Task snapshot). */
  readonly headId: string;
  /** Start delivering to the sink (events that arrived meanwhile are kept). */
  start(sink: BusSink): void;
  /** Stop delivering and release what the subscription holds. */
  close(): void;
}

/** What the bus needs from the instance it serves; given by the task manager at start. */
export interface BusHost {
  /** Cancel a task this instance is running (a request from another instance). */
  cancelLocal(scope: Scope, taskId: string): Promise<Task>;
  /** Another instance's lease on this task expired: fail it, or run it again. */
  orphaned(scope: Scope, taskId: string): Promise<void>;
  /** Another instance holds the lease of a task this one runs (it was taken for dead, or the bus lost it). */
  leaseLost(scope: Scope, taskId: string): void;
  /**
   * The bus had lost the lease of a task this instance runs (Redis restarted empty, or this instance was
   * cut off for a whole TTL) and this instance took it again: check that nobody changed the task meanwhile.
   */
  leaseRetaken(scope: Scope, taskId: string): Promise<void>;
  /**
   * The bus lost its memory (it came back empty, or this instance started on an empty one) and a lease
   * TTL has passed, so live owners hold their tasks again: settle unfinished tasks nobody holds.
   */
  unleased(): Promise<void>;
}

/**
 * A cross-instance event bus. The task manager calls it; bindings never see it. Implementations must
 * keep each task's events in publish order and never deliver one twice to a subscription.
 */
export interface TaskEventBus {
  /** Connect; rejects with an error that names the bus (password masked) when it is unreachable. */
  start(host: BusHost): Promise<void>;
  /** Disconnect; called once when the server closes. */
  close(): Promise<void>;
  /** Throws the `Unavailable` error when new work cannot be accepted (the bus is down). */
  check(): void;
  /** Publish an event of a task (fire and forget; order is kept per task). */
  publish(scope: Scope, taskId: string, event: StreamResponse, id: string): void;
  /** Subscribe to a task's events, after `lastEventId` when given and still retained. */
  subscribe(scope: Scope, taskId: string, lastEventId?: string): Promise<BusSubscription>;
  /**
   * Take the lease on a task this instance is about to run. Resolves false when another live
   * instance holds it (the task is being processed there).
   */
  acquire(scope: Scope, taskId: string): Promise<boolean>;
  /** Give the lease up (the executor is done with the task for now). */
  release(scope: Scope, taskId: string): void;
  /**
   * Cancel a task that another instance runs, waiting (bounded) for its outcome. Resolves undefined
   * when no other live instance holds the task: the caller cancels it itself.
   */
  cancelRemote(scope: Scope, taskId: string): Promise<Task | undefined>;
  /**
   * Put a queue in front of this instance's push sender so that its pending notifications survive
   * its death (called once, before `start`). Without it notifications go straight to the sender.
   */
  pushQueue?(sender: PushSender): PushQueue;
}
