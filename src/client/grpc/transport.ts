/**
 * The gRPC binding (§10) as a client {@link Transport}, on node:http2 with our own protobuf codec: no
 * dependency. Each operation is a call of the A2AService, its request encoded from the same ProtoJSON
 * object the JSON transports send and its answer decoded back into one, so {@link A2AClient} returns the
 * same typed results whichever binding it chose. Service parameters and credentials travel as
 * metadata (§10.2).
 */
import type { OutgoingHttpHeaders, SecureClientSessionOptions } from 'node:http2';
import {
  A2AError,
  HEADER_EXTENSIONS,
  HEADER_VERSION,
  PROTOCOL_VERSION,
  type OperationName,
} from '../../protocol/index.js';
import {
  GRPC_METHODS,
  ProtoError,
  decodeMessage,
  encodeFramed,
  grpcAuthority,
} from '../../protocol/grpc/index.js';
import { A2AClientError } from '../errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http.js';
import type {
  HttpTransportOptions,
  StreamEvent,
  Transport,
  TransportFactory,
  TransportRequest,
} from '../transport.js';
import { asStreamResponse } from '../wire.js';
import { H2Channel } from './channel.js';
import { GrpcClientCall } from './call.js';
import { statusFailure } from './errors.js';

/** Settings of the gRPC transport. */
export interface GrpcTransportOptions {
  /**
   * TLS settings (node's: `ca`, and `key` + `cert` for mTLS, `servername`…) for `https://` and
   * `grpcs://` interface URLs, and for a bare `host:port` (which is plaintext without them).
   * Default for TLS URLs: the system's certificate authorities.
   */
  tls?: SecureClientSessionOptions;
  /** Largest accepted answer message in bytes. Default: the client's `maxResponseBytes` (10 MiB). */
  maxResponseBytes?: number;
  /** Close the connection after this long without a call (ms); the next call opens a new one. Default 5 minutes. */
  idleTimeoutMs?: number;
}

/** HTTP request headers that have no meaning as gRPC metadata (or that gRPC sets itself). */
const NOT_METADATA = new Set([
  'accept',
  'content-type',
  'content-length',
  'connection',
  'host',
  'te',
  'user-agent',
  'last-event-id',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
]);
/** Answers waiting to be read before the call stops reading (flow control then holds the agent back). */
const HIGH_WATER = 16;

/**
 * Metadata of one call: `a2a-version`, `a2a-extensions`, then the client's headers (credentials
 * included). Query parameters (API keys a card places in the query) go as metadata of the same name.
 */
function metadataOf(req: TransportRequest): OutgoingHttpHeaders {
  const md: OutgoingHttpHeaders = { [HEADER_VERSION.toLowerCase()]: PROTOCOL_VERSION };
  if (req.extensions && req.extensions.length > 0)
    md[HEADER_EXTENSIONS.toLowerCase()] = req.extensions.join(',');
  for (const entries of [req.query, req.headers]) {
    for (const [k, v] of Object.entries(entries ?? {})) {
      const key = k.toLowerCase();
      if (NOT_METADATA.has(key) || key.startsWith(':') || key.startsWith('grpc-')) continue;
      if (!/^[a-z0-9_.-]+$/.test(key))
        throw new A2AClientError(
          'INVALID_ARGUMENT',
          `"${k}" cannot be sent as gRPC metadata: a key is lower-case letters, digits, "-", "_" and "."`,
        );
      if (key.endsWith('-bin') || !/^[\x20-\x7e]*$/.test(v)) {
        throw new A2AClientError(
          'INVALID_ARGUMENT',
          `"${k}" cannot be sent as gRPC metadata: its value must be printable ASCII (binary "-bin" metadata is not sent)`,
        );
      }
      md[key] = v;
    }
  }
  return md;
}

/** A numeric option, checked: a whole number above zero (a NaN idle timeout would close every connection at once). */
function positive(
  options: GrpcTransportOptions,
  name: 'idleTimeoutMs' | 'maxResponseBytes',
): number | undefined {
  const v = options[name];
  if (v === undefined) return undefined;
  if (!Number.isSafeInteger(v) || v <= 0)
    throw new A2AClientError(
      'INVALID_ARGUMENT',
      `grpcTransport: ${name} must be a whole number above 0, got ${String(v)}`,
    );
  return v;
}

/** A request the agent could never read: the same InvalidParams answer the agent would give. */
function unencodable(err: unknown, operation: OperationName): Error {
  if (!(err instanceof ProtoError)) return err as Error;
  const violation = { field: err.field || '(request)', description: err.problem };
  return A2AError.invalidParams(
    [violation],
    `${operation} not sent: ${violation.field} ${violation.description}`,
  );
}

/** The request of `operation` as a framed message and its metadata; an unusable one is refused before anything is sent. */
function prepare(
  operation: OperationName,
  params: object,
  req: TransportRequest,
): { body: Buffer; metadata: OutgoingHttpHeaders } {
  try {
    return {
      body: encodeFramed(GRPC_METHODS[operation].request, params),
      metadata: metadataOf(req),
    };
  } catch (err) {
    throw unencodable(err, operation);
  }
}

