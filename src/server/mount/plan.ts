/**
 * Where each interface of a card is served, decided once before the server answers anything. A card
 * is a promise to clients: every entry must be answered at exactly its URL, so every way an entry
 * could go unanswered (a binding we lack, a path outside the mount, an origin nobody listens on) is an
 * error at start that names the entry, never a 404 discovered by a client.
 */
import {
  PROTOCOL_VERSION,
  WELL_KNOWN_CARD_PATH,
  majorMinor,
  type AgentCard,
} from '../../protocol/index.js';
import { SERVED_BINDINGS } from '../bindings/registry.js';
import { A2AConfigError } from '../kernel/config-error.js';
import { isGrpcInterface, unservedGrpcInterfaces } from './grpc-interfaces.js';

/** One `supportedInterfaces` entry, resolved to where it is served. */
export interface PlannedInterface {
  /** Index in `supportedInterfaces`, for messages. */
  index: number;
  binding: string;
  url: URL;
  /** The URL path without trailing slashes (`/` for the root). */
  path: string;
  /** JSON-RPC answers at exactly its path; REST at its path and every path below. */
  exact: boolean;
  /** The effective port (the scheme's default when the URL has none). */
  port: number;
  /** The protocol versions served at this URL (`1.0`, and `0.3` with compat). */
  versions: Set<string>;
}

/** Which interfaces the main server answers, and which further ports `listen` must open. */
export interface ListenPlan {
  main: PlannedInterface[];
  /** Port → interfaces served there (plain HTTP, on the listen host). */
  extra: Map<number, PlannedInterface[]>;
}

/** `supportedInterfaces[1] (HTTP+JSON at http://…)`: how messages name an entry. */
export function describeInterface(i: Pick<PlannedInterface, 'index' | 'binding' | 'url'>): string {
  return `supportedInterfaces[${i.index}] (${i.binding} at ${i.url.href})`;
}

/** A path with no trailing slash; `''` for the root (so `base + '/x'` is always right). */
export function trimPath(path: string): string {
  return path.replace(/\/+$/, '');
}

/**
 * Resolve and check every HTTP interface of `card` for a server whose paths start at `basePath` (`''`,
 * or a mount prefix such as `/reporter`). GRPC entries are not mounted over HTTP: each must be served by
 * this server's own gRPC listener at `grpcUrl` (undefined when gRPC is not configured). Throws an error
 * naming the first entry that could not be answered.
 */
export function planInterfaces(
  card: AgentCard,
  basePath: string,
  grpcUrl?: string,
  v03 = false,
): PlannedInterface[] {
  checkGrpcInterfaces(card, grpcUrl);
  const planned: PlannedInterface[] = [];
  card.supportedInterfaces.forEach((i, index) => {
    if (isGrpcInterface(i)) return;
    const one = planOne(i, index, basePath, v03);
    // One binding at one URL serves every version listed for it (the request's A2A-Version decides).
    const same = planned.find(
      (p) => p.url.origin === one.url.origin && p.path === one.path && p.binding === one.binding,
    );
    if (same) for (const v of one.versions) same.versions.add(v);
    else planned.push(one);
  });
  return planned;
}

/** A GRPC entry is a promise like any other: the right version, and answered by our own gRPC port. */
function checkGrpcInterfaces(card: AgentCard, grpcUrl: string | undefined): void {
  card.supportedInterfaces.forEach((i, index) => {
    if (isGrpcInterface(i) && majorMinor(i.protocolVersion) !== PROTOCOL_VERSION) {
      throw new A2AConfigError(
        'grpc',
        `supportedInterfaces[${index}] lists GRPC ${i.protocolVersion}, which this server does not serve (it serves gRPC at ${PROTOCOL_VERSION})`,
      );
    }
  });
  const missing = unservedGrpcInterfaces(card, grpcUrl ? [grpcUrl] : [])[0];
  if (!missing) return;
  const entry = card.supportedInterfaces[missing.index]!;
  throw new A2AConfigError(
    'grpc',
    `supportedInterfaces[${missing.index}] lists GRPC ${entry.protocolVersion} at ${missing.url}, which this server does not serve: ` +
      (grpcUrl
        ? `its gRPC listener is at ${grpcUrl}. Build the entry from the gRPC handle the card function gets.`
        : 'gRPC is not configured. Set the `grpc` option of createAgentServer (served by listen()), or call serveGrpc(server) before listen(), or remove the entry; a card lists only interfaces that work.'),
  );
}

