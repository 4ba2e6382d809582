/**
 * Mounts an agent over HTTP: the well-known card, and one binding per `supportedInterfaces` entry
 * of the card, at that entry's URL path. A card may list only interfaces this server serves; that is
 * checked at start. Usable as a plain node:http listener (Express, Fastify, Connect) or standalone.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { PROTOCOL_VERSION, PUSH_JWKS_PATH, WELL_KNOWN_CARD_PATH, majorMinor, parseAgentCard, type AgentCard } from '../protocol/index.js';
import type { Caller } from './dispatch/call-context.js';
import { OperationDispatcher, type DispatcherOptions } from './dispatch/dispatcher.js';
import type { BindingOptions } from './bindings/common.js';
import { SERVED_BINDINGS, type MountedBinding, type ServedRoute } from './bindings/registry.js';
import { CardResponder } from './card/responder.js';
import { signAgentCard, type CardSigningKey } from './card/signing.js';
import { serverAuthOptions, type ServerAuthOptions } from './auth/authenticator.js';
import { V03Registrations, VersionedCardResponder, cardWithV03, checkV03Urls, publicV03Card, v03Handler, v03Stores, type CompatOptions } from './compat/index.js';

export interface AgentServerOptions extends Omit<DispatcherOptions, 'card' | 'pushWireFormat'>, BindingOptions {
  /** The public card, or a function of the server origin (`http://127.0.0.1:PORT`) for servers on port 0. */
  card: AgentCard | ((origin: string) => AgentCard);
  /** Sign the public (and extended) card with these keys at start (§8.4). */
  signingKeys?: CardSigningKey[];
  /** `Cache-Control: max-age` of the card. Default 300 s. */
  cardMaxAgeSeconds?: number;
  /** Enforce the card's security requirements with these per-scheme verifiers (instead of `authenticate`). */
  auth?: ServerAuthOptions;
  /**
   * Protocol versions to speak besides 1.0, e.g. `{ v03: true }` for A2A 0.3 clients: same URLs, the
   * request's `A2A-Version` decides; the executor never sees the difference. Off by default.
   */
  compat?: CompatOptions;
}

interface Mount {
  path: string;
  prefix: boolean;
  handle: MountedBinding;
}

export class AgentServer {
  readonly service: OperationDispatcher;
  #mounts: Mount[] = [];
  #card: CardResponder | undefined;
  #server: Server | undefined;
  #recovered: Promise<number> | undefined;
  /** Open SSE streams, ended first when the server closes. */
  readonly #streams = new Set<ServerResponse>();
  /** 0.3 webhooks being registered, shared by the 0.3 handlers and the push layer (only with compat). */
  readonly #v03: V03Registrations | undefined;
  readonly #trackStream = (res: ServerResponse): void => {
    this.#streams.add(res);
    res.once('close', () => this.#streams.delete(res));
  };

