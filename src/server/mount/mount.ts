/**
 * The one prepare path of an agent server. `prepare()`, `listen()`, the raw listener and every adapter
 * ask it for the site that answers a request; it builds each site once (the card, its checks, its
 * bindings) and keeps it. With a fixed origin (configured, given to `prepare`, or the address `listen`
 * binds) or a card object there is one site for everyone. Otherwise each allowed origin gets its own
 * site, built on its first request, so what one client is told never depends on who came first.
 */
import type { AgentCard } from '../../protocol/index.js';
import type { AgentGrpcHandle } from '../grpc/options.js';
import { A2AConfigError } from '../kernel/config-error.js';
import type { Logger } from '../logger.js';
import { buildCard, type BuiltCard } from './build-card.js';
import { makeSite, type SiteParts } from './make-site.js';
import {
  HostNotAllowedError,
  OriginPolicy,
  checkOrigin,
  requestOrigin,
  type RequestFacts,
} from './origin-policy.js';
import { describeInterface, planListen, requireOneOrigin, trimPath } from './plan.js';
import { Site } from './site.js';

/**
 * Sites kept for request-decided origins. An entry of `allowedHosts` without a port allows every port,
 * so the set of origins is open-ended: the oldest site is dropped past this many (and rebuilt if asked
 * for again).
 */
export const MAX_ORIGIN_SITES = 64;

/** What the mount needs of the agent server, besides what its sites are made of. */
export interface MountHost extends SiteParts {
  readonly logger: Logger;
  /** The gRPC listener, once `listen()` started it: the card function gets its handle. */
  grpc(): AgentGrpcHandle | undefined;
  /** The health paths answered beside the card, when served (no interface may take them). */
  readonly healthPaths: string[] | undefined;
  /** Runs once, before the first site serves anything (tasks a previous process left are settled). */
  ready(): Promise<unknown>;
  /** `card` is now the server's card: the dispatcher's capability checks and gRPC follow it. */
  adopt(card: AgentCard): void;
}

/** Where a base URL given to `prepare` puts the server. */
export type PrepareBase = string | { origin?: string; mountPath?: string };

/** Why a prepared server refuses requests that reach it under another mount path. */
export function mountedElsewhere(prepared: string, seen: string): A2AConfigError {
  return new A2AConfigError(
    'mountPath',
    `this agent server is prepared for the mount path "${prepared}" (its card advertises URLs below it), but a request ` +
      `reached it under "${seen}"; mount one agent server at one path, or create one server per mount`,
  );
}

/** The sites of one agent server and the one way they are built. */
export class Mount {
  /** The server's own host policy (an adapter may bring its own). */
  readonly policy: OriginPolicy;
  readonly #host: MountHost;
  readonly #cardNeedsOrigin: boolean;
  /** One site for everyone: the origin is fixed, or the card is an object. */
  #fixed: Site | undefined;
  #fixedOrigin: string | undefined;
  #fixedPending: Promise<Site> | undefined;
  /** Sites of request-decided origins, oldest first. */
  readonly #byOrigin = new Map<string, Site | Promise<Site>>();
  #mountPath: string | undefined;
  #adopted = false;
  /** Configuration errors already logged, so a misconfigured server does not log on every request. */
  readonly #reported = new Set<string>();

  constructor(host: MountHost) {
    this.#host = host;
    this.policy = new OriginPolicy(host.options);
    this.#cardNeedsOrigin = typeof host.options.card === 'function';
  }

  /** Whether the card is a function of the URL it is served at. */
  get cardNeedsOrigin(): boolean {
    return this.#cardNeedsOrigin;
  }

  /** Whether a site is built (by `prepare`, `listen`, or a first request). */
  get prepared(): boolean {
    return this.#fixed !== undefined || [...this.#byOrigin.values()].some((s) => s instanceof Site);
  }

  /** The mount path sites are built for (`''` at the root). */
  get mountPath(): string {
    return this.#mountPath ?? '';
  }

  /** The card everyone is given, when the origin is fixed (undefined before, or with request-decided origins). */
  get card(): AgentCard | undefined {
    return this.#fixed?.card;
  }

