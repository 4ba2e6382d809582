/**
 * Turns one operation into one request on the chosen transport: headers, credentials, the
 * deadline, the interceptors, the check of the answer, and the single retry after the
 * `onUnauthorized` hook refreshed credentials. Internal: not exported from the package.
 */
import {
  BINDINGS,
  isA2AError,
  type AgentCard,
  type Logger,
  type OperationName,
} from '../protocol/index.js';
import { applyCredentials, type AppliedAuth, type Credentials } from './auth.js';
import { A2AClientError } from './errors.js';
import { callSignal, toClientError } from './http.js';
import {
  interceptedCall,
  interceptedStream,
  type ClientInterceptor,
  type InterceptedRequest,
} from './interceptors.js';
import { JsonRpcTransport } from './jsonrpc-transport.js';
import { JsonRpcV03Transport } from './compat/jsonrpc-transport.js';
import { RestV03Transport } from './compat/rest-transport.js';
import type { A2AClientOptions, CallOptions, StreamOptions } from './options.js';
import { RestTransport } from './rest-transport.js';
import type { SelectedInterface } from './select-interface.js';
import { checkResult } from './results.js';
import type {
  HttpTransportOptions,
  StreamEvent,
  Transport,
  TransportFactory,
} from './transport.js';
import { httpFailureOf } from './wire.js';

const BUILT_IN: Readonly<Record<string, TransportFactory>> = {
  [BINDINGS.JSONRPC]: (url, o) => new JsonRpcTransport(url, o),
  [BINDINGS.HTTP_JSON]: (url, o) => new RestTransport(url, o),
};

/** The transports of A2A 0.3 interfaces (chosen only when the client allows 0.3: `versions`). */
const BUILT_IN_V03: Readonly<Record<string, TransportFactory>> = {
  [BINDINGS.JSONRPC]: (url, o) => new JsonRpcV03Transport(url, o),
  [BINDINGS.HTTP_JSON]: (url, o) => new RestV03Transport(url, o),
};

/** The factories that speak `version`: the client's own (those declaring it) and the built-in ones. */
function factoriesFor(
  version: string,
  custom: Readonly<Record<string, TransportFactory>> | undefined,
): Record<string, TransportFactory> {
  const own = Object.fromEntries(
    Object.entries(custom ?? {}).filter(([, f]) =>
      (f.protocolVersions ?? ['1.0']).includes(version),
    ),
  );
  return version === '0.3' ? { ...own, ...BUILT_IN_V03 } : { ...BUILT_IN, ...own };
}

/**
 * Whether a client with `transports` can speak `binding` at `version`: the selection skips card
 * entries it cannot (a GRPC 0.3 entry to a gRPC transport that speaks 1.0 would fail every call).
 */
export function transportsSpeak(
  transports: Readonly<Record<string, TransportFactory>> | undefined,
): (binding: string, version: string) => boolean {
  return (binding, version) =>
    Object.keys(factoriesFor(version, transports)).some((name) => name.toUpperCase() === binding);
}

/** Timeout of a call when neither the client nor the call sets one. */
export const DEFAULT_TIMEOUT_MS = 60_000;

/** Issues the requests of one {@link A2AClient} on the transport of its current interface. */
export class Invoker {
  private current: Transport;
  /** The interface URL, as the card spells it (error messages). */
  private url: string;
  /** Undefined when none are installed, so the plain path allocates nothing for them. */
  private readonly interceptors: readonly ClientInterceptor[] | undefined;
  private credentials: Credentials | undefined;
  private readonly options: A2AClientOptions;
  private readonly card: () => AgentCard;
  private readonly logger: Partial<Logger> | undefined;

  constructor(iface: SelectedInterface, options: A2AClientOptions, card: () => AgentCard) {
    this.options = options;
    this.card = card;
    this.credentials = options.credentials;
    this.logger = options.logger;
    this.interceptors =
      options.interceptors && options.interceptors.length > 0
        ? [...options.interceptors]
        : undefined;
    this.current = this.transportFor(iface);
    this.url = iface.url;
  }

  /** The transport requests go through now. */
  get transport(): Transport {
    return this.current;
  }

  /** Switches to another interface of the same agent (fallback, §5.2). */
  use(iface: SelectedInterface): void {
    this.current = this.transportFor(iface);
    this.url = iface.url;
  }

