/**
 * One gRPC call as the client makes it on an HTTP/2 stream: the request headers (metadata) and one
 * length-prefixed message out; length-prefixed messages and the status (trailers, or a trailers-only
 * answer) back. What can go wrong on the way — no connection, a broken one, a passed deadline, an
 * answer over the size limit, bytes that are not gRPC — is an {@link A2AClientError}; a status, even
 * an error status, is the agent's answer and is handed back as it came.
 */
import {
  constants,
  type ClientHttp2Stream,
  type IncomingHttpHeaders,
  type OutgoingHttpHeaders,
} from 'node:http2';
import { grpcMessageText } from '../../protocol/grpc/index.js';
import { A2AClientError, causeCode, reachHint, unreachedCode } from '../errors.js';
import { UNAVAILABLE_STATUSES } from '../http.js';
import type { H2Channel } from './channel.js';

/** The status a call ended with, and the metadata that came with it (trailers, or the headers of a trailers-only answer). */
export interface GrpcStatus {
  code: number;
  message: string;
  metadata: IncomingHttpHeaders;
}

/** What a call needs besides its channel. */
export interface GrpcCallOptions {
  /** Method path and metadata (the pseudo-headers and `content-type` are added here). */
  path: string;
  metadata: OutgoingHttpHeaders;
  /** The request message, with its 5-byte prefix. */
  body: Buffer;
  /** Largest accepted answer message. */
  maxMessageBytes: number;
  /** Deadline (sent as `grpc-timeout` and kept here too). */
  timeoutMs?: number | undefined;
  signal?: AbortSignal | undefined;
  /** Told of every whole message of the answer, in order. */
  onMessage(message: Buffer): void;
  /** For error texts: the operation and the interface URL. */
  what: string;
  url: string;
}

const PREFIX = 5;
/**
 * How long a reset call may take to close before its connection is taken for wedged and dropped. A
 * peer that stops in the middle of a header block (a status too large to finish, issue 28) leaves
 * the connection unable to carry anything, the reset included: without this the call never settled,
 * deadline or not.
 */
const CANCEL_GRACE_MS = 1000;

/** The gRPC code an HTTP status stands for when no grpc-status came (the gRPC HTTP/2 spec's table). */
function codeOfHttpStatus(status: number): number {
  if (status === 400) return 13;
  if (status === 401) return 16;
  if (status === 403) return 7;
  if (status === 404) return 12;
  if (UNAVAILABLE_STATUSES.has(status)) return 14;
  return 2;
}

/** A call in flight. `done` settles once, when the stream has closed. */
export class GrpcClientCall {
  readonly done: Promise<GrpcStatus>;
  readonly #stream: ClientHttp2Stream;
  #failure: A2AClientError | undefined;
  #abortReason: unknown;
  #aborted = false;
  #closed = false;
  #grace: NodeJS.Timeout | undefined;