  constructor(private readonly options: AgentServerOptions) {
    const placeholder = typeof options.card === 'function' ? undefined : options.card;
    this.#v03 = options.compat?.v03 ? new V03Registrations() : undefined;
    this.service = new OperationDispatcher({
      ...options,
      ...(this.#v03 ? v03Stores(this.#v03, options.store, options.pushConfigStore) : {}),
      card: placeholder ?? ({ capabilities: {} } as AgentCard),
      ...(options.extendedCard && options.signingKeys?.length ? { extendedCard: signedSource(options.extendedCard, options.signingKeys) } : {}),
    });
  }

  /** Build (and sign) the card for `origin` and mount its interfaces. `listen` calls it for you. */
  async prepare(origin?: string): Promise<AgentCard> {
    const o = this.options;
    let card = typeof o.card === 'function' ? o.card(origin ?? 'http://localhost') : o.card;
    const checked = parseAgentCard(card);
    if (!checked.ok) throw new Error(`the agent card is not valid:\n  ${checked.problems.join('\n  ')}`);
    const v03 = o.compat?.v03 === true;
    if (v03) {
      card = cardWithV03(card);
      checkV03Urls(card);
    }
    if (o.signingKeys?.length) card = await signAgentCard(card, o.signingKeys);
    const bindingOptions = { ...o, ...serverAuthOptions(card, o), sse: { ...o.sse, onOpen: this.#trackStream } };
    this.#mounts = mountsFor(card, v03).map(({ path, prefix, binding, versions }) => ({
      path,
      prefix,
      handle: SERVED_BINDINGS[binding]!(
        this.service,
        bindingOptions,
        versions.has('0.3') && this.#v03 ? v03Handler(binding, this.service, bindingOptions, this.#v03, o.signingKeys) : undefined,
      ),
    }));
    this.service.card = card;
    // Once per server: tasks a previous process left running get a final state before anything is served.
    this.#recovered ??= this.service.tasks.recover();
    await this.#recovered;
    const cardOptions = o.cardMaxAgeSeconds !== undefined ? { maxAgeSeconds: o.cardMaxAgeSeconds } : {};
    this.#card = v03
      ? new VersionedCardResponder(card, await publicV03Card(card, o.signingKeys), cardOptions)
      : new CardResponder(card, cardOptions);
    return card;
  }

  /** Whether `prepare` (or `listen`) has built the card and mounted its interfaces. */
  get prepared(): boolean {
    return this.#card !== undefined;
  }