/** Talks gRPC to one interface of an agent, over one HTTP/2 connection shared by its calls. */
export class GrpcTransport implements Transport {
  readonly binding = 'GRPC';
  readonly url: string;
  readonly #channel: H2Channel;
  readonly #maxBytes: number;

  constructor(url: string, options: GrpcTransportOptions = {}) {
    this.url = url;
    const authority = grpcAuthority(url);
    if (!authority)
      throw new A2AClientError(
        'INVALID_ARGUMENT',
        `${JSON.stringify(url)} is not a gRPC interface URL (http://, https://, grpc://, grpcs:// or host:port)`,
      );
    const tls = authority.tls ?? options.tls !== undefined;
    const host = authority.host.includes(':') ? `[${authority.host}]` : authority.host;
    this.#channel = new H2Channel(
      `${tls ? 'https' : 'http'}://${host}:${authority.port}`,
      options.tls,
      positive(options, 'idleTimeoutMs') ?? 300_000,
    );
    this.#maxBytes = positive(options, 'maxResponseBytes') ?? DEFAULT_MAX_RESPONSE_BYTES;
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const m = GRPC_METHODS[operation];
    const { body, metadata } = prepare(operation, params, req);
    if (req.signal?.aborted) throw req.signal.reason;
    const timeoutMs =
      req.timeoutMs !== undefined && req.timeoutMs > 0 && Number.isFinite(req.timeoutMs)
        ? req.timeoutMs
        : undefined;
    const answers: Buffer[] = [];
    const call = new GrpcClientCall(this.#channel, {
      path: m.path,
      metadata,
      body,
      maxMessageBytes: this.#maxBytes,
      timeoutMs,
      signal: req.signal,
      onMessage: (message) => void answers.push(message),
      what: operation,
      url: this.url,
    });
    const status = await call.done;
    if (status.code !== 0) throw statusFailure(status, operation, this.url);
    if (answers.length !== 1)
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: ${this.url} answered with ${answers.length} messages where gRPC has exactly one`,
      );
    try {
      return decodeMessage(m.response, answers[0]!);
    } catch (e) {
      throw new A2AClientError(
        'BAD_RESPONSE',
        `${operation}: the answer from ${this.url} is not a valid ${m.response}: ${(e as Error).message}`,
      );
    }
  }

  async *stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent> {
    const m = GRPC_METHODS[operation];
    const { body, metadata } = prepare(operation, params, req);
    if (req.signal?.aborted) throw req.signal.reason;
    const queue: Buffer[] = [];
    let wake: (() => void) | undefined;
    const call = new GrpcClientCall(this.#channel, {
      path: m.path,
      metadata,
      body,
      maxMessageBytes: this.#maxBytes,
      signal: req.signal,
      onMessage: (message) => {
        queue.push(message);
        if (queue.length === HIGH_WATER) call.pause();
        wake?.();
      },
      what: operation,
      url: this.url,
    });
    let ended: { status?: { code: number }; error?: unknown } | undefined;
    call.done.then(
      (status) => {
        ended = { status };
        wake?.();
      },
      (error: unknown) => {
        ended = { error };
        wake?.();
      },
    );
    let complete = false;
    try {
      for (;;) {
        const next = queue.shift();
        if (next !== undefined) {
          if (queue.length === HIGH_WATER / 2) call.resume();
          let data: unknown;
          try {
            data = decodeMessage(m.response, next);
          } catch (e) {
            throw new A2AClientError(
              'BAD_RESPONSE',
              `${operation}: a stream event from ${this.url} is not a valid StreamResponse: ${(e as Error).message}`,
            );
          }
          yield { data: asStreamResponse(data, operation) };
          continue;
        }
        if (ended) break;
        await new Promise<void>((resolve) => (wake = resolve));
        wake = undefined;
      }
      if (ended.error !== undefined) throw ended.error;
      const status = await call.done;
      if (status.code !== 0) throw statusFailure(status, operation, this.url);
      complete = true;
    } finally {
      // The caller stopped reading early (break, return, an error of its own): end the call.
      if (!complete) call.cancel();
    }
  }

  /** Close the connection; calls still running end, later ones fail. */
  close(): void {
    this.#channel.close();
  }
}

/**
 * A factory for `A2AClientOptions.transports`: `transports: { GRPC: grpcTransport() }` lets
 * the client choose an agent's GRPC interface when the card lists it first among those it accepts (§8.3.2).
 * Clients built with the same factory share one connection per interface URL (a transport holds no
 * per-client state), as gRPC channels are meant to be shared.
 */
export function grpcTransport(options: GrpcTransportOptions = {}): TransportFactory {
  const channels = new Map<string, GrpcTransport>();
  return (url: string, http: HttpTransportOptions) => {
    const maxResponseBytes = options.maxResponseBytes ?? http.maxResponseBytes;
    const key = `${maxResponseBytes ?? ''} ${url}`;
    let t = channels.get(key);
    if (!t)
      channels.set(
        key,
        (t = new GrpcTransport(url, {
          ...options,
          ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}),
        })),
      );
    return t;
  };
}
