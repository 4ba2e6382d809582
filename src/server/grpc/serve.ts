/**
 * A gRPC server for an agent (§10): the A2AService on its own port, next to (or instead of) the HTTP
 * bindings, over the same dispatcher — the same tasks, stores, authentication and card.
 */
import {
  createSecureServer,
  createServer,
  type Http2SecureServer,
  type Http2Server,
  type Http2Session,
  type SecureServerOptions,
} from 'node:http2';
import type { AddressInfo, Socket } from 'node:net';
import { GRPC_CODES } from '../../protocol/grpc/index.js';
import { attachGrpc, detachGrpc } from '../mount/grpc-interfaces.js';
import { authOfCurrentCard, checkedAuth } from './serve-auth.js';
import type { ServerAuthOptions } from '../auth/authenticator.js';
import type { Authenticator } from '../kernel/request.js';
import { DEFAULT_MAX_BODY_BYTES } from '../kernel/limits.js';
import { PREFIX_BYTES } from './h2-wire.js';
import { streamBufferBytes } from '../kernel/stream-buffer.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { engineOf, type ServedAgent } from '../kernel/engine.js';
import type { Logger } from '../logger.js';
import type { GrpcAuth } from './options.js';
import type { H2EventWriter } from './h2-event-writer.js';
import { a2aStreamHandler } from './h2-service.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';
import { ByteBudget, processBodyBytes } from '../conn/byte-budget.js';
import { guardConnections } from '../conn/connection-guard.js';
import { watchSession } from '../conn/h2-idle.js';
import {
  DEFAULT_GRPC_CONNECTION_LIMITS,
  grpcConnectionLimits,
  type GrpcConnectionOptions,
} from '../conn/options.js';
import { A2AConfigError } from '../kernel/config-error.js';
import { wholeNumber } from '../util/check-options.js';

/** How a stream ends when the server goes away: UNAVAILABLE, which clients answer by subscribing again. */
const goAway = (w: H2EventWriter): void =>
  w.fail(
    GRPC_CODES.UNAVAILABLE,
    'The agent is shutting down; subscribe again to continue',
    'SHUTTING_DOWN',
  );

/** Options of {@link serveGrpc}; the connection limits are {@link GrpcConnectionOptions}. */
export interface GrpcServeOptions extends GrpcConnectionOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * TLS (and mTLS) settings: node's TLS options (`{ key, cert, ca, requestCert: true }`), or grpc-js's
   * `ServerCredentials.createSsl(ca, [{ private_key, cert_chain }], true)`.
   * Default: plaintext (HTTP/2 without TLS, h2c), for local use; §10.1 expects TLS in production.
   */
  credentials?: GrpcJsServerCredentials | SecureServerOptions;
  /** Enforce the card's security requirements with these per-scheme verifiers (as `createAgentServer`'s `auth`). */
  auth?: ServerAuthOptions;
  /** Or establish the caller yourself, from the call shown as an HTTP request (metadata as headers). */
  authenticate?: Authenticator;
  /** Challenge sent as `www-authenticate` metadata with UNAUTHENTICATED answers. Default: derived from the card. */
  challenge?: string;
  /** Largest accepted request message in bytes; larger ones get RESOURCE_EXHAUSTED. Default 4 MiB, as for HTTP bodies. */
  maxReceiveMessageBytes?: number;
  /**
   * Bytes one subscriber may leave unread before its stream is ended with RESOURCE_EXHAUSTED (reason
   * SLOW_READER) and, if it still has not drained 10 s later, reset. Default: the agent server's
   * `maxStreamBufferBytes` (4 MiB unless set); at least 1024.
   */
  maxStreamBufferBytes?: number;
  /** @deprecated Use `maxStreamBufferBytes`. */
  maxBufferedBytes?: number;
  /**
   * grpc-js style server options; this server reads `grpc.max_concurrent_streams` (when
   * `maxConcurrentStreams` is unset) and `grpc.max_receive_message_length` and ignores the others.
   */
  channelOptions?: Readonly<Record<string, unknown>>;
  logger?: Logger;
}

/** A running gRPC server. */
export interface GrpcServerHandle {
  /** The node:http2 server the calls arrive on (gRPC is served on it directly, without grpc-js). */
  readonly server: Http2Server | Http2SecureServer;
  readonly host: string;
  readonly port: number;
  /** `host:port`, the target a gRPC channel is opened with. */
  readonly target: string;
  /** The interface URL for a card's GRPC entry: `http://host:port`, or `https://…` with TLS. */
  readonly url: string;
  /**
   * Stop accepting calls, end open streams with UNAVAILABLE (clients subscribe again elsewhere), let
   * unary calls finish for up to `graceMs`, then cut what is left. The agents keep running: they
   * belong to the dispatcher (closing the AgentServer stops them).
   */
  close(graceMs?: number): Promise<void>;
}