  /**
   * The node:http request listener. As Express middleware (`app.use(server.listener)`) it passes
   * requests for paths it does not serve on to `next`; elsewhere it answers them with a 404.
   */
  readonly listener = (req: IncomingMessage, res: ServerResponse, next?: (err?: unknown) => void): void => {
    const url = req.url ?? '/';
    const q = url.indexOf('?');
    const path = q >= 0 ? url.slice(0, q) : url;
    if (path === WELL_KNOWN_CARD_PATH && this.#card) return this.#serveCard(req, res);
    if (path === PUSH_JWKS_PATH) {
      const jwks = this.service.pushSender.publicJwks();
      if (jwks) return void res.writeHead(200, { 'content-type': 'application/jwk-set+json', 'cache-control': 'public, max-age=300' }).end(JSON.stringify(jwks));
    }
    for (const m of this.#mounts) {
      const under = m.path === '/' ? path.startsWith('/') : path.startsWith(m.path + '/');
      if (path === m.path || (m.prefix && under)) {
        void m.handle(req, res, m.path === '/' ? path : path.slice(m.path.length));
        return;
      }
    }
    if (typeof next === 'function') return next();
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { code: 404, status: 'NOT_FOUND', message: `Nothing is served at ${path}` } }));
  };

  #serveCard(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const r = this.#card!.respond(req.headers, req.method);
    res.writeHead(r.status, r.headers as unknown as Record<string, string>);
    res.end(r.body);
  }

  /** Listen on `port` (0 picks a free one); resolves with the origin, e.g. `http://127.0.0.1:41241`. */
  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    const server = createServer({ keepAliveTimeout: 5000 }, this.listener);
    this.#server = server;
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => resolve());
    });
    const addr = server.address();
    const actual = typeof addr === 'object' && addr ? addr.port : port;
    const origin = `http://${host.includes(':') ? `[${host}]` : host}:${actual}`;
    try {
      await this.prepare(origin);
    } catch (err) {
      server.close();
      throw err;
    }
    return origin;
  }

  /**
   * Stop accepting, end open streams cleanly, let in-flight requests finish (up to `graceMs`), then
   * abort the agents still running. Aborting first would make a well-behaved agent (one that stops on
   * its signal) fail the very requests the grace period is for.
   */
  async close(graceMs = 5000): Promise<void> {
    const server = this.#server;
    const stopAgents = () => this.service.tasks.abortAll('server shutting down');
    if (!server) {
      stopAgents();
      return this.service.pushSender.close();
    }
    const closed = new Promise<void>((r) => server.close(() => r()));
    for (const res of this.#streams) res.end();
    server.closeIdleConnections();
    const timer = setTimeout(() => {
      stopAgents();
      server.closeAllConnections();
    }, graceMs);
    timer.unref();
    await closed;
    clearTimeout(timer);
    stopAgents(); // tasks that run on without a connection (returnImmediately, input from elsewhere)
    await this.service.pushSender.shutdown(Math.min(graceMs, 2000)); // last notifications get a short chance
    await this.service.store.close?.();
  }

  /**
   * What answers a request for `path` (no query) once prepared: the card, the push JWKS, or a mounted
   * binding with the path below its interface URL; undefined when nothing here does. The Web
   * `fetch` adapter routes with it.
   */
  route(path: string): ServedRoute | undefined {
    if (path === WELL_KNOWN_CARD_PATH && this.#card) return { kind: 'card', card: this.#card };
    if (path === PUSH_JWKS_PATH) {
      const jwks = this.service.pushSender.publicJwks();
      if (jwks) return { kind: 'jwks', jwks };
    }
    for (const m of this.#mounts) {
      const under = m.path === '/' ? path.startsWith('/') : path.startsWith(m.path + '/');
      if (path === m.path || (m.prefix && under)) return { kind: 'binding', binding: m.handle, subpath: m.path === '/' ? path : path.slice(m.path.length) };
    }
    return undefined;
  }
}

/** The extended card, signed like the public one (§8.4); each distinct card object is signed once. */
function signedSource(source: NonNullable<AgentServerOptions['extendedCard']>, keys: CardSigningKey[]) {
  const signed = new WeakMap<AgentCard, Promise<AgentCard>>();
  const sign = (card: AgentCard): Promise<AgentCard> => {
    let p = signed.get(card);
    if (!p) signed.set(card, (p = signAgentCard(card, keys)));
    return p;
  };
  return async (caller: Caller): Promise<AgentCard | undefined> => {
    const card = typeof source === 'function' ? await source(caller) : source;
    return card ? sign(card) : undefined;
  };
}

/**
 * The routes a card asks for, one per path and binding with the versions served there; throws when
 * it lists an interface this server cannot serve (0.3 ones only with `compat: { v03: true }`).
 */
function mountsFor(card: AgentCard, v03: boolean): Array<{ path: string; prefix: boolean; binding: string; versions: Set<string> }> {
  const out: Array<{ path: string; prefix: boolean; binding: string; versions: Set<string> }> = [];
  card.supportedInterfaces.forEach((i, n) => {
    let url: URL;
    try {
      url = new URL(i.url);
    } catch {
      throw new Error(`supportedInterfaces[${n}].url must be an absolute URL, got "${i.url}"`);
    }
    const version = majorMinor(i.protocolVersion);
    if (version === '0.3' && !v03 && SERVED_BINDINGS[i.protocolBinding]) {
      throw new Error(`supportedInterfaces[${n}] lists ${i.protocolBinding} 0.3, which this server does not serve unless told to: set compat: { v03: true } in the server options`);
    }
    if (!SERVED_BINDINGS[i.protocolBinding] || (version !== PROTOCOL_VERSION && version !== '0.3')) {
      throw new Error(
        `supportedInterfaces[${n}] lists ${i.protocolBinding} ${i.protocolVersion}, which this server does not serve ` +
          `(it serves ${Object.keys(SERVED_BINDINGS).join(', ')} at ${PROTOCOL_VERSION}); a card lists only interfaces that work`,
      );
    }
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const same = out.find((m) => m.path === path && m.binding === i.protocolBinding);
    if (same) same.versions.add(version);
    else out.push({ path, prefix: i.protocolBinding !== 'JSONRPC', binding: i.protocolBinding, versions: new Set([version]) });
  });
  return out;
}

/** Create an agent server; call `listen()` to start it or mount `listener` in your own HTTP server. */
export function createAgentServer(options: AgentServerOptions): AgentServer {
  return new AgentServer(options);
}
