/**
 * The inspector's local server: the page, its JSON API, and one SSE channel per page for what happens
 * while the user watches (stream events, wire exchanges, the kit's pipeline). Plain `node:http`,
 * loopback by default.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CardTrust } from 'a2a-kit/client';
import { ROUTES } from './api.js';
import {
  apiRefusal,
  cookie,
  guard,
  hostGuard,
  isLoopback,
  readJson,
  requestSource,
  sendError,
  sendJson,
} from './http-util.js';
import { KIT_AGENTS } from './known-agents.js';
import { PipelineFeed, type PipelineEvent } from './pipeline.js';
import { Sessions, type Session } from './session.js';
import { loadAssets, serveAsset } from './static.js';

/** How {@link startInspector} listens and what it offers. */
export interface InspectorOptions {
  /** Port to listen on; 0 picks a free one. Default 41250. */
  port?: number;
  /**
   * Address to listen on. Default `127.0.0.1`: the inspector holds credentials and fetches any URL it
   * is given, so it is meant for this machine only.
   */
  host?: string;
  /** Agents the page offers to pick (base URLs). Default: the kit's three, on ports 41241–41243. */
  agents?: readonly string[];
  /** Keys trusted to sign agent cards; the card view reports each card's signature against them. */
  trust?: CardTrust;
  /**
   * How long to wait for an agent before telling the user it did not answer: the card, each call, a
   * stream's first event. Default 30 000 ms.
   */
  timeoutMs?: number;
}

/** A running inspector. */
export interface Inspector {
  /** The page's address, e.g. `http://127.0.0.1:41250/`. */
  readonly url: string;
  /**
   * A link that opens an agent's card directly (`?agent=<url>`), or another view of it
   * (`talk`, `tasks`, `wire`); `kit` opens the kit view.
   */
  link(agent?: string, view?: 'card' | 'talk' | 'tasks' | 'wire' | 'kit'): string;
  /** Feeds the kit view: every page shows the events live and keeps the run browsable after it ends. */
  publish(event: PipelineEvent): void;
  /** Stops the server, its streams and its pages' event channels. */
  close(): Promise<void>;
}

/**
 * A client that trickles or never sends its request is cut off (Node's defaults allow minutes); once a
 * request is in, its answer (the page's event stream included) is not timed.
 */
const HTTP_LIMITS = { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 };

/** One user's page needs a handful of connections; past this many a new one is closed at once. */
export const MAX_CONNECTIONS = 128;

/**
 * Starts the inspector: a local web page to look at any agent's card, talk to it, list its tasks,
 * see every exchange on the wire, and watch the kit's pipeline. Resolves once it listens.
 *
 * @example
 * ```ts
 * import { startInspector } from 'a2a-kit/inspector';
 *
 * const inspector = await startInspector({ port: 0 });
 * process.stdout.write(`inspector at ${inspector.link('http://localhost:41241')}\n`);
 * ```
 */
export async function startInspector(options: InspectorOptions = {}): Promise<Inspector> {
  const host = options.host ?? '127.0.0.1';
  const assets = loadAssets();
  const pipeline = new PipelineFeed();
  const trust = options.trust ?? {};
  const timeoutMs = options.timeoutMs ?? 30_000;
  if (!Number.isSafeInteger(timeoutMs) || timeoutMs <= 0)
    throw new TypeError(
      `timeoutMs must be a whole number of milliseconds above 0, got ${timeoutMs}`,
    );
  const sessions = new Sessions(() => trust, { timeoutMs });
  const knownAgents = options.agents ?? KIT_AGENTS;
  const open = new Set<ServerResponse>();
  let hostOk: (h: string | undefined) => boolean = () => false;
  let cookieName = 'a2a_inspector';
  let base = '';

  const server = createServer(HTTP_LIMITS, (req, res) => {
    handle(req, res).catch((err: unknown) => {
      if (!res.headersSent) sendError(res, err);
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!guard(req, res, hostOk)) return;
    const url = new URL(req.url ?? '/', 'http://inspector');
    // The page's files need no session: loading them (from anywhere) creates and touches none.
    if (req.method === 'GET' && !url.pathname.startsWith('/api/')) {
      if (!serveAsset(assets, url.pathname, req.headers['if-none-match'], res))
        sendJson(res, 404, { error: { message: `no page at ${url.pathname}` } });
      return;
    }
    const refused = apiRefusal(req);
    if (refused) return sendJson(res, 403, { error: { message: refused } });
    let session = sessions.find(cookie(req, cookieName));
    if (!session) {
      // Only the page itself starts a session: anyone else could otherwise push the user's out.
      if (requestSource(req) !== 'own')
        return sendJson(res, 403, {
          error: { message: `no inspector session: open the inspector's page (${base})` },
        });
      session = sessions.create();
      // Strict: the cookie never rides along on a request another site makes to the inspector.
      res.setHeader('set-cookie', `${cookieName}=${session.id}; Path=/; HttpOnly; SameSite=Strict`);
    }
    if (req.method === 'GET' && url.pathname === '/api/events')
      return events(req, res, session, url);
    const handler = ROUTES[`${req.method} ${url.pathname}`];
    if (!handler)
      return sendJson(res, 404, { error: { message: `no route ${req.method} ${url.pathname}` } });
    const body = req.method === 'POST' ? await readJson(req) : {};
    sendJson(res, 200, (await handler({ session, body, pipeline, knownAgents })) ?? null);
  }

  /** The page's live channel: the session's events after the id it has, the kit's pipeline, keep-alives. */
  function events(req: IncomingMessage, res: ServerResponse, session: Session, url: URL): void {
    res.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
    });
    res.write('retry: 1500\n\n');
    open.add(res);
    const after = Number(req.headers['last-event-id'] ?? url.searchParams.get('after') ?? 0) || 0;
    const offSession = session.subscribe(after, (ev) =>
      res.write(`id: ${ev.id}\nevent: ${ev.type}\ndata: ${ev.json}\n\n`),
    );
    // No id: the kit's events are numbered by their own `seq`, and the page asks for the whole run on load.
    const offPipeline = pipeline.on((rec) =>
      res.write(`event: pipeline\ndata: ${JSON.stringify(rec)}\n\n`),
    );
    const ping = setInterval(() => res.write(': keep-alive\n\n'), 15_000);
    ping.unref();
    res.on('close', () => {
      offSession();
      offPipeline();
      clearInterval(ping);
      open.delete(res);
    });
  }

  server.maxConnections = MAX_CONNECTIONS;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 41250, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  hostOk = hostGuard(host, port);
  // Cookies are per host, not per port: two inspectors on one machine must not share sessions.
  cookieName = `a2a_inspector_${port}`;
  const shown = isLoopback(host)
    ? host.includes(':')
      ? `[${host}]`
      : host
    : host === '0.0.0.0' || host === '::'
      ? 'localhost'
      : host;
  base = `http://${shown}:${port}/`;

  return {
    url: base,
    link(agent, view) {
      const q = agent ? `?agent=${encodeURIComponent(agent)}` : '';
      return `${base}${q}${view && view !== 'card' ? `#${view}` : ''}`;
    },
    publish: (event) => pipeline.publish(event),
    async close() {
      for (const res of open) res.end();
      sessions.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
  };
}
