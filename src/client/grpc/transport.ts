/**
 * The gRPC binding (§10) as a client {@link Transport}: each operation is a call of the A2AService,
 * its request encoded from the same ProtoJSON object the JSON transports send and its answer decoded
 * back into one, so {@link A2AClient} returns the same typed results whichever binding it chose.
 * Service parameters and credentials travel as metadata (§10.2).
 */
import {
  Client,
  Metadata,
  credentials as channelCredentials,
  type ChannelCredentials,
  type ChannelOptions,
  type ClientReadableStream,
} from '@grpc/grpc-js';
import { A2AError, HEADER_EXTENSIONS, HEADER_VERSION, PROTOCOL_VERSION, type OperationName } from '../../protocol/index.js';
import { GRPC_METHODS, ProtoError, decodeMessage, encodeMessage, grpcAuthority } from '../../protocol/grpc/index.js';
import { A2AClientError } from '../errors.js';
import { DEFAULT_MAX_RESPONSE_BYTES } from '../http.js';
import type { HttpTransportOptions, StreamEvent, Transport, TransportFactory, TransportRequest } from '../transport.js';
import { asStreamResponse } from '../wire.js';
import { grpcFailure, isServiceError } from './errors.js';

/** Settings of the gRPC transport. */
export interface GrpcTransportOptions {
  /**
   * Channel credentials (TLS roots, a client certificate for mTLS). Default: TLS for `https://` and
   * `grpcs://` interface URLs, plaintext for `http://`, `grpc://` and a bare `host:port`.
   */
  credentials?: ChannelCredentials;
  /** Further grpc-js channel options (keepalive, load balancing…). */
  channelOptions?: ChannelOptions;
  /** Largest accepted answer message in bytes. Default: the client's `maxResponseBytes` (10 MiB). */
  maxResponseBytes?: number;
}

const passBytes = (b: Buffer): Buffer => b;

/** HTTP request headers that have no meaning as gRPC metadata (or that gRPC sets itself). */
const NOT_METADATA = new Set(['accept', 'content-type', 'content-length', 'connection', 'host', 'te', 'user-agent', 'last-event-id', 'transfer-encoding']);

/**
 * Metadata of one call: `a2a-version`, `a2a-extensions`, then the client's headers (credentials
 * included). Query parameters (API keys a card places in the query) go as metadata of the same name.
 */
function metadataOf(req: TransportRequest): Metadata {
  const md = new Metadata();
  md.set(HEADER_VERSION.toLowerCase(), PROTOCOL_VERSION);
  if (req.extensions && req.extensions.length > 0) md.set(HEADER_EXTENSIONS.toLowerCase(), req.extensions.join(','));
  const add = (entries: Record<string, string> | undefined): void => {
    for (const [k, v] of Object.entries(entries ?? {})) {
      const key = k.toLowerCase();
      if (NOT_METADATA.has(key)) continue;
      try {
        md.set(key, v);
      } catch (err) {
        throw new A2AClientError('INVALID_ARGUMENT', `"${k}" cannot be sent as gRPC metadata: ${(err as Error).message}`, { cause: err });
      }
    }
  };
  add(req.query);
  add(req.headers);
  return md;
}

/** A request the agent could never read: the same InvalidParams answer the agent would give. */
function unencodable(err: unknown, operation: OperationName): Error {
  if (!(err instanceof ProtoError)) return err as Error;
  const violation = { field: err.field || '(request)', description: err.problem };
  return A2AError.invalidParams([violation], `${operation} not sent: ${violation.field} ${violation.description}`);
}

/** Talks gRPC to one interface of an agent. */
export class GrpcTransport implements Transport {
  readonly binding = 'GRPC';
  readonly url: string;
  readonly #client: Client;

