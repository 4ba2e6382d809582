/**
 * One gRPC call on a node:http2 stream: its call context (§10.2 service parameters from the headers,
 * the caller from the same authenticator as HTTP, an abort signal), and its answer — response headers,
 * messages, then the status as trailers, or the status alone (trailers-only) when nothing was sent.
 * A call ends exactly once: with our status, at its deadline, or when the client resets the stream.
 */
import { constants, type IncomingHttpHeaders, type ServerHttp2Stream } from 'node:http2';
import { GRPC_CODES, GRPC_EXTENSIONS_KEY, GRPC_VERSION_KEY } from '../../protocol/grpc/index.js';
import type { Caller, CallContext } from '../dispatch/call-context.js';
import { withCaller, type AuthRequest, type Authenticator } from '../kernel/request.js';
import { grpcRequestView } from '../kernel/grpc-request.js';
import { plainStatusHeaders } from './h2-wire.js';

const NO_EXTENSIONS = Object.freeze([]) as unknown as string[];
const OK_TRAILERS = { 'grpc-status': '0' };
// Made once, not per call: node copies headers and options before it reads them, so sharing is safe.
const PLAIN_HEADERS = { ':status': 200, 'content-type': 'application/grpc' };
const WITH_TRAILERS = { waitForTrailers: true };

/**
 * The `wantTrailers` listener of a unary answer: a module function, so no closure is made per call, and
 * added with `on` (the event comes once per stream), so no `once` wrapper either.
 */
function sendOk(this: ServerHttp2Stream): void {
  this.sendTrailers(OK_TRAILERS);
}

/** Where a stream keeps its call, for the module-level `close` listener below. */
const CALL = Symbol('a2a.grpcCall');

function onStreamClose(this: ServerHttp2Stream & { [CALL]?: H2Call }): void {
  this[CALL]?.closed();
}