  /** Build the one site for `base` (or the configured origin) and make it the one everyone is served. */
  async prepare(base?: PrepareBase): Promise<AgentCard> {
    let origin = this.policy.origin;
    let mountPath = '';
    if (typeof base === 'string') {
      let url: URL;
      try {
        url = new URL(base);
      } catch {
        throw new A2AConfigError('prepare(base)', `prepare() takes an absolute URL, got "${base}"`);
      }
      origin = checkOrigin(url.origin, 'prepare(base)');
      mountPath = trimPath(url.pathname);
    } else if (base) {
      if (base.origin !== undefined) origin = checkOrigin(base.origin, 'prepare(base).origin');
      mountPath = trimPath(base.mountPath ?? '');
    }
    const built = await this.#buildCard(this.#cardNeedsOrigin ? origin : undefined, mountPath);
    requireOneOrigin(built.planned);
    await this.#host.ready();
    const site = makeSite(this.#host, built, mountPath, built.planned);
    this.#install(site, origin, mountPath);
    return site.card;
  }

  /**
   * The site that answers a request: checks its host against `policy` (the server's, or an
   * adapter's), then finds or builds the site of its origin. `told` is the mount path the host
   * framework reports (undefined when it reports none). Throws (or rejects with)
   * `HostNotAllowedError` for a foreign host and an {@link A2AConfigError} when the server cannot serve.
   */
  siteFor(
    facts: () => RequestFacts,
    told: string | undefined,
    policy: OriginPolicy = this.policy,
  ): Site | Promise<Site> {
    const fixed = this.#fixed;
    if (fixed) {
      // A request without Host (HTTP/1.0) cannot shape a fixed card; a list still refuses a foreign one.
      if (policy.allowedHosts) {
        const { host } = facts();
        if (host !== undefined) policy.checkHost(host);
      }
      if (told !== undefined && told !== this.#mountPath)
        throw mountedElsewhere(this.#mountPath ?? '', told);
      return fixed;
    }
    const choice = policy.choose(this.#cardNeedsOrigin, this.#fixedOrigin);
    const request = facts();
    if (choice.kind === 'request' || request.host !== undefined) policy.checkHost(request.host);
    if (told !== undefined && this.#mountPath !== undefined && told !== this.#mountPath)
      throw mountedElsewhere(this.#mountPath, told);
    const mountPath = this.#mountPath ?? told ?? '';
    if (choice.kind === 'fixed') {
      return (this.#fixedPending ??= this.#buildFixed(choice.origin, mountPath));
    }
    return this.#originSite(requestOrigin(request), mountPath);
  }

  /**
   * For `listen()`: build the card for `base`, and plan it over the listen port and the further ports
   * it names. `install` makes the main site current once the further ports are open.
   */
  async planListen(
    base: string,
    listenHost: string,
  ): Promise<{ extra: Map<number, Site>; install(): Promise<void> }> {
    const built = await this.#buildCard(base, '');
    const port = Number(new URL(base).port || (base.startsWith('https:') ? 443 : 80));
    const plan = planListen(built.planned, port, listenHost);
    const extra = new Map<number, Site>();
    for (const [extraPort, entries] of plan.extra)
      extra.set(extraPort, makeSite(this.#host, built, '', entries));
    return {
      extra,
      install: async () => {
        await this.#host.ready();
        this.#install(makeSite(this.#host, built, '', plan.main), base, '');
      },
    };
  }

  /** Name the interface of a further port that could not be opened. */
  static portError(site: Site, port: number, host: string, err: unknown): A2AConfigError {
    const first = site.planned[0];
    return new A2AConfigError(
      'card',
      `${first ? describeInterface(first) : 'an interface'}: port ${port} on ${host} could not be opened (${(err as Error).message})`,
      { cause: err },
    );
  }

  /**
   * Log a configuration error once (per message) at error level: on a request it is the only place
   * the operator sees it. Foreign hosts are the client's mistake and are not logged.
   */
  report(err: unknown): void {
    if (err instanceof HostNotAllowedError) return;
    const message = err instanceof Error ? err.message : String(err);
    if (this.#reported.has(message) || this.#reported.size >= 32) return;
    this.#reported.add(message);
    const option = err instanceof A2AConfigError ? err.option : undefined;
    const cause = err instanceof Error ? err.cause : undefined;
    this.#host.logger.error(
      { err, ...(option ? { option } : {}), ...(cause ? { cause } : {}) },
      `agent server cannot serve: ${message}`,
    );
  }

  #buildCard(origin: string | undefined, mountPath: string): Promise<BuiltCard> {
    return buildCard(this.#host.options, {
      origin,
      mountPath,
      grpc: this.#host.grpc(),
      healthPaths: this.#host.healthPaths,
    });
  }

  async #buildSite(origin: string | undefined, mountPath: string): Promise<Site> {
    const built = await this.#buildCard(origin, mountPath);
    requireOneOrigin(built.planned);
    await this.#host.ready();
    return makeSite(this.#host, built, mountPath, built.planned);
  }

  #buildFixed(origin: string | undefined, mountPath: string): Promise<Site> {
    const p = this.#buildSite(origin, mountPath).then(
      (site) => {
        if (this.#fixedPending === p) this.#install(site, origin, mountPath);
        return site;
      },
      (err: unknown) => {
        if (this.#fixedPending === p) this.#fixedPending = undefined; // a later request tries again
        throw err;
      },
    );
    return p;
  }

  #originSite(origin: string, mountPath: string): Site | Promise<Site> {
    const known = this.#byOrigin.get(origin);
    if (known) return known;
    const p = this.#buildSite(origin, mountPath).then(
      (site) => {
        if (this.#byOrigin.get(origin) === p) this.#byOrigin.set(origin, site);
        this.#mountPath ??= mountPath;
        this.#adoptFirst(site.card);
        return site;
      },
      (err: unknown) => {
        if (this.#byOrigin.get(origin) === p) this.#byOrigin.delete(origin);
        throw err;
      },
    );
    this.#byOrigin.set(origin, p);
    if (this.#byOrigin.size > MAX_ORIGIN_SITES) {
      const oldest = this.#byOrigin.keys().next().value as string;
      this.#byOrigin.delete(oldest);
    }
    return p;
  }

  #install(site: Site, origin: string | undefined, mountPath: string): void {
    this.#fixed = site;
    this.#fixedOrigin = origin;
    this.#fixedPending = undefined;
    this.#mountPath = mountPath;
    this.#byOrigin.clear();
    this.#reported.clear(); // a later misconfiguration is logged again
    this.#adopted = true;
    this.#host.adopt(site.card);
  }

  #adoptFirst(card: AgentCard): void {
    if (this.#adopted) return;
    this.#adopted = true;
    this.#host.adopt(card);
  }
}