/** Settings of the gRPC listener itself, whoever decides about authentication. */
export type GrpcListenOptions = Omit<GrpcServeOptions, 'auth' | 'authenticate' | 'challenge'>;

/**
 * Serve an agent server (`createAgentServer`) over gRPC: its card, tasks and stores are shared.
 * Called before the agent server's `listen()` or `prepare()`, the listener becomes the one its card is
 * built with — a card function gets its handle (`card(origin, grpc)`) and may list it — and calls wait
 * for nothing: until the card exists they are answered UNAVAILABLE. Called after, it serves the card as
 * it is. Authentication is not inherited from the AgentServer: pass the same `auth` (or
 * `authenticate`) here. When the card requires authentication and none is configured, it refuses to
 * start (card known) or to serve (card built later).
 */
export async function serveGrpc(
  target: ServedAgent,
  options: GrpcServeOptions = {},
): Promise<GrpcServerHandle> {
  const engine = engineOf(target, 'serveGrpc(target)');
  const { service } = engine;
  options = {
    ...options,
    maxStreamBufferBytes: streamBufferBytes({
      maxStreamBufferBytes: options.maxStreamBufferBytes,
      maxBufferedBytes: options.maxBufferedBytes,
      "the agent server's maxStreamBufferBytes": engine.maxStreamBufferBytes,
    }),
  };
  if (!target.prepared) {
    const current = {
      get prepared() {
        return target.prepared;
      },
      service,
    };
    const handle = await listenGrpc(service, options, authOfCurrentCard(current, options));
    attachGrpc(service, handle);
    const close = handle.close;
    return {
      ...handle,
      close(graceMs?: number) {
        detachGrpc(service, handle);
        return close(graceMs);
      },
    };
  }
  const auth = checkedAuth(service.card, options);
  return listenGrpc(service, options, () => auth);
}

/**
 * The gRPC listener over `service`; `auth` is asked on every call. For servers that bind before
 * their card exists (the card names the port), such as an agent server serving gRPC itself.
 */
