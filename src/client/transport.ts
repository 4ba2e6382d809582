/**
 * The one interface every binding implements, and the extension point for bindings this package
 * does not ship (the `transports` option of {@link A2AClient}). The client decides what to call
 * and with which credentials; a transport only knows how its binding puts an operation on the wire.
 */
import type { OperationName, StreamResponse } from '../protocol/index.js';
import type { FetchLike } from './http.js';

/** One event of a stream, with the SSE `id` the server gave it (used to resume). */
export interface StreamEvent {
  /** The SSE `id`, if the agent gave one. */
  id?: string | undefined;
  /** The event itself. */
  data: StreamResponse;
}

/** Per-request inputs the client hands a transport; honour each one the binding can carry. */
export interface TransportRequest {
  /** Fires on caller abort or timeout. */
  signal?: AbortSignal | undefined;
  /** Extra headers (credentials, custom headers). */
  headers?: Record<string, string>;
  /** Extra query parameters (API keys that live in the query). */
  query?: Record<string, string>;
  /** Extension URIs for `A2A-Extensions`. */
  extensions?: readonly string[] | undefined;
  /** For stream resumption: sent as `Last-Event-ID`. */
  lastEventId?: string | undefined;
  /** Timeout in ms, only used to word the TIMEOUT error. */
  timeoutMs?: number | undefined;
  /**
   * Set only when interceptors are installed: call it with the HTTP status of the answer once it
   * arrives (for a stream, of the response that opens it). A transport without statuses ignores it.
   */
  onStatus?: ((status: number) => void) | undefined;
}

/** A binding (JSON-RPC, HTTP+JSON, …) of the A2A operations to one interface URL. */
export interface Transport {
  /** The `protocolBinding` this transport speaks, e.g. `JSONRPC`. */
  readonly binding: string;
  /** The interface URL it talks to. */
  readonly url: string;
  /** A unary operation: resolves with the operation's response object. */
  call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown>;
  /** A streaming operation: yields events in order; throws A2AError for errors the agent reports. */
  stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncIterable<StreamEvent>;
}

/** Settings the client hands every transport factory (from its own options). */
export interface HttpTransportOptions {
  /** The client's `fetch` option, when set. */
  fetch?: FetchLike;
  /** Cap on a whole response body. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Cap on one SSE event. Default 4 MiB. */
  maxEventBytes?: number;
  /** Silence after which an open stream is treated as a dropped connection. Default: none. */
  streamIdleTimeoutMs?: number;
  /** Major.Minor of the chosen interface (`1.0`, or `0.3` when the client allows it), for factories that speak several. */
  protocolVersion?: string;
}

/**
 * Builds a transport for one interface; lets callers plug in bindings we do not ship (e.g. gRPC).
 * Registered by `protocolBinding` name in the client's `transports` option, which also makes that
 * binding acceptable when the client picks an interface from the card.
 *
 * @example
 * ```ts
 * import { A2AClient, A2AError, type TransportFactory } from 'a2a-kit/client';
 *
 * const grpc: TransportFactory = (url) => ({
 *   binding: 'GRPC',
 *   url,
 *   async call(operation, params, req) {
 *     // Put `operation` and `params` on the wire with your gRPC stub; honour req.signal and req.headers.
 *     throw new A2AError('UnsupportedOperation', `${operation} is not wired yet`);
 *   },
 *   async *stream(operation) {
 *     throw new A2AError('UnsupportedOperation', `${operation} is not wired yet`);
 *   },
 * });
 * const client = await A2AClient.connect('http://localhost:41241', { transports: { GRPC: grpc } });
 * ```
 */
export interface TransportFactory {
  (url: string, options: HttpTransportOptions): Transport;
  /**
   * The protocol versions (Major.Minor) the transports it builds speak; `options.protocolVersion`
   * says which one an interface wants. Unset means `['1.0']`: the client never hands such a factory
   * an interface of another version (§8.3.2: it skips entries it cannot speak).
   */
  readonly protocolVersions?: readonly string[];
}