  constructor(url: string, options: GrpcTransportOptions = {}) {
    this.url = url;
    const authority = grpcAuthority(url);
    const target = authority ? `${authority.host.includes(':') ? `[${authority.host}]` : authority.host}:${authority.port}` : url;
    const credentials = options.credentials ?? (authority?.tls ? channelCredentials.createSsl() : channelCredentials.createInsecure());
    this.#client = new Client(target, credentials, {
      'grpc.max_receive_message_length': options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
      // channelz keeps every channel registered for the life of the process; clients come and go.
      'grpc.enable_channelz': 0,
      ...options.channelOptions,
    });
  }

  call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const m = GRPC_METHODS[operation];
    let bytes: Buffer;
    let md: Metadata;
    try {
      bytes = encodeMessage(m.request, params);
      md = metadataOf(req);
    } catch (err) {
      return Promise.reject(unencodable(err, operation));
    }
    const signal = req.signal;
    if (signal?.aborted) return Promise.reject(signal.reason);
    const deadline = req.timeoutMs !== undefined && req.timeoutMs > 0 && Number.isFinite(req.timeoutMs) ? Date.now() + req.timeoutMs : undefined;
    return new Promise((resolve, reject) => {
      const onAbort = (): void => call.cancel();
      const call = this.#client.makeUnaryRequest(m.path, passBytes, passBytes, bytes, md, deadline ? { deadline } : {}, (err, value) => {
        signal?.removeEventListener('abort', onAbort);
        if (err) return reject(signal?.aborted ? signal.reason : grpcFailure(err, operation, this.url));
        try {
          resolve(decodeMessage(m.response, value ?? Buffer.alloc(0)));
        } catch (e) {
          reject(new A2AClientError('BAD_RESPONSE', `${operation}: the answer from ${this.url} is not a valid ${m.response}: ${(e as Error).message}`));
        }
      });
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  async *stream(operation: OperationName, params: object, req: TransportRequest): AsyncGenerator<StreamEvent> {
    const m = GRPC_METHODS[operation];
    let bytes: Buffer;
    let md: Metadata;
    try {
      bytes = encodeMessage(m.request, params);
      md = metadataOf(req);
    } catch (err) {
      throw unencodable(err, operation);
    }
    const signal = req.signal;
    if (signal?.aborted) throw signal.reason;
    const call: ClientReadableStream<Buffer> = this.#client.makeServerStreamRequest(m.path, passBytes, passBytes, bytes, md, {});
    const onAbort = (): void => call.cancel();
    signal?.addEventListener('abort', onAbort, { once: true });
    let done = false;
    try {
      for await (const chunk of call as AsyncIterable<Buffer>) {
        let data: unknown;
        try {
          data = decodeMessage(m.response, chunk);
        } catch (e) {
          throw new A2AClientError('BAD_RESPONSE', `${operation}: a stream event from ${this.url} is not a valid StreamResponse: ${(e as Error).message}`);
        }
        yield { data: asStreamResponse(data, operation) };
      }
      done = true;
    } catch (err) {
      if (signal?.aborted) throw signal.reason;
      throw isServiceError(err) ? grpcFailure(err, operation, this.url) : err;
    } finally {
      signal?.removeEventListener('abort', onAbort);
      // The caller stopped reading early (break, return, an error of its own): end the call.
      if (!done) call.cancel();
    }
  }

  /** Close the channel; calls still running fail. */
  close(): void {
    this.#client.close();
  }
}

/**
 * A factory for {@link A2AClientOptions.transports}: `transports: { GRPC: grpcTransport() }` lets
 * the client choose an agent's GRPC interface when the card lists it first among those it accepts (§8.3.2).
 * Clients built with the same factory share one channel per interface URL (a transport holds no
 * per-client state), as gRPC channels are meant to be shared.
 */
export function grpcTransport(options: GrpcTransportOptions = {}): TransportFactory {
  const channels = new Map<string, GrpcTransport>();
  return (url: string, http: HttpTransportOptions) => {
    const maxResponseBytes = options.maxResponseBytes ?? http.maxResponseBytes;
    const key = `${maxResponseBytes ?? ''} ${url}`;
    let t = channels.get(key);
    if (!t) channels.set(key, (t = new GrpcTransport(url, { ...options, ...(maxResponseBytes !== undefined ? { maxResponseBytes } : {}) })));
    return t;
  };
}
