/** Options of {@link A2AClient} and of its calls. */
import type { AgentCard, Logger } from '../protocol/index.js';
import type { Credentials } from './auth.js';
import type { CardCache } from './card-cache.js';
import type { CardTrust } from './card-verify.js';
import type { FetchLike } from './http.js';
import type { ClientInterceptor } from './interceptors.js';
import type { RetryPolicy } from './retry.js';
import type { TransportFactory } from './transport.js';

/**
 * What the client's `logger` option takes: the library's one {@link Logger} (pino-compatible), of which
 * the client calls `debug` (the interface chosen, each retry), `info` (a dropped stream being resumed)
 * and `warn` (a fallback to another interface). A method the object lacks is skipped.
 * @deprecated Use `Logger` (from `a2a-kit` or `a2a-kit/client`); this name stays for compatibility.
 */
export type ClientLogger = Partial<Logger>;

/** What the `onUnauthorized` hook learns about a rejected call. */
export interface UnauthorizedInfo {
  /** The operation that was refused, e.g. `SendMessage`. */
  operation: string;
  /** HTTP status (401) when the rejection came as one. */
  status: number | undefined;
  /** The `WWW-Authenticate` challenge, when the server sent one. */
  challenge: string | null;
  /** Names of the schemes whose credentials were sent. */
  schemes: string[];
  /** The card in use, whose `securitySchemes` say what the agent accepts. */
  card: AgentCard;
}

/**
 * Called once when a call is rejected as unauthenticated. Return new credentials (they replace the
 * old ones), `true` or nothing to retry with the current ones (a credentials function will be asked
 * again), or `false` to give up. The call is retried at most once.
 */
export type UnauthorizedHook = (
  info: UnauthorizedInfo,
) => Credentials | boolean | void | Promise<Credentials | boolean | void>;

/** Stream resumption after a dropped connection. */
export interface ResumeOptions {
  /** Reconnections allowed over the life of one stream. Default 5. */
  maxRetries?: number;
  /** First delay before reconnecting; doubles each time (with jitter). Default 250 ms. */
  baseDelayMs?: number;
  /** Largest delay between reconnections. Default 5000 ms. */
  maxDelayMs?: number;
}

/**
 * How an {@link A2AClient} talks to its agent. Every field is optional; the defaults suit an agent
 * on the public internet (60 s timeouts, retries of read-only calls, resumed streams).
 */
export interface A2AClientOptions {
  /** fetch to use (a proxy, an mTLS dispatcher, a test double); default the global one. */
  fetch?: FetchLike;
  /** Bindings this client may use, in no particular order (the card's order decides). */
  bindings?: readonly string[];
  /** Extra bindings (e.g. gRPC) by `protocolBinding` name; they become acceptable automatically. */
  transports?: Readonly<Record<string, TransportFactory>>;
  /**
   * Protocol versions (Major.Minor) this client may speak, in no particular order: the card's order
   * decides (§8.3.2). Default `['1.0']`; `['1.0', '0.3']` also talks to A2A 0.3 agents, over JSON-RPC
   * and HTTP+JSON, with the same 1.0 results, events and errors. A client that does not allow 0.3 never
   * falls back to it (§3.6.3): an agent that speaks only 0.3 is refused with an error that says so.
   */
  versions?: readonly string[];
  /**
   * When the chosen interface cannot be reached at all (connection refused, unknown host, or no A2A
   * endpoint at its URL), move on to the next compatible `supportedInterfaces` entry (§5.2).
   * Default true. Never used once the agent may have seen the request.
   */
  fallback?: boolean;
  /** Credentials for this agent, applied per the card's security schemes and requirements. */
  credentials?: Credentials;
  /**
   * Keys trusted to sign agent cards (§8.4). `connect` checks the public card with them; the extended
   * card from {@link A2AClient.getExtendedAgentCard} is checked with them before it replaces the card.
   */
  trust?: CardTrust;
  /** Refresh credentials after a 401 and retry once. */
  onUnauthorized?: UnauthorizedHook;
  /** Headers added to every request (after A2A's own, before credentials). */
  headers?: Readonly<Record<string, string>>;
  /** Extensions to activate on every request (`A2A-Extensions`). */
  extensions?: readonly string[];
  /** Per-call timeout in ms (unary calls: the whole call with retries; streams: until the first event). Default 60 s. */
  timeoutMs?: number;
  /** Retries for read-only operations; `false` disables them. */
  retry?: Partial<RetryPolicy> | false;
  /** Also retry SendMessage on network errors / 502-504. Off by default: the agent might do the work twice. */
  retrySend?: boolean;
  /** Stream resumption after a dropped connection; `false` disables it. */
  resume?: ResumeOptions | false;
  /** Cap on a response body. Default 10 MiB. */
  maxResponseBytes?: number;
  /** Cap on one stream event. Default 4 MiB. */
  maxEventBytes?: number;
  /**
   * Silence (no bytes, keep-alive comments included) after which an open stream counts as dropped
   * and is resumed. Set it above the agent's keep-alive interval. Default: none.
   */
  streamIdleTimeoutMs?: number;
  /**
   * Where the client says what it decided (interface chosen, retries, fallbacks, resumes): a pino logger
   * or any {@link Logger}; methods it lacks are skipped. Default: silent.
   */
  logger?: Partial<Logger>;
  /**
   * Cross-cutting concerns (logging, tracing, metrics, auth refresh, rate limits) run around every
   * request: `before` in this order, `after` in reverse. Every attempt passes through separately —
   * retries, the retry after `onUnauthorized`, fallbacks and each reconnection of a resumed stream.
   * See {@link ClientInterceptor}.
   */
  interceptors?: readonly ClientInterceptor[];
}

/** Extra options for {@link A2AClient.connect}: how to fetch the card. */
export interface ConnectOptions extends A2AClientOptions {
  /** Card cache; `false` disables caching. Default: the process-wide cache. */
  cache?: CardCache | false;
  /** A further check of the card before it is used. Throw to reject. */
  verifyCard?: (card: AgentCard) => void | Promise<void>;
  /** Timeout for the card fetch. Default 10 s. */
  cardTimeoutMs?: number;
  /** Aborts the card fetch. */
  signal?: AbortSignal;
}

/** Options of a single call. */
export interface CallOptions {
  /** Aborts the call; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Overrides the client's timeout for this call. */
  timeoutMs?: number;
  /** Extensions to activate for this call, in addition to the client's. */
  extensions?: readonly string[];
  /** Headers for this call only. */
  headers?: Readonly<Record<string, string>>;
}

/** Options of a streaming call. */
export interface StreamOptions extends CallOptions {
  /** Resume from this event id (`Last-Event-ID`), e.g. one remembered from an earlier stream. */
  lastEventId?: string;
  /** Told the id of every event received, e.g. to persist it for a later resume. */
  onEventId?: (id: string) => void;
}
