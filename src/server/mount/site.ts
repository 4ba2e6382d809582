/**
 * What one origin of an agent answers: its card, the push JWKS, and the interfaces planned on it, each
 * at its full path (mount path included). Routing is a short scan: exact JSON-RPC paths first, then
 * the longest REST prefix, so a REST interface at `/` never swallows a more specific one.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PUSH_JWKS_PATH, WELL_KNOWN_CARD_PATH, type AgentCard } from '../../protocol/index.js';
import type { MountedBinding, ServedRoute } from '../bindings/registry.js';
import type { CardResponder } from '../card/responder.js';
import type { PlannedInterface } from './plan.js';

/** The routes, card and JWKS one listening origin serves. */
export class Site {
  readonly #cardPath: string;
  readonly #jwksPath: string;
  readonly #routes: Array<{ path: string; exact: boolean; handle: MountedBinding }>;

  constructor(
    private readonly responder: CardResponder,
    /** The card this site serves. */
    readonly card: AgentCard,
    mountPath: string,
    /** The interfaces it answers. */
    readonly planned: readonly PlannedInterface[],
    bindingFor: (planned: PlannedInterface) => MountedBinding,
    private readonly jwks: () => object | undefined,
  ) {
    this.#cardPath = mountPath + WELL_KNOWN_CARD_PATH;
    this.#jwksPath = mountPath + PUSH_JWKS_PATH;
    this.#routes = planned
      .map((p) => ({ path: p.path, exact: p.exact, handle: bindingFor(p) }))
      .sort((a, b) => Number(b.exact) - Number(a.exact) || b.path.length - a.path.length);
  }

  /** What answers `path` here: the card, the JWKS, or a binding with the path below its interface URL. */
  route(path: string): ServedRoute | undefined {
    if (path === this.#cardPath) return { kind: 'card', card: this.responder };
    if (path === this.#jwksPath) {
      const jwks = this.jwks();
      if (jwks) return { kind: 'jwks', jwks };
    }
    // A JSON-RPC interface URL may be written with a trailing slash (`…/jsonrpc/`): the same endpoint.
    const bare = withoutTrailingSlashes(path);
    for (const r of this.#routes) {
      if (
        path === r.path ||
        (r.exact && bare === r.path) ||
        (!r.exact && (r.path === '/' || path.startsWith(r.path + '/')))
      ) {
        return {
          kind: 'binding',
          binding: r.handle,
          subpath: r.path === '/' ? path : path.slice(r.path.length),
        };
      }
    }
    return undefined;
  }

  /** Answer the request when `path` belongs to this site; false when nothing here is at that path. */
  answer(path: string, req: IncomingMessage, res: ServerResponse): boolean {
    const route = this.route(path);
    if (!route) return false;
    if (route.kind === 'card') this.#serveCard(req, res);
    else if (route.kind === 'jwks') {
      res
        .writeHead(200, {
          'content-type': 'application/jwk-set+json',
          'cache-control': 'public, max-age=300',
        })
        .end(JSON.stringify(route.jwks));
    } else void route.binding(req, res, route.subpath);
    return true;
  }

  #serveCard(req: IncomingMessage, res: ServerResponse): void {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD' }).end();
      return;
    }
    const r = this.responder.respond(req.headers, req.method);
    res.writeHead(r.status, r.headers as unknown as Record<string, string>);
    res.end(r.body);
  }
}

/** `path` without its trailing slashes (`/` stays `/`); a loop, not a regex, over a peer's path. */
function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
  return end === path.length ? path : path.slice(0, end);
}
