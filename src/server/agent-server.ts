/**
 * An agent server's lifecycle: made from its options, prepared (by `listen`, `prepare`, or its first
 * request), served, drained and closed. Where it is served — the card per origin, the interfaces at
 * their URLs, the host policy — is the mount's business (mount/), which every way of serving shares.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AgentCard } from '../protocol/index.js';
import { OperationDispatcher } from './dispatch/dispatcher.js';
import type { AgentServerOptions } from './agent-server-options.js';
import { signedSource } from './card/signing.js';
import { serverAuthOptions } from './auth/authenticator.js';
import { registerEngine } from './kernel/engine.js';
import { Mount, type PrepareBase } from './mount/mount.js';
import {
  nodeListener,
  pathOf,
  type NodeListener,
  type NodeRouting,
} from './mount/node-listener.js';
import { openHttpServer } from './mount/http-listen.js';
import { wholeNumber } from './util/check-options.js';
import { streamBufferBytes } from './kernel/stream-buffer.js';
import type { AgentGrpcHandle } from './grpc/options.js';
import { AgentGrpcSlot } from './grpc/agent-slot.js';
import { attachedGrpc } from './mount/grpc-interfaces.js';
import {
  serviceHealth,
  type Health,
  type ReadinessCheck,
  type ReadinessReport,
} from './lifecycle/health.js';
import { closeServiceStores, drain, type DrainReport } from './lifecycle/drain.js';
import { closeOnSignals, type CloseOnSignalsOptions } from './lifecycle/signals.js';
import { StreamRegistry } from './lifecycle/streams.js';
import { V03Registrations, v03Stores } from './compat/index.js';

export { DEFAULT_HTTP_TIMEOUTS, type HttpTimeoutOptions } from './mount/http-listen.js';

export type { AgentServerOptions } from './agent-server-options.js';

/**
 * An A2A agent served over HTTP: either standalone with {@link AgentServer.listen}, or mounted in your
 * own server through {@link AgentServer.listener} (or the Express, Fastify and fetch adapters).
 */
export class AgentServer {
  /**
   * The operation dispatcher every binding calls (tasks, store, push sender, the current card).
   * @internal
   */
  readonly service: OperationDispatcher;
  /**
   * Where the server is served: its sites, one per origin, and the host policy.
   * @internal
   */
  readonly mount: Mount;
  #preparing: Promise<unknown> | undefined;
  #servers: Server[] = [];
  readonly #grpc: AgentGrpcSlot;
  #recovered: Promise<number> | undefined;
  /** Open streams of every transport, told to go away when the server drains. */
  readonly #streams = new StreamRegistry();
  /** The endpoints and checks of `health` (the checks are kept even without endpoints: see readiness()). */
  readonly #health: Health;
  readonly #healthServed: boolean;
  #closing: Promise<DrainReport> | undefined;

  readonly #options: AgentServerOptions;

