/**
 * What every HTTP transport (JSON-RPC and HTTP+JSON, 1.0 and 0.3) does the same way: the fetch and
 * the size and idle limits it was given, reading a body within its limit, refusing an answer that
 * should have been an event stream and is not, and reading a stream's events.
 */
import type { OperationName } from '../protocol/index.js';
import { A2AClientError } from './errors.js';
import {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  readText,
  toClientError,
  type FetchLike,
} from './http.js';
import { isEventStream, readSse, type SseEvent } from './sse.js';
import type {
  HttpTransportOptions,
  StreamEvent,
  Transport,
  TransportRequest,
} from './transport.js';
import { authFailure } from './wire.js';

/** The plumbing shared by the HTTP transports; each binding says how a request and its answer look. */
export abstract class HttpTransport implements Transport {
  abstract readonly binding: string;
  readonly url: string;
  protected readonly fetch: FetchLike;
  private readonly maxResponseBytes: number;
  private readonly maxEventBytes: number;
  private readonly idleTimeoutMs: number | undefined;

  constructor(url: string, options: HttpTransportOptions) {
    this.url = url;
    this.fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
    this.maxResponseBytes = options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES;
    this.maxEventBytes = options.maxEventBytes ?? DEFAULT_MAX_EVENT_BYTES;
    this.idleTimeoutMs = options.streamIdleTimeoutMs;
  }

  abstract call(operation: OperationName, params: object, req: TransportRequest): Promise<unknown>;
  abstract stream(
    operation: OperationName,
    params: object,
    req: TransportRequest,
  ): AsyncGenerator<StreamEvent>;

  /** The whole body as text, within the response limit; a failure to read it names the URL. */
  protected async read(res: Response, operation: OperationName): Promise<string> {
    try {
      return await readText(res, this.maxResponseBytes, operation);
    } catch (err) {
      throw toClientError(err, operation, this.url);
    }
  }

  /**
   * For an answer that should be an event stream: a failed answer becomes the binding's error
   * (`failure`), any other answer that is not a stream a BAD_RESPONSE naming what came instead.
   */
  protected async expectStream(
    res: Response,
    operation: OperationName,
    url: string,
    failure: (text: string) => Error,
  ): Promise<void> {
    if (res.ok && isEventStream(res)) return;
    const text = await this.read(res, operation);
    if (!res.ok) throw failure(text);
    throw this.notAStream(res, operation, url);
  }

  /**
   * A 401/403 or 404/405 that carries no A2A error is not the agent speaking: the credentials were
   * refused in front of it, or the URL is not its interface (`wrongUrl` says so, after the operation).
   */
  protected notTheAgent(
    res: Response,
    operation: OperationName,
    wrongUrl: string,
  ): Error | undefined {
    if (res.status === 401 || res.status === 403) return authFailure(res, operation, this.url);
    if (res.status === 404 || res.status === 405)
      return new A2AClientError('BAD_RESPONSE', `${operation}: ${wrongUrl}`, {
        status: res.status,
      });
    return undefined;
  }

  /** A BAD_RESPONSE for a stream request answered with something else. */
  protected notAStream(res: Response, operation: OperationName, url: string): A2AClientError {
    return new A2AClientError(
      'BAD_RESPONSE',
      `${operation}: expected an event stream from ${url}, got ${res.headers.get('content-type') ?? 'no content type'}`,
    );
  }

  /** A failed answer's body as JSON; undefined when it is empty or not JSON. */
  protected static lenientJson(text: string): unknown {
    try {
      return text.trim() === '' ? undefined : JSON.parse(text);
    } catch {
      return undefined;
    }
  }

  /** The stream's events that carry data, within the event size and idle limits. */
  protected async *events(
    res: Response,
    operation: OperationName,
    url: string,
  ): AsyncGenerator<SseEvent> {
    for await (const ev of readSse(res, {
      maxEventBytes: this.maxEventBytes,
      what: operation,
      url,
      idleTimeoutMs: this.idleTimeoutMs,
    })) {
      if (ev.data.trim() !== '') yield ev;
    }
  }
}
