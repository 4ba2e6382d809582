/**
 * Mounts an agent over HTTP: the well-known card, and one binding per `supportedInterfaces` entry of
 * the card, at exactly that entry's URL. What the card lists is what is answered: every entry is
 * checked before the first request (see mount-plan.ts), and a listener mounted without preparation
 * prepares itself instead of answering 404 to everything.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AgentCard } from '../protocol/index.js';
import { OperationDispatcher } from './dispatch/dispatcher.js';
import type { AgentServerOptions } from './agent-server-options.js';
import { SERVED_BINDINGS, type ServedRoute } from './bindings/registry.js';
import { buildCard, type BuiltCard } from './card/build.js';
import { signedSource } from './card/signing.js';
import { serverAuthOptions } from './auth/authenticator.js';
import {
  describeInterface,
  planListen,
  requireOneOrigin,
  trimPath,
  type PlannedInterface,
} from './mount-plan.js';
import {
  HostNotAllowedError,
  MountError,
  checkOrigin,
  hostAllowed,
  isHostChecked,
  mountedElsewhere,
  mountPathOf,
  originFor,
  originOf,
  type MountOptions,
} from './adapters/framework-common.js';
import { openHttpServer } from './http-listen.js';
import { wholeNumber } from './util/check-options.js';
import type { AgentGrpcHandle } from './grpc/options.js';
import { AgentGrpcSlot } from './grpc/agent-slot.js';
import { attachedGrpc } from './grpc/interfaces.js';
import { Site } from './site.js';
import {
  serviceHealth,
  type Health,
  type ReadinessCheck,
  type ReadinessReport,
} from './lifecycle/health.js';
import { closeServiceStores, drain, type DrainReport } from './lifecycle/drain.js';
import { closeOnSignals, type CloseOnSignalsOptions } from './lifecycle/signals.js';
import { StreamRegistry } from './lifecycle/streams.js';
import { V03Registrations, v03Handler, v03Stores } from './compat/index.js';

export { DEFAULT_HTTP_TIMEOUTS, type HttpTimeoutOptions } from './http-listen.js';

export type { AgentServerOptions } from './agent-server-options.js';

type Next = (err?: unknown) => void;

/**
 * An A2A agent served over HTTP: either standalone with {@link AgentServer.listen}, or mounted in your
 * own server through {@link AgentServer.listener} (or the Express, Fastify and fetch adapters).
 */
export class AgentServer {
  /** The operation dispatcher every binding calls: tasks, store, push sender, the current card. */
  readonly service: OperationDispatcher;
  /** The `origin` and `allowedHosts` this server was created with (adapters may override them). */
  readonly mountOptions: Readonly<MountOptions>;
  #site: Site | undefined;
  #mountPath = '';
  #preparing: Promise<unknown> | undefined;
  #servers: Server[] = [];
  readonly #grpc: AgentGrpcSlot;
  #reported = false;
  #recovered: Promise<number> | undefined;
  /** 0.3 webhooks being registered, shared by the 0.3 handlers and the push layer (only with compat). */
  readonly #v03: V03Registrations | undefined;
  /** Open streams of every transport, told to go away when the server drains. */
  readonly #streams = new StreamRegistry();
  /** The endpoints and checks of `health` (the checks are kept even without endpoints: see readiness()). */
  readonly #health: Health;
  readonly #healthServed: boolean;
  #closing: Promise<DrainReport> | undefined;