  constructor(options: AgentServerOptions) {
    // One bound for every stream; the per-transport names it replaces still count when it is unset.
    const maxStreamBufferBytes = streamBufferBytes({
      maxStreamBufferBytes: options.maxStreamBufferBytes,
      'sse.maxBufferedBytes': options.sse?.maxBufferedBytes,
      'grpc.maxBufferedBytes': options.grpc?.maxBufferedBytes,
    });
    options = { ...options, maxStreamBufferBytes };
    this.#options = options;
    const placeholder = typeof options.card === 'function' ? undefined : options.card;
    const v03 = options.compat?.v03 ? new V03Registrations() : undefined;
    this.service = new OperationDispatcher({
      ...options,
      ...(v03 ? v03Stores(v03, options.store, options.pushConfigStore) : {}),
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
    const health = this.#health;
    this.mount = new Mount({
      options,
      service: this.service,
      v03,
      track: this.#streams.track,
      logger: this.service.logger,
      // The `grpc` option's listener, else one serveGrpc(this) started before the card existed.
      grpc: () => this.#grpc.handle ?? attachedGrpc(this.service),
      healthPaths: this.#healthServed ? [health.live, health.ready] : undefined,
      ready: () => (this.#recovered ??= this.service.tasks.start()),
      adopt: (card) => {
        this.service.card = card;
        this.#grpc.auth = serverAuthOptions(card, options);
      },
    });
    this.listener = this.nodeHandler();
    registerEngine(this, {
      service: this.service,
      logger: this.service.logger,
      auth: () => this.#grpc.authNow(),
      track: this.#streams.track,
      maxStreamBufferBytes,
    });
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

  /** Whether the card is built and its interfaces mounted (by `listen`, `prepare`, or a first request). */
  get prepared(): boolean {
    return this.mount.prepared;
  }

  /** The path the server is mounted under (`''` at the root, `/reporter` under a prefix). */
  get mountPath(): string {
    return this.mount.mountPath;
  }

  /**
   * The card every client is given, once `listen()` or `prepare()` built it (signed when the server
   * signs). Undefined before, and when each allowed host gets a card of its own origin.
   */
  get card(): AgentCard | undefined {
    return this.mount.card;
  }

  /**
   * Build (and sign) the card for the URL the server is mounted at, check every interface it lists,
   * and mount them. `base` is that URL (`https://agent.example.com/reporter`) or its parts; without
   * it the `origin` option is used. `listen` and the listener call this for you. Rejects with an
   * `A2AConfigError` naming the option (or the card entry) to change when the server cannot serve.
   */
  prepare(base?: PrepareBase): Promise<AgentCard> {
    return this.#starting(this.mount.prepare(base));
  }

  /**
   * The node:http request listener, for your own server or framework. Unprepared, it prepares itself
   * on the first request: with the card object as it is, or with a card function called with the
   * `origin` option (or, with `allowedHosts`, each allowed request's own origin) plus the path it is
   * mounted under (Express `app.use('/reporter', …)`). Without either it refuses every request with a
   * 500 that says what to pass (and logs it at error level), rather than guessing URLs from a Host
   * header. As Express middleware it passes the paths it does not serve to `next`; elsewhere it
   * answers them with a 404.
   *
   * @example
   * const agent = createAgentServer({ card, executor, origin: 'https://agent.example.com' });
   * http.createServer(agent.listener).listen(8080);
   * // or, in Express, under a prefix (the card then advertises https://agent.example.com/reporter/…):
   * app.use('/reporter', agent.listener);
   */
  readonly listener: NodeListener;

  /**
   * A listener routed as `how` says (the adapters' host policy and mount path), with the health
   * endpoints and the drain's `Connection: close` in front.
   * @internal
   */
  nodeHandler(how: NodeRouting = {}): NodeListener {
    return nodeListener(this.mount, how, this.#lifecycleFirst);
  }

  /** What the lifecycle answers before routing: the health endpoints; while draining, no keep-alive. */
  readonly #lifecycleFirst = (req: IncomingMessage, res: ServerResponse): boolean => {
    if (this.#healthServed && this.#health.answer(pathOf(req.url), req, res)) return true;
    // A request on a kept-alive connection while draining is served, and its connection not kept.
    if (this.#closing) res.setHeader('connection', 'close');
    return false;
  };

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
    const building = this.#starting(
      (async () => {
        const main = await openHttpServer(
          port,
          host,
          this.#options,
          this.listener,
          this.service.logger,
        );
        this.#servers.push(main);
        if (this.#options.grpc)
          await this.#grpc.start(this.#options.grpc, host, this.#options.maxStreamBufferBytes!);
        const actual = (main.address() as { port: number }).port;
        const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
        const plan = await this.mount.planListen(this.mount.policy.origin ?? origin, host);
        for (const [extraPort, site] of plan.extra) {
          const serveSite = this.nodeHandler({ site });
          try {
            this.#servers.push(
              await openHttpServer(extraPort, host, this.#options, serveSite, this.service.logger),
            );
          } catch (err) {
            throw Mount.portError(site, extraPort, host, err);
          }
        }
        await plan.install();
        return origin;
      })(),
    );
    try {
      return await building;
    } catch (err) {
      for (const s of this.#servers.splice(0)) s.close();
      await this.#grpc.stop(0);
      throw err;
    }
  }

  /** `work`, during which the server counts as starting (readiness 503, gRPC calls wait for the card). */
  #starting<T>(work: Promise<T>): Promise<T> {
    this.#preparing = work;
    const done = (): void => {
      if (this.#preparing === work) this.#preparing = undefined;
    };
    work.then(done, done);
    return work;
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
      wholeNumber('close(deadlineMs)', deadlineMs, 0) ?? this.#options.drain?.deadlineMs ?? 5000,
    ));
  }

  async #drain(deadlineMs: number): Promise<DrainReport> {
    const delay = this.#options.drain?.readinessDelayMs ?? 0;
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
}

/**
 * Create an agent server from its card and its executor; call `listen()` to start it, or mount its
 * `listener` (or an adapter) in your own HTTP server. Options that cannot work throw an
 * `A2AConfigError` naming the option.
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
