/**
 * A gRPC server for an agent (§10): the A2AService on its own port, next to (or instead of) the HTTP
 * bindings, over the same dispatcher — the same tasks, stores, authentication and card.
 */
import { Server, ServerCredentials, status as Status, type ChannelOptions } from '@grpc/grpc-js';
import { serverAuthOptions, type ServerAuthOptions } from '../auth/authenticator.js';
import type { Authenticator } from '../bindings/common.js';
import { DEFAULT_MAX_BODY_BYTES } from '../bindings/http-util.js';
import { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { Logger } from '../logger.js';
import type { GrpcEventWriter } from './event-writer.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';
import { A2A_SERVICE_DEFINITION, grpcHandlers, type GrpcAuth } from './handlers.js';

/** How a stream ends when the server goes away: UNAVAILABLE, which clients answer by subscribing again. */
const GOING_AWAY = { code: Status.UNAVAILABLE, details: 'The agent is shutting down; subscribe again to continue' };

/** Options of {@link serveGrpc}. */
export interface GrpcServeOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default `127.0.0.1`. */
  host?: string;
  /**
   * TLS (and mTLS) settings, e.g. `ServerCredentials.createSsl(ca, [{ private_key, cert_chain }], true)`.
   * Default: plaintext (HTTP/2 without TLS), for local use; §10.1 expects TLS in production.
   */
  credentials?: ServerCredentials;
  /** Enforce the card's security requirements with these per-scheme verifiers (as `createAgentServer`'s `auth`). */
  auth?: ServerAuthOptions;
  /** Or establish the caller yourself, from the call shown as an HTTP request (metadata as headers). */
  authenticate?: Authenticator;
  /** Challenge sent as `www-authenticate` metadata with UNAUTHENTICATED answers. Default: derived from the card. */
  challenge?: string;
  /** Largest accepted request message in bytes; larger ones get RESOURCE_EXHAUSTED. Default 4 MiB, as for HTTP bodies. */
  maxReceiveMessageBytes?: number;
  /** Bytes a slow reader may leave unsent on one stream before that stream is ended. Default 8 MiB. */
  maxBufferedBytes?: number;
  /** Further grpc-js server options (keepalive, concurrency limits…). */
  channelOptions?: ChannelOptions;
  logger?: Logger;
}

/** A running gRPC server. */
export interface GrpcServerHandle {
  /** The grpc-js server (add services of your own, read channelz…). */
  readonly server: Server;
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
 * What {@link serveGrpc} needs of an agent server: its dispatcher, once its card exists. Structural, so
 * that this module does not import the agent server, which loads this one on demand (`grpc` option).
 */
export interface PreparedServer {
  readonly prepared: boolean;
  readonly service: OperationDispatcher;
}

/**
 * Serve `target` over gRPC. Give an agent server (`createAgentServer`) after `listen()`/`prepare()` (its card,
 * tasks and stores are shared) or an {@link OperationDispatcher}. Authentication is not inherited
 * from the AgentServer: pass the same `auth` (or `authenticate`) here. Refuses to start when the
 * card requires authentication and none is configured, rather than serving everyone.
 */
export async function serveGrpc(target: PreparedServer | OperationDispatcher, options: GrpcServeOptions = {}): Promise<GrpcServerHandle> {
  if (!(target instanceof OperationDispatcher) && !target.prepared) {
    throw new Error('serveGrpc: the AgentServer has no card yet; call listen() or prepare() first');
  }
  const service = target instanceof OperationDispatcher ? target : target.service;
  const card = service.card;
  const auth: GrpcAuth = serverAuthOptions(card, options);
  const required = (card.securityRequirements ?? []).length > 0 && (card.securityRequirements ?? []).every((r) => Object.keys(r.schemes ?? {}).length > 0);
  if (required && !auth.authenticate) {
    throw new Error('serveGrpc: the card requires authentication (securityRequirements) but neither `auth` nor `authenticate` was given');
  }
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
  const streams = new Set<GrpcEventWriter>();
  const server = new Server({
    'grpc.max_receive_message_length': options.maxReceiveMessageBytes ?? DEFAULT_MAX_BODY_BYTES,
    ...options.channelOptions,
  });
  server.addService(
    A2A_SERVICE_DEFINITION,
    grpcHandlers(service, {
      auth,
      logger,
      maxBufferedBytes: options.maxBufferedBytes,
      onStream: (w) => {
        streams.add(w);
        // An agent server's registry tells every stream, SSE and gRPC alike, when it drains.
        const untrack = track?.({ transport: 'grpc', goAway: () => w.fail(GOING_AWAY) });
        w.onEnd(() => {
          streams.delete(w);
          untrack?.();
        });
      },
    }),
  );
  const host = options.host ?? '127.0.0.1';
  const hostPart = host.includes(':') ? `[${host}]` : host;
  const credentials = options.credentials ?? ServerCredentials.createInsecure();
  const port = await new Promise<number>((resolve, reject) => {
    server.bindAsync(`${hostPart}:${options.port ?? 0}`, credentials, (err, bound) => (err ? reject(err) : resolve(bound)));
  });
  const tls = credentials._isSecure();
  let closing: Promise<void> | undefined;
  return {
    server,
    host,
    port,
    target: `${hostPart}:${port}`,
    url: `${tls ? 'https' : 'http'}://${hostPart}:${port}`,
    close(graceMs = 5000) {
      closing ??= new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.forceShutdown(), graceMs);
        timer.unref();
        server.tryShutdown(() => {
          clearTimeout(timer);
          resolve();
        });
        for (const w of [...streams]) w.fail(GOING_AWAY);
      });
      return closing;
    },
  };
}