  constructor(private readonly options: AgentServerOptions) {
    const placeholder = typeof options.card === 'function' ? undefined : options.card;
    this.mountOptions = {
      ...(options.origin !== undefined ? { origin: checkOrigin(options.origin) } : {}),
      ...(options.allowedHosts ? { allowedHosts: [...options.allowedHosts] } : {}),
    };
    this.#v03 = options.compat?.v03 ? new V03Registrations() : undefined;
    this.service = new OperationDispatcher({
      ...options,
      ...(this.#v03 ? v03Stores(this.#v03, options.store, options.pushConfigStore) : {}),
      card: placeholder ?? ({ capabilities: {} } as AgentCard),
      ...(options.extendedCard && options.signingKeys?.length
        ? { extendedCard: signedSource(options.extendedCard, options.signingKeys) }
        : {}),
    });
    this.#grpc = new AgentGrpcSlot(this.service, this.#streams, () => this.#preparing);
    wholeNumber('drain.deadlineMs', options.drain?.deadlineMs, 0);
    wholeNumber('drain.readinessDelayMs', options.drain?.readinessDelayMs, 0);
    this.#healthServed = options.health !== undefined && options.health !== false;
    // Not yet prepared is not "starting": a mounted listener prepares on its first request, which a probe must not wait for.
    this.#health = serviceHealth(options.health, this.service, () =>
      this.#closing ? 'draining' : this.#preparing ? 'starting' : 'serving',
    );
  }

  /**
   * Add a readiness check (an event bus, a downstream service): `/readyz` is 503, naming it, while it
   * fails. Works without the `health` endpoints too, for {@link AgentServer.readiness}.
   */
  addReadinessCheck(check: ReadinessCheck): void {
    this.#health.add(check);
  }

  /** Run the readiness checks now: what `/readyz` would answer (for apps that serve their own probes). */
  readiness(): Promise<ReadinessReport> {
    return this.#health.report();
  }

  /** True once `close()` started: the server takes no new work. */
  get draining(): boolean {
    return this.#closing !== undefined;
  }

  /** True when the card is a function of the URL the server is reached at, so preparing needs an origin. */
  get cardNeedsOrigin(): boolean {
    return typeof this.options.card === 'function';
  }

  /** Whether the card is built and the interfaces mounted (by `listen`, `prepare`, or a first request). */
  get prepared(): boolean {
    return this.#site !== undefined;
  }

  /** The path the server is mounted under (`''` at the root, `/reporter` under a prefix). */
  get mountPath(): string {
    return this.#mountPath;
  }

  /**
   * Build (and sign) the card for the URL the server is mounted at, check every interface it lists,
   * and mount them. `base` is that URL (`https://agent.example.com/reporter`) or its parts; without
   * it the `origin` option is used. `listen` and the listener call this for you. Rejects, naming the
   * entry, when the card lists an interface that would not be answered at its URL.
   */
  prepare(base?: string | { origin?: string; mountPath?: string }): Promise<AgentCard> {
    const p = this.#prepareMounted(base);
    this.#preparing = p;
    const done = (): void => {
      if (this.#preparing === p) this.#preparing = undefined;
    };
    p.then(done, done);
    return p;
  }

  async #prepareMounted(
    base: string | { origin?: string; mountPath?: string } | undefined,
  ): Promise<AgentCard> {
    let origin = this.mountOptions.origin;
    let mountPath = '';
    if (typeof base === 'string') {
      const url = new URL(base);
      origin = checkOrigin(url.origin);
      mountPath = trimPath(url.pathname);
    } else if (base) {
      if (base.origin !== undefined) origin = checkOrigin(base.origin);
      mountPath = trimPath(base.mountPath ?? '');
    }
    const built = await this.#buildCard(origin, mountPath);
    requireOneOrigin(built.planned);
    await this.#recover();
    this.#install(built, mountPath, built.planned);
    return built.card;
  }

