/**
 * The transport-neutral request/answer pair the bindings speak. A binding parses an
 * {@link HttpExchange}, calls the dispatcher and answers through it; whether the bytes travel over
 * node:http (`node-exchange.ts`) or come from a Web `Request` and leave as a `Response`
 * (`web-exchange.ts`) is the exchange's business, so the protocol logic exists once.
 */
import type { AuthRequest } from '../kernel/request.js';

/** The body exceeded the configured limit. */
export class BodyTooLargeError extends Error {
  override readonly name = 'BodyTooLargeError';
  constructor(readonly limit: number) {
    super(`The request body is larger than the ${limit}-byte limit`);
  }
}

/** The client went away (or the body stream failed) while the body was being read. */
export class BodyReadError extends Error {
  override readonly name = 'BodyReadError';
  constructor() {
    super('the client went away while sending the body');
  }
}

/**
 * One HTTP request and its answer, as a binding sees them. Every answer goes out through exactly one
 * of {@link reply}, {@link openStream} or {@link drop}.
 */
export interface HttpExchange {
  /** Upper-case request method. */
  readonly method: string;
  /** Path and query as sent (`/a2a/rest/tasks?pageSize=1`). */
  readonly url: string;
  /** A request header by lower-case name; repeated headers joined with `, `. */
  header(name: string): string | undefined;
  /** The whole body as UTF-8 text; rejects with {@link BodyTooLargeError} past `limit` bytes, {@link BodyReadError} when the client left. */
  readBody(limit: number): Promise<string>;
  /**
   * The request as an authenticator sees it. On node:http it is the real IncomingMessage; on the Web
   * path `method`, `url` and lower-case `headers` only (no socket, so no TLS client certificate).
   */
  authRequest(): AuthRequest;
  /** Whether the status line is committed (a reply was made or a stream opened). */
  readonly answered: boolean;
  /** Call `fn` once if the client goes away before the answer is complete (at once if it already has). */
  onAbandoned(fn: () => void): void;
  /**
   * Answer in one piece: status, headers and the whole body (sent with its length). A body in parts
   * (a large payload encoded once, between a head and a tail of its own) is sent as their concatenation.
   */
  reply(status: number, headers: Record<string, string>, body?: AnswerBody): void;
  /** Answer 200 with a body that follows in parts (Server-Sent Events). */
  openStream(headers: Record<string, string>): StreamTarget;
  /** End without (or after part of) an answer: the connection is dropped, or the host sees a failure. */
  drop(): void;
}

/** The body of a unary answer: text, bytes, or parts of either sent one after the other. */
export type AnswerBody = string | Uint8Array | ReadonlyArray<string | Uint8Array>;

/** The body of a streamed answer. */
export interface StreamTarget {
  /** Queue text or bytes (bytes are sent as they are, never changed); writes of one synchronous burst leave together. */
  write(chunk: string | Uint8Array): void;
  /** Finish the body after what was written. */
  end(): void;
  /** Bytes written that the client has not taken yet. */
  readonly buffered: number;
  /** Call `fn` once when the stream is over, ended by us or by the client (at once if it already is). */
  onClose(fn: () => void): void;
  /** Destroy the connection now, even after {@link end}: what the client has not taken is discarded. */
  abort(): void;
}