/** Extension URIs from `a2a-extensions` (comma-separated; repeated headers arrive joined). */
function extensionsOf(value: string | string[] | undefined): string[] {
  if (value === undefined) return NO_EXTENSIONS;
  return (Array.isArray(value) ? value.join(',') : value)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** A gRPC call on an HTTP/2 stream, and its call context for the dispatcher. */
export class H2Call implements CallContext {
  readonly binding = 'GRPC';
  caller?: Caller;
  version?: string;
  readonly requestedExtensions: string[];
  #activated: Set<string> | undefined;
  #ac: AbortController | undefined;
  #timer: NodeJS.Timeout | undefined;
  #onEnd: Array<(cancelled: boolean) => void> | undefined;
  #closed = false;
  /** Set once our status is on its way: whatever happens to the stream after that is no cancellation. */
  finished = false;
  /** Set when the call ended without our status (client reset, broken connection, deadline). */
  cancelled = false;

  constructor(
    readonly stream: ServerHttp2Stream,
    readonly headers: IncomingHttpHeaders,
  ) {
    const version = headers[GRPC_VERSION_KEY];
    if (typeof version === 'string') this.version = version;
    this.requestedExtensions = extensionsOf(headers[GRPC_EXTENSIONS_KEY]);
    (stream as ServerHttp2Stream & { [CALL]?: H2Call })[CALL] = this;
    stream.on('close', onStreamClose);
  }

  get activatedExtensions(): Set<string> {
    return (this.#activated ??= new Set());
  }

  /** A request header (gRPC metadata), e.g. `traceparent`; binary (`-bin`) ones are not text and are skipped. */
  header(name: string): string | undefined {
    if (name.endsWith('-bin')) return undefined;
    const v = this.headers[name.toLowerCase()];
    return Array.isArray(v) ? v[0] : v;
  }

  get signal(): AbortSignal {
    if (!this.#ac) {
      this.#ac = new AbortController();
      if (this.cancelled) this.#ac.abort();
    }
    return this.#ac.signal;
  }

  /** Called once when the call ends; `cancelled` when it ended without our status. */
  onEnd(fn: (cancelled: boolean) => void): void {
    if (this.#closed) fn(this.cancelled);
    else (this.#onEnd ??= []).push(fn);
  }

  /** Whether nothing more can be sent: the stream is closed (by us, the client or the connection). */
  get gone(): boolean {
    return this.stream.closed || this.stream.destroyed;
  }

  /** End the call with DEADLINE_EXCEEDED after `ms` (the client's `grpc-timeout`). */
  deadline(ms: number): void {
    this.#timer = setTimeout(() => {
      if (this.finished) return;
      this.#cancel();
      this.status(
        plainStatusHeaders(GRPC_CODES.DEADLINE_EXCEEDED, 'Deadline exceeded', 'DEADLINE_EXCEEDED'),
      );
    }, ms);
    this.#timer.unref();
  }

  /** Response headers (with the extensions activated so far, §3.2.6), before the first message. */
  respond(): void {
    const activated = this.#activated;
    const headers =
      activated && activated.size > 0
        ? { ...PLAIN_HEADERS, [GRPC_EXTENSIONS_KEY]: [...activated].join(',') }
        : PLAIN_HEADERS;
    this.stream.respond(headers, WITH_TRAILERS);
  }

  /** The answer of a unary call: headers, the one message, OK. */
  reply(message: Buffer): void {
    if (this.finished || this.gone) return;
    this.finished = true;
    this.#clearTimer();
    this.respond();
    this.stream.on('wantTrailers', sendOk);
    this.stream.end(message);
  }

  /**
   * End the call with a status: as trailers after what was sent, or as the whole answer (trailers-only)
   * when no headers went out yet. The extension echo and `extra` (e.g. `www-authenticate`) go with it.
   */
  status(status: Record<string, string>, extra?: Record<string, string>): void {
    if (this.finished || this.gone) return;
    this.finished = true;
    this.#clearTimer();
    const trailers = extra ? { ...status, ...extra } : status;
    const stream = this.stream;
    if (stream.headersSent) {
      if (stream.writableEnded) return;
      stream.once('wantTrailers', () => stream.sendTrailers(trailers));
      stream.end();
      return;
    }
    const headers: Record<string, string | number> = {
      ':status': 200,
      'content-type': 'application/grpc',
      ...trailers,
    };
    const activated = this.#activated;
    if (activated && activated.size > 0) headers[GRPC_EXTENSIONS_KEY] = [...activated].join(',');
    stream.respond(headers, { endStream: true });
  }

  /** Stop the call without a status (RST_STREAM CANCEL): nothing more can be said to the client. */
  abort(): void {
    if (!this.stream.destroyed) this.stream.close(constants.NGHTTP2_CANCEL);
  }

  /** End the stream after what was sent (RST_STREAM NO_ERROR): the client stops sending its request. */
  stopReceiving(): void {
    if (!this.stream.destroyed) this.stream.close(constants.NGHTTP2_NO_ERROR);
  }

  #cancel(): void {
    if (this.cancelled || this.finished) return;
    this.cancelled = true;
    this.#ac?.abort();
  }

  #clearTimer(): void {
    if (this.#timer) clearTimeout(this.#timer);
  }

  /** The stream closed (our status sent, a client reset, a broken connection): end the call. */
  closed(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#clearTimer();
    if (!this.finished) this.#cancel();
    // A reset after our status still ends the call; it was not a cancellation then.
    const fns = this.#onEnd;
    this.#onEnd = undefined;
    if (fns) for (const fn of fns) fn(this.cancelled);
  }
}

/** The headers an authenticator looks at: text headers, as node:http shows them (no pseudo-headers, no `-bin`). */
function textHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(headers)) {
    if (value === undefined || key.startsWith(':') || key.endsWith('-bin')) continue;
    out[key] = value;
  }
  return out;
}

/** The call as the request an authenticator reads; on TLS the socket is the session's (mTLS). */
export function requestView(call: H2Call): AuthRequest {
  return grpcRequestView(
    () => String(call.headers[':path']),
    () => textHeaders(call.headers),
    () => call.stream.session?.socket,
  );
}

/** Establish the caller; synchronous unless the authenticator is not. */
export function authenticateCall(
  call: H2Call,
  authenticate: Authenticator | undefined,
): H2Call | Promise<H2Call> {
  return withCaller(call, authenticate, () => requestView(call));
}