  #buildCard(origin: string | undefined, mountPath: string): Promise<BuiltCard> {
    const healthPaths = this.#healthServed ? [this.#health.live, this.#health.ready] : undefined;
    // The `grpc` option's listener, else one serveGrpc(this) started before the card existed.
    const grpc = this.#grpc.handle ?? attachedGrpc(this.service);
    return buildCard(this.options, { origin, mountPath, grpc, healthPaths });
  }

  /** Once per server: tasks a previous process left running get a final state before anything is served. */
  #recover(): Promise<number> {
    return (this.#recovered ??= this.service.tasks.start());
  }

  /** Make the card current and build the main site (the interfaces the main listener answers). */
  #install(built: BuiltCard, mountPath: string, main: PlannedInterface[]): void {
    this.service.card = built.card;
    this.#grpc.auth = serverAuthOptions(built.card, this.options);
    this.#mountPath = mountPath;
    this.#site = this.#siteFor(built, mountPath, main);
    this.#reported = false; // a later misconfiguration is logged again
  }

  #siteFor({ card, responder }: BuiltCard, mountPath: string, planned: PlannedInterface[]): Site {
    const bindingOptions = {
      ...this.options,
      ...serverAuthOptions(card, this.options),
      sse: { ...this.options.sse, track: this.#streams.track },
    };
    const v03 = this.#v03;
    const bindingFor = (p: PlannedInterface) =>
      SERVED_BINDINGS[p.binding]!(
        this.service,
        bindingOptions,
        p.versions.has('0.3') && v03
          ? v03Handler(p.binding, this.service, bindingOptions, v03, this.options.signingKeys)
          : undefined,
      );
    return new Site(responder, mountPath, planned, bindingFor, () =>
      this.service.pushSender.publicJwks(),
    );
  }

  /**
   * The node:http request listener, for your own server or framework. Unprepared, it prepares itself
   * on the first request: with the card object as it is, or with a card function called with the
   * `origin` option (or the request's origin when its Host is in `allowedHosts`) plus the path it is
   * mounted under (Express `app.use('/reporter', …)`). Without either it refuses every request with a
   * 500 that says what to pass (and logs it), rather than guessing URLs from a Host header. As Express
   * middleware it passes the paths it does not serve to `next`; elsewhere it answers them with a 404.
   *
   * @example
   * const agent = createAgentServer({ card, executor, origin: 'https://agent.example.com' });
   * http.createServer(agent.listener).listen(8080);
   * // or, in Express, under a prefix (the card then advertises https://agent.example.com/reporter/…):
   * app.use('/reporter', agent.listener);
   */
  readonly listener = (req: IncomingMessage, res: ServerResponse, next?: Next): void => {
    if (this.#healthServed && this.#health.answer(pathOf(req.url), req, res)) return;
    // A request on a kept-alive connection while draining is served, and its connection not kept.
    if (this.#closing) res.setHeader('connection', 'close');
    const site = this.#site;
    if (site) return this.#serve(site, req, res, next);
    this.#prepareFor(req).then(
      () => this.listener(req, res, next),
      (err: unknown) => this.#refuse(err, res, next),
    );
  };

  #prepareFor(req: IncomingMessage & { protocol?: string }): Promise<unknown> {
    if (this.#preparing) return this.#preparing;
    try {
      const mountPath = mountPathOf(req);
      // A card object holds its own URLs, so no request data is needed to prepare it.
      return this.prepare(
        this.cardNeedsOrigin
          ? { origin: originFor(this.mountOptions, originOf(req, req.protocol)), mountPath }
          : { mountPath },
      );
    } catch (err) {
      return Promise.reject(err as Error);
    }
  }

  #refuse(err: unknown, res: ServerResponse, next: Next | undefined): void {
    if (!(err instanceof HostNotAllowedError) && !this.#reported) {
      this.#reported = true; // once: a misconfigured server would otherwise log on every request
      this.options.logger?.error({ err }, `agent server cannot serve: ${(err as Error).message}`);
    }
    if (typeof next === 'function') return next(err);
    const status = err instanceof HostNotAllowedError ? 400 : 500;
    // Our own mount errors say what to change and name only configuration; anything else (a card function that threw) stays in the log.
    const message =
      err instanceof HostNotAllowedError || err instanceof MountError
        ? err.message
        : 'this agent server cannot serve requests; see its log';
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: status, status: status === 400 ? 'INVALID_ARGUMENT' : 'INTERNAL', message },
      }),
    );
  }

  #serve(
    site: Site,
    req: IncomingMessage & { originalUrl?: string },
    res: ServerResponse,
    next?: Next,
  ): void {
    const allowed = this.mountOptions.allowedHosts;
    // A request without Host (HTTP/1.0, a fetch host's shim) cannot be rebound or poison anything: the
    // card is only ever derived from a Host that is present and allowed (originFor).
    const host = req.headers.host;
    if (allowed && host !== undefined && !hostAllowed(host, allowed) && !isHostChecked(req)) {
      return this.#refuse(new HostNotAllowedError(host), res, next);
    }
    // Express tells where it mounted us: a card built for another mount path would advertise URLs this mount never sees.
    const base = (req as { baseUrl?: unknown }).baseUrl;
    if (typeof base === 'string' && trimPath(base) !== this.#mountPath)
      return this.#refuse(
        new MountError(mountedElsewhere(this.#mountPath, trimPath(base))),
        res,
        next,
      );
    // Routes hold full paths (mount path included); Express and Connect strip it from `url`, not `originalUrl`.
    const path = pathOf(req.originalUrl ?? req.url);
    if (site.answer(path, req, res)) return;
    if (typeof next === 'function') return next();
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: { code: 404, status: 'NOT_FOUND', message: `Nothing is served at ${path}` },
      }),
    );
  }

  /**
   * Listen on `port` (0 picks a free one) and `host`; resolves with the origin, e.g.
   * `http://127.0.0.1:41241`, once the card is built and every interface it lists is answered. A card
   * function gets that origin (or the `origin` option). When the card's interfaces are on several
   * ports of this host, a server is opened on each; an interface on another host or needing TLS on
   * another port makes `listen` reject with the entry named. Header and request timeouts protect
   * against slow clients (see {@link DEFAULT_HTTP_TIMEOUTS}); streams are not cut by them.
   *
   * @example
   * const server = createAgentServer({ card: (origin) => myCard(origin), executor });
   * const origin = await server.listen(41241);   // http://127.0.0.1:41241
   * // …
   * await server.close();
   */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const building = (async () => {
      const main = await openHttpServer(port, host, this.options, this.listener);
      this.#servers.push(main);
      if (this.options.grpc) await this.#grpc.start(this.options.grpc, host);
      const actual = (main.address() as { port: number }).port;
      const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
      const base = this.mountOptions.origin ?? origin;
      const built = await this.#buildCard(base, '');
      const plan = planListen(
        built.planned,
        Number(new URL(base).port || (base.startsWith('https:') ? 443 : 80)),
        host,
      );
      for (const [extraPort, entries] of plan.extra) {
        const site = this.#siteFor(built, '', entries);
        const serveSite = (req: IncomingMessage, res: ServerResponse): void =>
          this.#serve(site, req, res);
        try {
          this.#servers.push(await openHttpServer(extraPort, host, this.options, serveSite));
        } catch (err) {
          throw new MountError(
            `${describeInterface(entries[0]!)}: port ${extraPort} on ${host} could not be opened (${(err as Error).message})`,
            { cause: err },
          );
        }
      }
      await this.#recover();
      this.#install(built, '', plan.main);
      return origin;
    })();
    this.#preparing = building;
    try {
      return await building;
    } catch (err) {
      for (const s of this.#servers.splice(0)) s.close();
      await this.#grpc.stop(0);
      throw err;
    } finally {
      if (this.#preparing === building) this.#preparing = undefined;
    }
  }

  /** The running gRPC server (the `grpc` option, after `listen()`); undefined otherwise. */
  get grpc(): AgentGrpcHandle | undefined {
    return this.#grpc.handle;
  }

  /**
   * Drain, then stop: readiness turns 503 and new work is refused (`Unavailable`), listeners stop
   * accepting, open streams are told to go away (SSE ends cleanly, gRPC with UNAVAILABLE: clients
   * resubscribe elsewhere), running agents get until the deadline to finish and queued push
   * notifications to go out, then whatever is left is aborted, dropped and logged, and the store is
   * closed. The deadline is `deadlineMs`, else the `drain` option, else 5 s. Calling it again returns
   * the same drain. {@link AgentServer.drain} is the same, resolving with what was done and dropped.
   */
  async close(deadlineMs?: number): Promise<void> {
    await this.drain(deadlineMs);
  }

  /** {@link AgentServer.close}, resolving with its report: streams told to go away, what was aborted or dropped. */
  drain(deadlineMs?: number): Promise<DrainReport> {
    return (this.#closing ??= this.#drain(
      wholeNumber('close(deadlineMs)', deadlineMs, 0) ?? this.options.drain?.deadlineMs ?? 5000,
    ));
  }

  async #drain(deadlineMs: number): Promise<DrainReport> {
    const delay = this.options.drain?.readinessDelayMs ?? 0;
    // Readiness is 503 from here on (the phase reads #closing); the work already routed here is still served.
    if (delay > 0) await new Promise((r) => setTimeout(r, delay));
    this.service.refusingNewWork =
      'The agent is shutting down and takes no new work; try again (another instance may answer)';
    const servers = this.#servers.splice(0);
    // A listener mounted in someone else's server leaves the store to its owner, as before drains existed.
    const ownsStore = servers.length > 0 || this.#grpc.handle !== undefined;
    return drain(
      {
        servers,
        closeGrpc: (ms) => this.#grpc.stop(ms),
        streams: this.#streams,
        tasks: this.service.tasks,
        push: this.service.pushSender,
        closeStores: () => closeServiceStores(this.service, ownsStore),
        logger: this.service.logger,
      },
      deadlineMs,
    );
  }

  /**
   * Drain on SIGTERM and SIGINT (Ctrl-C), then exit: 0 when closed, 1 when closing failed; a second
   * signal exits at once. Returns a function that removes the handlers. The two lines it replaces:
   * `process.once('SIGTERM', () => server.close().then(() => process.exit(0)))`, and the same for SIGINT.
   */
  closeOnSignals(options: CloseOnSignalsOptions = {}): () => void {
    return closeOnSignals(this, { logger: this.service.logger, ...options });
  }

  /**
   * What answers a request for `path` (no query, mount path included) once prepared: the card, the
   * push JWKS, or a mounted binding with the path below its interface URL; undefined when nothing here
   * does. The Web `fetch` adapter routes with it, so both paths serve exactly the same URLs.
   */
  route(path: string): ServedRoute | undefined {
    return this.#site?.route(path);
  }
}

/** The path of a request URL, without its query. */
function pathOf(url: string | undefined): string {
  const u = url ?? '/';
  const q = u.indexOf('?');
  return q >= 0 ? u.slice(0, q) : u;
}

/**
 * Create an agent server from its card and its executor; call `listen()` to start it, or mount its
 * `listener` (or an adapter) in your own HTTP server.
 *
 * @example
 * import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
 *
 * const echo: AgentExecutor = (ctx, task) => {
 *   task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
 *   task.complete();
 * };
 * const server = createAgentServer({
 *   executor: echo,
 *   card: (baseUrl) => ({
 *     name: 'echo', description: 'Echoes text', version: '1.0.0',
 *     supportedInterfaces: [{ url: `${baseUrl}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' }],
 *     capabilities: { streaming: true }, defaultInputModes: ['text/plain'], defaultOutputModes: ['text/plain'],
 *     skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
 *   }),
 * });
 * const origin = await server.listen(41240);
 */
export function createAgentServer(options: AgentServerOptions): AgentServer {
  return new AgentServer(options);
}