  constructor(
    private readonly channel: H2Channel,
    private readonly opts: GrpcCallOptions,
  ) {
    const headers: OutgoingHttpHeaders = {
      ...opts.metadata,
      ':method': 'POST',
      ':path': opts.path,
      'content-type': 'application/grpc',
      te: 'trailers',
    };
    if (opts.timeoutMs !== undefined)
      headers['grpc-timeout'] = `${Math.max(1, Math.ceil(opts.timeoutMs))}m`;
    try {
      this.#stream = channel.session().request(headers);
    } catch (err) {
      // Headers node refuses (a value with a newline…) or a channel closed by its owner.
      throw new A2AClientError(
        'INVALID_ARGUMENT',
        `${opts.what} not sent over gRPC: ${(err as Error).message}`,
        { cause: err },
      );
    }
    channel.began();
    this.done = new Promise((resolve, reject) => this.#run(resolve, reject));
  }

  /** Stop reading (HTTP/2 flow control then holds the agent back). */
  pause(): void {
    this.#stream.pause();
  }

  resume(): void {
    this.#stream.resume();
  }

  /** End the call now (RST_STREAM CANCEL); `done` rejects with `reason` (or settles as it would). */
  cancel(reason?: unknown): void {
    if (reason !== undefined && !this.#aborted) {
      this.#aborted = true;
      this.#abortReason = reason;
    }
    if (this.#closed || this.#grace) return;
    if (!this.#stream.destroyed) this.#stream.close(constants.NGHTTP2_CANCEL);
    this.#grace = setTimeout(() => {
      if (!this.#closed) this.#stream.session?.destroy();
    }, CANCEL_GRACE_MS);
    this.#grace.unref();
  }

  #fail(failure: A2AClientError): void {
    this.#failure ??= failure;
    this.cancel();
  }

  #run(resolve: (s: GrpcStatus) => void, reject: (e: unknown) => void): void {
    const { opts } = this;
    const stream = this.#stream;
    const what = opts.what;
    let head: IncomingHttpHeaders | undefined;
    let trailers: IncomingHttpHeaders | undefined;
    let error: unknown;
    let timer: NodeJS.Timeout | undefined;

    const onAbort = (): void => this.cancel(opts.signal!.reason);
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.timeoutMs !== undefined) {
      timer = setTimeout(
        () =>
          this.#fail(
            new A2AClientError(
              'TIMEOUT',
              `${what} to ${opts.url} timed out (gRPC deadline of ${opts.timeoutMs} ms)`,
            ),
          ),
        opts.timeoutMs,
      );
    }

    stream.on('response', (h) => {
      head = h;
      const type = h['content-type'];
      if (
        Number(h[':status']) === 200 &&
        h['grpc-status'] === undefined &&
        !(typeof type === 'string' && type.startsWith('application/grpc'))
      ) {
        this.#fail(
          new A2AClientError(
            'BAD_RESPONSE',
            `${what}: ${opts.url} answered with content-type ${String(type)}, not application/grpc; is this a gRPC interface?`,
            { status: 200 },
          ),
        );
      }
    });
    stream.on('trailers', (t) => {
      trailers = t;
    });
    stream.on('error', (e) => {
      error ??= e;
    });
    // Chunks of the message being received are kept as they came and joined once it is whole: a large
    // message in many small DATA frames costs one copy, not one per frame.
    let parts: Buffer[] = [];
    let have = 0;
    let need = -1;
    stream.on('data', (chunk: Buffer) => {
      parts.push(chunk);
      have += chunk.length;
      for (;;) {
        if (need < 0) {
          if (have < PREFIX) return;
          if (parts[0]!.length < PREFIX) parts = [Buffer.concat(parts, have)];
          const head = parts[0]!;
          const length = head.readUInt32BE(1);
          if (length > opts.maxMessageBytes) {
            return this.#fail(
              new A2AClientError(
                'RESPONSE_TOO_LARGE',
                `${what}: a message from ${opts.url} is ${length} bytes, over the limit of ${opts.maxMessageBytes}; raise maxResponseBytes if this is expected`,
              ),
            );
          }
          if (head[0] !== 0) {
            return this.#fail(
              new A2AClientError(
                'BAD_RESPONSE',
                `${what}: ${opts.url} sent a compressed message, but this client asked for none`,
              ),
            );
          }
          need = PREFIX + length;
        }
        if (have < need) return;
        const all = parts.length === 1 ? parts[0]! : Buffer.concat(parts, have);
        try {
          opts.onMessage(all.subarray(PREFIX, need));
        } catch (err) {
          return this.#fail(
            err instanceof A2AClientError
              ? err
              : new A2AClientError('BAD_RESPONSE', `${what}: ${(err as Error).message}`, {
                  cause: err,
                }),
          );
        }
        const rest = all.subarray(need);
        parts = rest.length > 0 ? [rest] : [];
        have = rest.length;
        need = -1;
      }
    });
    stream.on('close', () => {
      this.#closed = true;
      clearTimeout(this.#grace);
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
      this.channel.ended();
      if (this.#aborted) return reject(this.#abortReason);
      if (this.#failure) return reject(this.#failure);
      const ending = trailers ?? (head?.['grpc-status'] !== undefined ? head : undefined);
      if (ending) {
        if (have > 0)
          return reject(
            new A2AClientError(
              'BAD_RESPONSE',
              `${what}: the answer from ${opts.url} ended inside a message`,
            ),
          );
        const code = Number(ending['grpc-status']);
        return resolve({
          code: Number.isInteger(code) ? code : 2,
          message: grpcMessageText(ending['grpc-message']),
          metadata: ending,
        });
      }
      const status = head === undefined ? undefined : Number(head[':status']);
      if (status !== undefined && status !== 200) {
        return resolve({
          code: codeOfHttpStatus(status),
          message: `${opts.url} answered HTTP ${status} without a gRPC status`,
          metadata: head!,
        });
      }
      reject(this.#broken(error, stream.rstCode, head !== undefined));
    });
    stream.end(opts.body);
  }

  /** Why a call ended without a status: no connection, a reset, a connection that broke. */
  #broken(error: unknown, rstCode: number | undefined, answered: boolean): A2AClientError {
    const { what, url } = this.opts;
    // node wraps a failed connect as a cancelled pending stream: the socket's code is under it.
    const unreached = unreachedCode(error);
    if (unreached !== undefined) {
      return new A2AClientError(
        'NETWORK',
        `${what}: could not reach ${url} over gRPC (${unreached})${reachHint(unreached)}`,
        { cause: error },
      );
    }
    const code = causeCode(error, (c) => !c.startsWith('ERR_HTTP2'));
    if (rstCode === constants.NGHTTP2_REFUSED_STREAM) {
      return new A2AClientError(
        'UNAVAILABLE',
        `${what}: ${url} refused the gRPC call (it is shutting down or at its limit); try again`,
      );
    }
    if (error === undefined && answered && !rstCode) {
      return new A2AClientError(
        'BAD_RESPONSE',
        `${what}: the answer from ${url} ended without a grpc-status`,
      );
    }
    const detail =
      code ??
      (error instanceof Error ? error.message : rstCode ? `RST_STREAM code ${rstCode}` : 'closed');
    return new A2AClientError(
      'NETWORK',
      `${what}: the gRPC call to ${url} ended ${answered ? 'before its status came' : 'before an answer came'} (${detail})`,
      { cause: error },
    );
  }
}
