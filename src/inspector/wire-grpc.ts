/**
 * The wire view's recorder for gRPC: the library's gRPC transport (`a2a-kit/client/grpc`) speaks
 * HTTP/2 and protobuf itself, below any `fetch`, so each call is recorded at the transport seam
 * instead — the method, the metadata sent, and the messages decoded to ProtoJSON (the request, then
 * the answer or each stream event), with the gRPC status it ended on.
 */
import {
  isA2AClientError,
  isA2AError,
  type OperationName,
  type StreamEvent,
  type Transport,
  type TransportFactory,
  type TransportRequest,
} from 'a2a-kit/client';
import { GrpcTransport } from 'a2a-kit/client/grpc';
import { grpcurlCommand, type Masker } from './mask.js';
import type { WireExchange, WireLog } from './wire.js';
import type { WireTap } from './wire-tap.js';

/** The A2A gRPC service (§10.3), as method paths name it. */
const SERVICE = 'lf.a2a.v1.A2AService';

/** The status a failed call ended on, by name: the agent's (`NOT_FOUND`, …) or this side's. */
function statusOf(err: unknown): string {
  if (isA2AError(err)) return err.spec.grpcStatus;
  if (isA2AClientError(err)) return err.code === 'TIMEOUT' ? 'DEADLINE_EXCEEDED' : err.code;
  return 'CANCELLED';
}

/** `host:port` and whether TLS is asked for, from an interface URL (`http://h:1`, `grpcs://h:1`, `h:1`). */
function target(url: string): { target: string; tls: boolean } {
  try {
    const u = new URL(url);
    if (u.host !== '') return { target: u.host, tls: /^(https|grpcs):$/.test(u.protocol) };
  } catch {
    // A bare host:port is not a URL: dialled as it is, in plaintext.
  }
  return { target: url, tls: false };
}

/** A transport that records each call of `inner` into the session's wire log. */
class RecordingTransport implements Transport {
  readonly binding = 'GRPC';

  constructor(
    private readonly inner: GrpcTransport,
    private readonly tap: WireTap,
    private readonly log: WireLog,
    private readonly masker: Masker,
  ) {}

  get url(): string {
    return this.inner.url;
  }

  #open(operation: OperationName, params: object, req: TransportRequest): WireExchange {
    const { id, facts } = this.tap.claim(req.headers);
    const metadata: Array<[string, string]> = [['a2a-version', '1.0']];
    if (req.extensions?.length) metadata.push(['a2a-extensions', req.extensions.join(',')]);
    for (const source of [req.query, req.headers])
      for (const [k, v] of Object.entries(source ?? {}))
        metadata.push([k.toLowerCase(), this.masker.header(k, v)]);
    const body = this.masker.text(JSON.stringify(params));
    const method = `${SERVICE}/${operation}`;
    const dial = target(this.inner.url);
    const entry = this.log.open(
      {
        at: new Date().toISOString(),
        operation,
        binding: 'GRPC',
        streaming: facts.streaming,
        method: 'gRPC',
        url: `${this.masker.url(this.inner.url)} /${method}`,
        requestHeaders: metadata,
        requestBody: body,
        curl: grpcurlCommand({ ...dial, method, metadata, body }),
      },
      id,
    );
    entry.state = 'open';
    this.log.changed(entry);
    return entry;
  }

  #ended(entry: WireExchange, status: string): void {
    entry.grpcStatus = status;
    this.log.changed(entry);
  }

  async call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown> {
    const entry = this.#open(operation, params, req);
    try {
      const result = await this.inner.call(operation, params, req);
      this.log.append(entry, this.masker.text(JSON.stringify(result)));
      this.#ended(entry, 'OK');
      return result;
    } catch (err) {
      this.#ended(entry, statusOf(err));
      throw err;
    }
  }

  async *stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent> {
    const entry = this.#open(operation, params, req);
    let status = 'CANCELLED';
    try {
      for await (const event of this.inner.stream(operation, params, req)) {
        // One decoded StreamResponse per line, as the SSE view shows one event per block.
        this.log.append(entry, `${this.masker.text(JSON.stringify(event.data))}\n`);
        yield event;
      }
      status = 'OK';
    } catch (err) {
      status = statusOf(err);
      throw err;
    } finally {
      this.#ended(entry, status);
    }
  }
}

/**
 * The gRPC transports of one agent in a session, recorded: one connection per interface URL, closed
 * with {@link GrpcRecorder.close} when the session lets the agent go.
 */
export class GrpcRecorder {
  readonly #transports = new Map<string, GrpcTransport>();

  constructor(
    private readonly tap: WireTap,
    private readonly log: WireLog,
    private readonly masker: Masker,
    private readonly maxResponseBytes: number,
  ) {}

  /** For the client's `transports: { GRPC: … }` option. */
  readonly factory: TransportFactory = (url) => {
    let inner = this.#transports.get(url);
    if (!inner) {
      inner = new GrpcTransport(url, { maxResponseBytes: this.maxResponseBytes });
      this.#transports.set(url, inner);
    }
    return new RecordingTransport(inner, this.tap, this.log, this.masker);
  };

  /** Closes every connection (calls still running end). */
  close(): void {
    for (const t of this.#transports.values()) t.close();
    this.#transports.clear();
  }
}
