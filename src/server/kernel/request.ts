/**
 * Who is calling, as every binding establishes it: the few request facts an authenticator may read
 * (the same shape over node:http, the Web fetch path and both gRPC servers), and the one step that
 * turns an authenticator's answer into the caller of a call context.
 */
import type { PeerCertificate } from 'node:tls';
import type { Caller } from '../dispatch/call-context.js';

/**
 * The connection a request came on, as far as authentication needs it: the peer address, and for TLS
 * the client certificate and whether the TLS layer trusted it. Absent on the Web fetch path.
 */
export interface AuthSocket {
  readonly remoteAddress?: string | undefined;
  /** True when the TLS layer validated the client certificate against its CA list. */
  readonly authorized?: boolean;
  /** The client certificate of a TLS connection (node's `TLSSocket.getPeerCertificate`). */
  getPeerCertificate?(detailed?: boolean): PeerCertificate | object;
}

/**
 * A request as an {@link Authenticator} and the scheme verifiers see it, whatever carried it: a
 * node:http `IncomingMessage` is one (and is what the node listener passes), the Web fetch adapter
 * passes `method`, `url` and lower-case `headers`, and gRPC passes the call's text metadata as
 * headers (and again as query parameters of `url`, where API keys placed in the query are found).
 */
export interface AuthRequest {
  /** Upper-case method (`POST` for gRPC). */
  readonly method?: string | undefined;
  /** Path and query as sent. */
  readonly url?: string | undefined;
  /** Headers by lower-case name. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  /** The connection, where there is one (not on the Web fetch path). */
  readonly socket?: AuthSocket | undefined;
}

/**
 * Establishes who is calling. Return undefined for an anonymous caller; throw
 * `new A2AError('Unauthenticated', …)` for missing or bad credentials when they are required.
 *
 * Upgrading: it used to be typed over node's `IncomingMessage`, which gRPC and the fetch adapter could
 * only fake. Code that reads `req.headers`, `req.url`, `req.method` or `req.socket` runs unchanged; an
 * explicit `(req: IncomingMessage)` annotation becomes `(req: AuthRequest)`, and `req.socket` may be
 * undefined (the fetch adapter has none).
 */
export type Authenticator = (req: AuthRequest) => Caller | undefined | Promise<Caller | undefined>;

/** How a binding authenticates: the authenticator, and the challenge its 401 / UNAUTHENTICATED answers carry. */
export interface CallAuth {
  authenticate?: Authenticator | undefined;
  /** `WWW-Authenticate` challenge (gRPC: `www-authenticate` metadata). */
  challenge?: string | undefined;
}

/**
 * Set `cc.caller` from what `authenticate` says of `request` (every binding's last step of building a call
 * context); synchronous unless the authenticator is not. `request` is called only when there is an
 * authenticator, so the bindings build their request view lazily.
 */
export function withCaller<C extends { caller?: Caller }>(
  cc: C,
  authenticate: Authenticator | undefined,
  request: () => AuthRequest,
): C | Promise<C> {
  if (!authenticate) return cc;
  const caller = authenticate(request());
  if (caller && typeof (caller as Promise<Caller | undefined>).then === 'function') {
    return (caller as Promise<Caller | undefined>).then((c) => {
      if (c) cc.caller = c;
      return cc;
    });
  }
  if (caller) cc.caller = caller as Caller;
  return cc;
}