export async function listenGrpc(
  service: OperationDispatcher,
  options: GrpcListenOptions,
  auth: () => GrpcAuth,
  track?: (stream: OpenStream) => Untrack,
): Promise<GrpcServerHandle> {
  const logger = options.logger ?? service.logger;
  const streams = new Set<H2EventWriter>();
  const sessions = new Set<Http2Session>();
  const channel = options.channelOptions ?? {};
  const streamsOption = channel['grpc.max_concurrent_streams'];
  const limits = grpcConnectionLimits(
    options,
    typeof streamsOption === 'number' ? streamsOption : undefined,
  );
  const receiveOption = channel['grpc.max_receive_message_length'];
  const maxReceiveMessageBytes =
    wholeNumber('maxReceiveMessageBytes', options.maxReceiveMessageBytes, 1) ??
    (typeof receiveOption === 'number' ? receiveOption : DEFAULT_MAX_BODY_BYTES);
  const pending =
    limits.maxPendingBodyBytes === undefined
      ? processBodyBytes(DEFAULT_GRPC_CONNECTION_LIMITS.maxPendingBodyBytes)
      : new ByteBudget(
          limits.maxPendingBodyBytes,
          'of unfinished request messages on this listener (maxPendingBodyBytes)',
        );
  for (const [name, budget] of [
    ['maxConnectionBodyBytes', limits.maxConnectionBodyBytes],
    ['maxPendingBodyBytes', limits.maxPendingBodyBytes],
  ] as const) {
    if (budget !== undefined && budget < maxReceiveMessageBytes + PREFIX_BYTES)
      throw new A2AConfigError(
        name,
        `${name} (${budget}) must hold at least one whole request message: maxReceiveMessageBytes (${maxReceiveMessageBytes}) + ${PREFIX_BYTES}`,
      );
  }
  /** Each connection's unfinished request bytes, inside the listener's (or the process's) pool. */
  const bodyBytes = new WeakMap<Http2Session, ByteBudget>();
  const common = {
    // As grpc-js configures its HTTP/2 server: no header-size or session-memory cap of node's own.
    maxSendHeaderBlockLength: Number.MAX_SAFE_INTEGER,
    maxSessionMemory: Number.MAX_SAFE_INTEGER,
    settings: { maxConcurrentStreams: limits.maxConcurrentStreams },
  };
  const tls = tlsOptionsOf(options.credentials);
  const server: Http2Server | Http2SecureServer = tls
    ? createSecureServer({
        ...common,
        ...(limits.prefaceTimeoutMs > 0 ? { handshakeTimeout: limits.prefaceTimeoutMs } : {}),
        ...tls,
        allowHTTP1: false,
      })
    : createServer(common);
  const maxStreamBufferBytes = streamBufferBytes({
    maxStreamBufferBytes: options.maxStreamBufferBytes,
    maxBufferedBytes: options.maxBufferedBytes,
  });
  server.on(
    'stream',
    a2aStreamHandler(service, {
      auth,
      logger,
      maxReceiveMessageBytes,
      maxStreamBufferBytes,
      bodyTimeoutMs: limits.bodyTimeoutMs,
      holdBody: (stream) => (bodyBytes.get(stream.session as Http2Session) ?? pending).hold(),
      onStream: (w) => {
        streams.add(w);
        // An agent server's registry tells every stream, SSE and gRPC alike, when it drains.
        const untrack = track?.({ transport: 'grpc', goAway: () => goAway(w) });
        w.onEnd(() => {
          streams.delete(w);
          untrack?.();
        });
      },
    }),
  );
  guardConnections(server, { maxConnections: limits.maxConnections, logger, what: 'gRPC' });
  // A call's answer is small and latency-bound: send it now rather than wait for the previous packet's ACK.
  server.on('connection', (socket: Socket) => socket.setNoDelay(true));
  server.on('session', (session: Http2Session) => {
    sessions.add(session);
    watchSession(session, limits);
    bodyBytes.set(
      session,
      new ByteBudget(
        limits.maxConnectionBodyBytes,
        'of unfinished request messages per connection (maxConnectionBodyBytes)',
        pending,
      ),
    );
    session.on('error', (err) => logger.debug({ err }, 'gRPC connection error'));
    session.once('close', () => sessions.delete(session));
  });
  server.on('tlsClientError', (err) => logger.debug({ err }, 'gRPC TLS handshake failed'));
  const host = options.host ?? '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  server.on('error', (err) => logger.error({ err }, 'gRPC server error'));
  const port = (server.address() as AddressInfo).port;
  let closing: Promise<void> | undefined;
  return {
    server,
    host,
    port,
    target: `${hostPart}:${port}`,
    url: `${tls ? 'https' : 'http'}://${hostPart}:${port}`,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          for (const s of sessions) s.destroy();
        }, graceMs);
        timer.unref();
        server.close(() => {
          clearTimeout(timer);
          resolve();
        });
        // GOAWAY: calls under way finish, new ones go elsewhere (the client reconnects and is refused).
        for (const s of sessions) s.close();
        for (const w of [...streams]) goAway(w);
      });
      return closing;
    },
  };
}

/**
 * The TLS options of `credentials`: node's own (`key`, `cert`, `ca`, `requestCert`…), or what grpc-js
 * `ServerCredentials.createSsl` holds (read the way grpc-js's server reads it). Undefined = plaintext.
 */
function tlsOptionsOf(
  credentials: GrpcServeOptions['credentials'],
): SecureServerOptions | undefined {
  if (!credentials) return undefined;
  const grpcJs = credentials as Partial<GrpcJsServerCredentials>;
  if (typeof grpcJs._isSecure === 'function') {
    if (!grpcJs._isSecure()) return undefined;
    if (
      typeof grpcJs._getConstructorOptions !== 'function' ||
      typeof grpcJs._getSecureContextOptions !== 'function'
    ) {
      throw new Error(
        'serveGrpc: these grpc-js ServerCredentials cannot be read; pass node TLS options ({ key, cert, ca, requestCert }) instead',
      );
    }
    return {
      ...grpcJs._getConstructorOptions(),
      ...grpcJs._getSecureContextOptions(),
    };
  }
  return credentials as SecureServerOptions;
}

/**
 * The parts of grpc-js's `ServerCredentials` its own server reads, and so do we. Our own type rather
 * than grpc-js's, so that this entry point's types need no `@grpc/grpc-js` installed; grpc-js's
 * credentials match it as they are.
 */
export interface GrpcJsServerCredentials {
  /** grpc-js's own: whether the credentials are TLS. */
  _isSecure(): boolean;
  /** grpc-js's own: options for the HTTP/2 server. */
  _getConstructorOptions(): object | null;
  /** grpc-js's own: the TLS context options. */
  _getSecureContextOptions(): object | null;
}
