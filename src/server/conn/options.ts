/**
 * Connection limits of the listeners a2a-kit opens: `listen()`'s HTTP/1.1 servers and the gRPC
 * (HTTP/2) listener of `serveGrpc` or the `grpc` option. Every value is checked when the listener
 * starts; a wrong one is an A2AConfigError naming the option.
 */
import { wholeNumber } from '../util/check-options.js';

/** Connection limits of the HTTP/1.1 servers `listen()` opens (timeouts: {@link HttpTimeoutOptions}). */
export interface HttpConnectionOptions {
  /**
   * Most connections one server holds at once; one more is closed as soon as it is accepted, the
   * others are served as before. Whatever is set, all listeners of the process together stay within
   * a budget derived from its open-files limit (the soft `nofile` minus a quarter, at least 64, kept
   * for everything else; 1,024 where the limit cannot be read). Default: that budget alone.
   */
  maxConnections?: number;
}

/** Connection limits of a gRPC listener (HTTP/2). Times are in milliseconds; 0 turns a time limit off. */
export interface GrpcConnectionOptions {
  /** Most connections this listener holds at once, as {@link HttpConnectionOptions.maxConnections}. Default: the process's budget alone. */
  maxConnections?: number;
  /** A connection with no open call this long is told GOAWAY and closed (PINGs do not count). Default 30 000. */
  idleTimeoutMs?: number;
  /** Time a new connection has to send the HTTP/2 connection preface (and to finish the TLS handshake). Default 10 000. */
  prefaceTimeoutMs?: number;
  /** Calls one connection may have open at once (SETTINGS_MAX_CONCURRENT_STREAMS). Default 100. */
  maxConcurrentStreams?: number;
  /** Time a call has to send its whole request message; past it the call ends with DEADLINE_EXCEEDED. Default 30 000. */
  bodyTimeoutMs?: number;
  /** Bytes of unfinished request messages one connection may hold; past it a call gets RESOURCE_EXHAUSTED. Default 16 MiB. */
  maxConnectionBodyBytes?: number;
  /**
   * Bytes of unfinished request messages held at once by all connections; past it a call gets
   * RESOURCE_EXHAUSTED. Default: 256 MiB shared by every gRPC listener of the process that leaves it
   * unset; set, this listener has a pool of its own.
   */
  maxPendingBodyBytes?: number;
}

/** The defaults of {@link GrpcConnectionOptions} (`maxConnections` and the shared pool aside). */
export const DEFAULT_GRPC_CONNECTION_LIMITS = Object.freeze({
  idleTimeoutMs: 30_000,
  prefaceTimeoutMs: 10_000,
  maxConcurrentStreams: 100,
  bodyTimeoutMs: 30_000,
  maxConnectionBodyBytes: 16 * 1024 * 1024,
  maxPendingBodyBytes: 256 * 1024 * 1024,
});

/** {@link GrpcConnectionOptions} checked, with defaults; `maxPendingBodyBytes` stays undefined for the shared pool. */
export interface GrpcConnectionLimits extends Omit<
  Required<GrpcConnectionOptions>,
  'maxConnections' | 'maxPendingBodyBytes'
> {
  maxConnections: number | undefined;
  maxPendingBodyBytes: number | undefined;
}

/** Check `o`; `streamsFallback` is grpc-js's `grpc.max_concurrent_streams` when the option is unset. */
export function grpcConnectionLimits(
  o: GrpcConnectionOptions,
  streamsFallback?: number,
): GrpcConnectionLimits {
  const d = DEFAULT_GRPC_CONNECTION_LIMITS;
  return {
    maxConnections: wholeNumber('maxConnections', o.maxConnections, 1),
    idleTimeoutMs: wholeNumber('idleTimeoutMs', o.idleTimeoutMs, 0) ?? d.idleTimeoutMs,
    prefaceTimeoutMs: wholeNumber('prefaceTimeoutMs', o.prefaceTimeoutMs, 0) ?? d.prefaceTimeoutMs,
    maxConcurrentStreams:
      wholeNumber('maxConcurrentStreams', o.maxConcurrentStreams, 1) ??
      wholeNumber('grpc.max_concurrent_streams', streamsFallback, 1) ??
      d.maxConcurrentStreams,
    bodyTimeoutMs: wholeNumber('bodyTimeoutMs', o.bodyTimeoutMs, 0) ?? d.bodyTimeoutMs,
    maxConnectionBodyBytes:
      wholeNumber('maxConnectionBodyBytes', o.maxConnectionBodyBytes, 1) ??
      d.maxConnectionBodyBytes,
    maxPendingBodyBytes: wholeNumber('maxPendingBodyBytes', o.maxPendingBodyBytes, 1),
  };
}