  private transportFor(iface: SelectedInterface): Transport {
    const options = this.options;
    const factories = factoriesFor(iface.protocolVersion, options.transports);
    const factory = Object.entries(factories).find(
      ([name]) => name.toUpperCase() === iface.binding.toUpperCase(),
    )?.[1];
    if (!factory) {
      throw new A2AClientError(
        'NO_COMPATIBLE_INTERFACE',
        `No transport for binding ${iface.binding}; pass one in options.transports`,
      );
    }
    const httpOptions: HttpTransportOptions = {
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.maxResponseBytes !== undefined
        ? { maxResponseBytes: options.maxResponseBytes }
        : {}),
      ...(options.maxEventBytes !== undefined ? { maxEventBytes: options.maxEventBytes } : {}),
      ...(options.streamIdleTimeoutMs !== undefined
        ? { streamIdleTimeoutMs: options.streamIdleTimeoutMs }
        : {}),
      protocolVersion: iface.protocolVersion,
    };
    return factory(iface.url, httpOptions);
  }

  /** Logs through the client's logger, if it has one at that level. */
  log(level: 'debug' | 'info' | 'warn', obj: object, msg: string): void {
    this.logger?.[level]?.(obj, msg);
  }

  private timeoutOf(options: CallOptions): number {
    return options.timeoutMs ?? this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  }

  /** Runs `fn` under the caller's signal and the call's timeout; timeouts become `TIMEOUT` errors. */
  async withDeadline<T>(
    operation: OperationName,
    options: CallOptions,
    fn: (signal: AbortSignal | undefined) => Promise<T>,
  ): Promise<T> {
    const timeoutMs = this.timeoutOf(options);
    const limit = callSignal(options.signal, timeoutMs);
    try {
      return await fn(limit.signal);
    } catch (err) {
      throw toClientError(err, operation, this.transport.url, timeoutMs);
    } finally {
      limit.clear();
    }
  }

  /** One unary request with its answer checked, retried once with refreshed credentials after a 401. */
  async call(
    operation: OperationName,
    body: object,
    options: CallOptions,
    signal: AbortSignal | undefined,
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const auth = await applyCredentials(this.card(), this.credentials);
      const req = this.request(options, auth, signal, undefined);
      try {
        const list = this.interceptors;
        if (list)
          return await interceptedCall(list, this.transport, operation, body, req, this.url);
        // Awaited here, so that a card's failed check (a promise) is caught like the others.
        return await checkResult(
          operation,
          await this.transport.call(operation, body, req),
          this.url,
        );
      } catch (err) {
        if (attempt > 0 || !(await this.refreshAfter(err, operation, auth))) throw err;
      }
    }
  }

  /**
   * One streaming request. The timeout covers the wait for the first event only: a healthy
   * stream may legitimately stay open far longer than any unary call.
   */
  async *stream(
    operation: OperationName,
    body: object,
    options: StreamOptions,
    lastEventId: string | undefined,
  ): AsyncGenerator<StreamEvent> {
    const timeoutMs = this.timeoutOf(options);
    for (let attempt = 0; ; attempt++) {
      const auth = await applyCredentials(this.card(), this.credentials);
      const firstEvent = new AbortController();
      const timer = setTimeout(
        () => firstEvent.abort(new DOMException(`${operation} timed out`, 'TimeoutError')),
        timeoutMs,
      );
      const signal = options.signal
        ? AbortSignal.any([options.signal, firstEvent.signal])
        : firstEvent.signal;
      let received = false;
      try {
        const req = this.request(options, auth, signal, lastEventId);
        const list = this.interceptors;
        const events = list
          ? interceptedStream(list, this.transport, operation, body, req)
          : this.transport.stream(operation, body, req);
        for await (const ev of events) {
          if (!received) {
            received = true;
            clearTimeout(timer);
          }
          yield ev;
        }
        return;
      } catch (err) {
        if (received || attempt > 0 || !(await this.refreshAfter(err, operation, auth))) {
          throw toClientError(err, operation, this.transport.url, timeoutMs);
        }
      } finally {
        clearTimeout(timer);
      }
    }
  }

  private request(
    options: CallOptions,
    auth: AppliedAuth,
    signal: AbortSignal | undefined,
    lastEventId: string | undefined,
  ): InterceptedRequest {
    const extensions = [...(this.options.extensions ?? []), ...(options.extensions ?? [])];
    return {
      signal,
      headers: { ...this.options.headers, ...auth.headers, ...options.headers },
      query: auth.query,
      extensions: [...new Set(extensions)],
      lastEventId,
      timeoutMs: this.timeoutOf(options),
    };
  }

  /** Asks the hook for fresh credentials after an authentication failure; true means "retry". */
  private async refreshAfter(
    err: unknown,
    operation: OperationName,
    auth: AppliedAuth,
  ): Promise<boolean> {
    const hook = this.options.onUnauthorized;
    if (!hook || !isA2AError(err) || err.kind !== 'Unauthenticated') return false;
    const http = httpFailureOf(err);
    const answer = await hook({
      operation,
      status: http?.status,
      challenge: http?.wwwAuthenticate ?? null,
      schemes: auth.schemes,
      card: this.card(),
    });
    if (answer === false) return false;
    if (answer !== undefined && answer !== true) this.credentials = answer;
    this.log('debug', { operation }, 'retrying once after refreshing credentials');
    return true;
  }
}