/** One HTTP entry: an absolute http(s) URL of a binding we serve, inside the mount path. */
function planOne(
  i: AgentCard['supportedInterfaces'][number],
  index: number,
  basePath: string,
  v03: boolean,
): PlannedInterface {
  let url: URL;
  try {
    url = new URL(i.url);
  } catch {
    throw new A2AConfigError(
      'card',
      `supportedInterfaces[${index}].url must be an absolute URL, got "${i.url}"`,
    );
  }
  const entry = { index, binding: i.protocolBinding, url };
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new A2AConfigError(
      'card',
      `${describeInterface(entry)} is not an http(s) URL; this server answers only HTTP`,
    );
  }
  const version = majorMinor(i.protocolVersion);
  if (version === '0.3' && !v03 && SERVED_BINDINGS[i.protocolBinding]) {
    throw new A2AConfigError(
      'compat',
      `supportedInterfaces[${index}] lists ${i.protocolBinding} 0.3, which this server does not serve unless told to: set compat: { v03: true } in the server options`,
    );
  }
  if (!SERVED_BINDINGS[i.protocolBinding] || (version !== PROTOCOL_VERSION && version !== '0.3')) {
    throw new A2AConfigError(
      'card',
      `supportedInterfaces[${index}] lists ${i.protocolBinding} ${i.protocolVersion}, which this server does not serve ` +
        `(it serves ${Object.keys(SERVED_BINDINGS).join(', ')} at ${PROTOCOL_VERSION}); a card lists only interfaces that work`,
    );
  }
  const path = trimPath(url.pathname) || '/';
  if (basePath && path !== basePath && !path.startsWith(`${basePath}/`)) {
    throw new A2AConfigError(
      'card',
      `${describeInterface(entry)} is outside the mount path ${basePath}: mounted there, this server answers only ` +
        `below ${url.origin}${basePath}. Build the card from the URL the server is mounted at (a card function gets it).`,
    );
  }
  const port = url.port ? Number(url.port) : url.protocol === 'https:' ? 443 : 80;
  return {
    ...entry,
    path,
    exact: i.protocolBinding === 'JSONRPC',
    port,
    versions: new Set([version ?? PROTOCOL_VERSION]),
  };
}

/**
 * The health endpoints are answered before anything else, so an interface at one of their paths (or the
 * card's) would never be reached: refuse the combination at start, naming the entry.
 */
export function checkHealthPaths(
  planned: readonly PlannedInterface[],
  mountPath: string,
  paths: readonly string[],
): void {
  for (const path of paths) {
    const full = mountPath + path;
    if (full === mountPath + WELL_KNOWN_CARD_PATH)
      throw new A2AConfigError(
        'health',
        `the health path ${path} is the card's path; choose another in the health option`,
      );
    const taken = planned.find((p) => p.path === full);
    if (taken)
      throw new A2AConfigError(
        'health',
        `${describeInterface(taken)} is at the health path ${path}, which answers probes first; choose another path in the health option`,
      );
  }
}

/**
 * A listener mounted in someone else's server answers one origin: whatever origin the requests come
 * in on. A card spread over several origins would send clients to ports or hosts nobody serves.
 */
export function requireOneOrigin(planned: readonly PlannedInterface[]): void {
  const first = planned[0];
  const other = planned.find((p) => p.url.origin !== first?.url.origin);
  if (first && other) {
    throw new A2AConfigError(
      'card',
      `${describeInterface(other)} is on another origin than ${describeInterface(first)}. A listener mounted in your ` +
        `own server answers one origin only; use listen(), which opens each local port the card names, or mount one ` +
        `agent server per origin.`,
    );
  }
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i;

/**
 * How `listen(port, host)` serves a card. A card with one origin is served on the listen port whatever
 * that origin says (it may be a proxy's public address). A card with several origins is served per
 * port: entries on the listen port by the main server, every other port by a server `listen` opens on
 * the same host — only plain HTTP, and only for host names that reach this machine the same way.
 */
export function planListen(
  planned: PlannedInterface[],
  mainPort: number,
  listenHost: string,
): ListenPlan {
  const plan: ListenPlan = { main: [], extra: new Map() };
  if (new Set(planned.map((p) => p.url.origin)).size <= 1) return { ...plan, main: planned };
  const mainNames = new Set(
    planned.filter((p) => p.port === mainPort).map((p) => p.url.hostname.toLowerCase()),
  );
  const loopbackListen =
    LOOPBACK.test(listenHost) ||
    listenHost === '::1' ||
    listenHost === '0.0.0.0' ||
    listenHost === '::';
  for (const p of planned) {
    if (p.port === mainPort) {
      plan.main.push(p);
      continue;
    }
    const name = p.url.hostname.toLowerCase();
    const local =
      mainNames.has(name) ||
      name === listenHost.toLowerCase() ||
      (loopbackListen && LOOPBACK.test(name));
    if (!local) {
      throw new A2AConfigError(
        'card',
        `${describeInterface(p)} is on host ${p.url.hostname}, which this server cannot open: it listens on ${listenHost} ` +
          `and opens further ports only for the host names of its other interfaces. Serve that interface from its own server.`,
      );
    }
    if (p.url.protocol !== 'http:') {
      throw new A2AConfigError(
        'card',
        `${describeInterface(p)} needs TLS on port ${p.port}, which listen() does not provide (it opens plain HTTP); put TLS in front or serve it from an https server`,
      );
    }
    const list = plan.extra.get(p.port) ?? [];
    list.push(p);
    plan.extra.set(p.port, list);
  }
  return plan;
}
