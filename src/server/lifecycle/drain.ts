/**
 * The drain of an agent server (`close()`, SIGTERM): stop taking work, hand open streams to the client's
 * resume logic, let running agents finish and queued push notifications go out within one deadline,
 * then close the store — and say what was dropped when the deadline passed. The order matters: agents
 * first (their final events are what the pushes carry), pushes next, the store last (agents and pushes
 * still write to it).
 */
import type { Server } from 'node:http';
import type { Logger } from '../../protocol/index.js';
import type { PushSender } from '../push/sender.js';
import type { TaskManager } from '../tasks/manager.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { StreamRegistry } from './streams.js';

/** The `drain` option of `createAgentServer`. */
export interface DrainOptions {
  /**
   * How long `close()` (and a signal, with `closeOnSignals`) gives running agents and queued push
   * notifications before they are aborted and dropped. Default 5000 ms.
   */
  deadlineMs?: number;
  /**
   * How long readiness answers 503 before the listeners close and new work is refused, so a load
   * balancer stops routing here first (Kubernetes probes every few seconds: a few seconds, inside
   * `terminationGracePeriodSeconds`). Work still arrives and is served meanwhile. Default 0.
   */
  readinessDelayMs?: number;
}

/** What a drain did, as `close()` resolves with it (and logs it). */
export interface DrainReport {
  /** Milliseconds from the start of the drain to the store being closed. */
  durationMs: number;
  /** True when agents or deliveries were still running at the deadline (then they were dropped). */
  deadlineExceeded: boolean;
  /** Open streams told to go away (they resume elsewhere), by transport. */
  streams: { sse: number; grpc: number };
  /** Agents still running at the deadline, aborted (their tasks end as the agent handles its signal). */
  tasksAborted: Array<{ taskId: string; tenant: string }>;
  /** Push notifications still queued or in flight at the deadline, not delivered. */
  pushesDropped: number;
  /** HTTP connections still busy at the deadline, cut. */
  connectionsCut: number;
}

/** The parts of a server a drain stops, in order. */
export interface DrainParts {
  servers: Server[];
  /** Stop the gRPC listener (its streams were told already); undefined without gRPC. */
  closeGrpc: (graceMs: number) => Promise<void>;
  streams: StreamRegistry;
  tasks: TaskManager;
  push: PushSender;
  /** Close the stores (the server's choice whether to). */
  closeStores: () => Promise<void>;
  logger: Logger;
}

/** After an abort, how long agents get to record the state they stopped in. */
const ABORT_GRACE_MS = 1000;
/** How often idle keep-alive connections are closed while draining (streams ended leave theirs idle). */
const IDLE_SWEEP_MS = 100;

/**
 * Wait for `p` at most `ms`; true when it settled in time. The timer is not unref'd: a drain must reach
 * its end even when nothing else keeps the process alive; it is cleared as soon as `p` settles.
 */
function within(p: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  return Promise.race([
    p.then(
      () => true,
      () => true,
    ),
    late,
  ]).finally(() => clearTimeout(timer));
}

/** Run the drain; the readiness endpoint and the dispatcher were already told by the caller. */
export async function drain(p: DrainParts, deadlineMs: number): Promise<DrainReport> {
  const started = Date.now();
  const deadline = started + deadlineMs;
  const left = (): number => Math.max(0, deadline - Date.now());
  const running = p.tasks.running();
  p.logger.info(
    { deadlineMs, streams: p.streams.size, tasks: running.length },
    'draining: taking no new work',
  );

  // Stop accepting: no new connections; idle keep-alive ones close (and the ones streams leave idle).
  const httpClosed = Promise.all(
    p.servers.map((s) => new Promise<void>((r) => s.close(() => r()))),
  );
  const sweep = setInterval(() => {
    for (const s of p.servers) s.closeIdleConnections();
  }, IDLE_SWEEP_MS);
  sweep.unref();
  const streams = p.streams.goAwayAll();
  for (const s of p.servers) s.closeIdleConnections();
  const grpcClosed = p.closeGrpc(deadlineMs);

  // Agents finish within the deadline; whoever is still running then is aborted.
  if (running.length > 0) await within(Promise.allSettled(running.map((r) => r.settled)), left());
  const late = p.tasks.running();
  const tasksAborted = late.map((r) => ({ taskId: r.taskId, tenant: r.scope.tenant }));
  p.tasks.abortAll('server shutting down');
  if (late.length > 0) await within(Promise.allSettled(late.map((r) => r.settled)), ABORT_GRACE_MS);

  // Queued notifications (the agents' final events among them) go out within what is left.
  const flushed = await p.push.drain(left());
  const pushStats = p.push.stats;
  const pushesDropped = flushed ? 0 : pushStats.queued + pushStats.inFlight;
  await p.push.close();

  // In-flight requests (a blocking SendMessage) had the agents' time; what is still open is cut.
  let connectionsCut = 0;
  const closedInTime = await within(httpClosed, left());
  if (!closedInTime) {
    for (const s of p.servers) {
      s.closeIdleConnections(); // an idle keep-alive socket loses nothing: only busy ones count as cut
      connectionsCut += await new Promise<number>((r) =>
        s.getConnections((err, n) => r(err ? 0 : n)),
      );
      s.closeAllConnections();
    }
    await httpClosed;
  }
  clearInterval(sweep);
  await grpcClosed;
  await p.tasks.saved();
  await p.closeStores();

  const report: DrainReport = {
    durationMs: Date.now() - started,
    deadlineExceeded: tasksAborted.length > 0 || pushesDropped > 0 || connectionsCut > 0,
    streams,
    tasksAborted,
    pushesDropped,
    connectionsCut,
  };
  if (report.deadlineExceeded) {
    const parts = [
      tasksAborted.length > 0
        ? `${tasksAborted.length} task(s) aborted (${tasksAborted.map((t) => t.taskId).join(', ')})`
        : '',
      pushesDropped > 0 ? `${pushesDropped} push notification(s) not delivered` : '',
      connectionsCut > 0 ? `${connectionsCut} connection(s) cut` : '',
    ].filter(Boolean);
    p.logger.warn({ ...report }, `drain deadline of ${deadlineMs} ms passed: ${parts.join(', ')}`);
  } else {
    p.logger.info(
      { ...report },
      `drained in ${report.durationMs} ms: ${streams.sse + streams.grpc} stream(s) told to resubscribe, nothing dropped`,
    );
  }
  return report;
}

/**
 * The last step of a drain: the event bus, then the stores. A listener mounted in someone else's server
 * (`owns` false) leaves the stores to their owner, as before drains existed.
 */
export async function closeServiceStores(
  service: OperationDispatcher,
  owns: boolean,
): Promise<void> {
  await service.tasks.options.bus?.close();
  if (!owns) return;
  const { store, pushConfigs } = service;
  await store.close?.();
  if (pushConfigs !== (store as object)) await pushConfigs.close?.();
}
