/**
 * The gRPC settings and handle as `createAgentServer` shows them, free of grpc-js types: an application
 * that never serves gRPC type-checks without `@grpc/grpc-js` installed.
 */
import type { Logger } from '../logger.js';
import type { CallAuth } from '../kernel/request.js';
import type { GrpcConnectionOptions } from '../conn/options.js';

/** How callers are authenticated: the authenticator and challenge an agent server derives from its card. */
export type GrpcAuth = CallAuth;

/**
 * The `grpc` option of `createAgentServer`: serve gRPC on its own port next to HTTP (served on
 * node:http2; no dependency), with the connection limits of {@link GrpcConnectionOptions}.
 */
export interface AgentGrpcOptions extends GrpcConnectionOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to listen on. Default: the host `listen` was given. */
  host?: string;
  /** TLS (and mTLS): node TLS options or grpc-js `ServerCredentials`. Default: plaintext (h2c), for local use. */
  credentials?: unknown;
  /** Largest accepted request message in bytes. Default 4 MiB. */
  maxReceiveMessageBytes?: number;
  /**
   * Bytes a slow reader may leave unsent on one stream before that stream is ended.
   * @deprecated Use the server's `maxStreamBufferBytes` (one bound for SSE and gRPC; default 4 MiB).
   */
  maxBufferedBytes?: number;
  /** grpc-js style options; `grpc.max_concurrent_streams` (when `maxConcurrentStreams` is unset) and `grpc.max_receive_message_length` are read. */
  channelOptions?: Readonly<Record<string, unknown>>;
  logger?: Logger;
}

/** The running gRPC listener of an agent server: where it is, for the card's GRPC entry. */
export interface AgentGrpcHandle {
  readonly host: string;
  readonly port: number;
  /** `host:port`, the target a gRPC channel is opened with. */
  readonly target: string;
  /** The interface URL for a card's GRPC entry: `http://host:port`, or `https://…` with TLS. */
  readonly url: string;
  /** Stop accepting calls and drain for up to `graceMs`. */
  close(graceMs?: number): Promise<void>;
}
