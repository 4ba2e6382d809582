/**
 * Liveness and readiness. Liveness says the process still serves HTTP (a hung or crashed process gets
 * restarted on it), so it stays 200 through a drain. Readiness says "send me new work": 503 while the
 * server starts or drains, and while any registered check (the store, later an event bus, anything the
 * app adds) fails or does not answer in time. The answers name checks, never their errors: the
 * endpoints are unauthenticated, and an error text may name a database host. Errors go to the log.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../protocol/index.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { A2AConfigError } from '../kernel/config-error.js';

/** One named readiness condition; the server adds `store` itself. */
export interface ReadinessCheck {
  /** Named in the readiness answer, e.g. `store`, `event-bus`. */
  readonly name: string;
  /** Resolves when ready; throwing, rejecting, resolving `false` or not settling in time means not ready. */
  check(): unknown;
}

/** The `health` option of `createAgentServer` as an object; `true` takes every default. */
export interface HealthOptions {
  /** Liveness path, below the mount path. Default `/healthz`. */
  live?: string;
  /** Readiness path, below the mount path. Default `/readyz`. */
  ready?: string;
  /** Further readiness checks, run after the store's. */
  checks?: readonly ReadinessCheck[];
  /** How long one check may take before it counts as failed. Default 2000 ms. */
  checkTimeoutMs?: number;
}

/** What a readiness probe learns; the body of the readiness endpoint. */
export interface ReadinessReport {
  /** `ready` (200), or `unavailable` (503). */
  status: 'ready' | 'unavailable';
  /** Names of the failing checks; `server` while the server starts or drains. */
  failing: string[];
  /** Each check with its outcome: `ok`, `failed`, `timed out`, or for `server` `starting` / `draining`. */
  checks: Array<{ name: string; status: string }>;
}

/** Whether the server itself takes work: its own check, ahead of the registered ones. */
export type ServerPhase = 'starting' | 'serving' | 'draining';

/** The endpoint paths and checks of one agent server. */
export class Health {
  readonly live: string;
  readonly ready: string;
  readonly #checks: ReadinessCheck[] = [];
  readonly #timeoutMs: number;

  constructor(
    options: HealthOptions,
    private readonly phase: () => ServerPhase,
    private readonly logger: Logger,
  ) {
    this.live = healthPath(options.live ?? '/healthz', 'live');
    this.ready = healthPath(options.ready ?? '/readyz', 'ready');
    if (this.live === this.ready)
      throw new A2AConfigError(
        'health',
        `health: the liveness and readiness paths must differ (both ${this.live})`,
      );
    this.#timeoutMs = options.checkTimeoutMs ?? 2000;
  }

  /** Register a readiness check; names are unique. */
  add(check: ReadinessCheck): void {
    if (this.#checks.some((c) => c.name === check.name))
      throw new A2AConfigError(
        'health.checks',
        `a readiness check named "${check.name}" is already registered`,
      );
    this.#checks.push(check);
  }

  /** Run every check (in parallel, each bounded by the timeout), unless the server itself is not taking work. */
  async report(): Promise<ReadinessReport> {
    const phase = this.phase();
    if (phase !== 'serving')
      return {
        status: 'unavailable',
        failing: ['server'],
        checks: [{ name: 'server', status: phase }],
      };
    const checks = [
      { name: 'server', status: 'ok' },
      ...(await Promise.all(this.#checks.map((c) => this.#run(c)))),
    ];
    const failing = checks.filter((c) => c.status !== 'ok').map((c) => c.name);
    return { status: failing.length === 0 ? 'ready' : 'unavailable', failing, checks };
  }

  async #run(c: ReadinessCheck): Promise<{ name: string; status: string }> {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<'timed out'>((resolve) => {
      timer = setTimeout(() => resolve('timed out'), this.#timeoutMs);
      timer.unref();
    });
    try {
      const outcome = await Promise.race([Promise.resolve().then(() => c.check()), timeout]);
      const status = outcome === 'timed out' ? outcome : outcome === false ? 'failed' : 'ok';
      if (status !== 'ok')
        this.logger.warn({ check: c.name, status }, `readiness check ${c.name} ${status}`);
      return { name: c.name, status };
    } catch (err) {
      this.logger.warn({ err, check: c.name }, `readiness check ${c.name} failed`);
      return { name: c.name, status: 'failed' };
    } finally {
      clearTimeout(timer);
    }
  }

  /** Answer `path` when it is one of the endpoints; false otherwise. */
  answer(path: string, req: IncomingMessage, res: ServerResponse): boolean {
    if (path !== this.live && path !== this.ready) return false;
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return true;
    }
    const headers = { 'content-type': 'application/json', 'cache-control': 'no-store' };
    if (path === this.live) {
      res.writeHead(200, headers).end(req.method === 'HEAD' ? undefined : '{"status":"live"}');
      return true;
    }
    this.report().then(
      (r) =>
        res
          .writeHead(r.status === 'ready' ? 200 : 503, headers)
          .end(req.method === 'HEAD' ? undefined : JSON.stringify(r)),
      () => res.writeHead(503, headers).end(),
    );
    return true;
  }
}

function healthPath(p: string, which: string): string {
  if (!/^\/[\w\-./]*$/.test(p))
    throw new A2AConfigError(
      `health.${which}`,
      `health.${which} must be a path starting with /, got "${p}"`,
    );
  return p.replace(/\/+$/, '') || '/';
}

/**
 * The health of an agent server's service: the store's `ping` first (and the push-config store's when it
 * is another), the event bus when there is one (without it this instance cannot serve streams or take
 * over tasks), then the application's own checks.
 */
export function serviceHealth(
  option: boolean | HealthOptions | undefined,
  service: OperationDispatcher,
  phase: () => ServerPhase,
): Health {
  const options = typeof option === 'object' ? option : {};
  const health = new Health(options, phase, service.logger);
  const { store, pushConfigs } = service;
  health.add({ name: 'store', check: () => store.ping?.() });
  if (pushConfigs !== (store as object))
    health.add({ name: 'push-config-store', check: () => pushConfigs.ping?.() });
  const bus = service.tasks.options.bus;
  if (bus) health.add({ name: 'event-bus', check: async () => bus.check() });
  for (const c of options.checks ?? []) health.add(c);
  return health;
}
