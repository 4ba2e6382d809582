/**
 * The A2AService on node:http2 streams (§10.4): each call's one request message is decoded from
 * protobuf into the ProtoJSON object the JSON bindings hand the dispatcher, and the answer is encoded
 * straight from the object it returns — one operation table, no per-binding logic. The wire rules
 * (framing, limits, encodings, deadlines) are checked here, before any operation runs.
 */
import type { IncomingHttpHeaders, ServerHttp2Stream } from 'node:http2';
import { A2AError, OPERATIONS, type Operation } from '../../protocol/index.js';
import { GRPC_CODES, GRPC_METHODS, encodeFramed } from '../../protocol/grpc/index.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { Logger } from '../logger.js';
import { asA2AError } from '../kernel/errors.js';
import { grpcRequest } from '../kernel/grpc-decode.js';
import { replyProto } from '../kernel/encode-cache.js';
import { H2Call, authenticateCall } from './h2-call.js';
import { H2EventWriter } from './h2-event-writer.js';
import type { GrpcAuth } from './options.js';
import type { ByteHold } from '../conn/byte-budget.js';
import {
  PREFIX_BYTES,
  errorHeaders,
  inflated,
  oversize,
  plainStatusHeaders,
  requestMessage,
  timeoutMs,
  wireErrorHeaders,
  type RequestMessage,
} from './h2-wire.js';

/** What the service needs besides the dispatcher. */
export interface H2ServiceOptions {
  /** Read on every call: a server can listen before its card (and the card's authenticator) exists. */
  auth: () => GrpcAuth;
  logger: Logger;
  maxReceiveMessageBytes: number;
  maxStreamBufferBytes: number;
  /** Time a call has to send its whole request message; 0: no limit. */
  bodyTimeoutMs: number;
  /** Where a call's unfinished request bytes are counted (its connection's budget). */
  holdBody: (stream: ServerHttp2Stream) => ByteHold;
  /** Told of every stream as it opens (the server ends open streams when it shuts down). */
  onStream: (writer: H2EventWriter) => void;
}

/** Request encodings this server reads (§10 leaves compression to gRPC; gzip is the one every gRPC stack has). */
const ACCEPTED_ENCODINGS = new Set(['identity', 'gzip']);
const ACCEPT_ENCODING = 'gzip,identity';
const ROUTES = new Map<string, Operation>(OPERATIONS.map((op) => [GRPC_METHODS[op.name].path, op]));
const noop = (): void => {};

/** The `stream` listener of an HTTP/2 server that serves the A2AService over `service`. */
export function a2aStreamHandler(
  service: OperationDispatcher,
  opts: H2ServiceOptions,
): (stream: ServerHttp2Stream, headers: IncomingHttpHeaders) => void {
  const { logger, maxReceiveMessageBytes: max } = opts;

  const fail = (call: H2Call, err: unknown, challenge: string | undefined): void => {
    const a2a = asA2AError(err, logger);
    try {
      call.status(
        errorHeaders(a2a),
        a2a.kind === 'Unauthenticated' ? { 'www-authenticate': challenge ?? 'Bearer' } : undefined,
      );
    } catch (e) {
      // The stream went away between the check and the answer: nobody is left to tell.
      logger.debug({ err: e }, 'a gRPC status could not be sent');
    }
  };

  const run = async (call: H2Call, op: Operation, bytes: Buffer, challenge?: string) => {
    const m = GRPC_METHODS[op.name];
    try {
      const params = grpcRequest(op, bytes);
      if (!op.streaming) {
        const result = await service.call(op, params, call);
        const encode = () => encodeFramed(m.response, result);
        // A large live task answered to many GetTask callers is encoded once (a shared snapshot).
        call.reply(op.name === 'GetTask' ? replyProto(result, encode) : encode());
        return;
      }
      const events = await service.stream(op, params, call);
      const writer = new H2EventWriter(call, events, {
        logger,
        maxStreamBufferBytes: opts.maxStreamBufferBytes,
      });
      if (!writer.ended) opts.onStream(writer);
      events.open(writer);
    } catch (err) {
      fail(call, err, challenge);
    }
  };

  return (stream, headers) => {
    // Resets and broken connections are seen as the stream's 'close'; its errors need no other handling.
    stream.on('error', noop);
    const contentType = headers['content-type'];
    if (
      headers[':method'] !== 'POST' ||
      typeof contentType !== 'string' ||
      !contentType.startsWith('application/grpc')
    ) {
      // Not a gRPC request: the gRPC spec's HTTP answer rather than a gRPC status.
      stream.respond({ ':status': headers[':method'] !== 'POST' ? 405 : 415 }, { endStream: true });
      return;
    }
    const call = new H2Call(stream, headers);
    const op = ROUTES.get(String(headers[':path']));
    const encoding = headers['grpc-encoding'];
    if (!op || (encoding !== undefined && !ACCEPTED_ENCODINGS.has(String(encoding)))) {
      call.status(
        op
          ? plainStatusHeaders(
              GRPC_CODES.UNIMPLEMENTED,
              `This server accepts messages in ${ACCEPT_ENCODING}, not grpc-encoding ${String(encoding)}`,
              'UNSUPPORTED_ENCODING',
            )
          : errorHeaders(
              new A2AError('MethodNotFound', `Method not found: ${String(headers[':path'])}`),
            ),
        op ? { 'grpc-accept-encoding': ACCEPT_ENCODING } : undefined,
      );
      discard(call);
      return;
    }
    const ms = timeoutMs(headers['grpc-timeout']);
    if (ms !== undefined) call.deadline(ms);
    const { authenticate, challenge } = opts.auth();
    const read = (): void =>
      readBody(call, max, opts, (body) => {
        const msg = requestMessage(body, max, encoding === 'gzip');
        if (!msg.ok) call.status(wireErrorHeaders(msg));
        else if (msg.compressed)
          void inflated(msg.bytes, max).then((plain) =>
            plain.ok ? run(call, op, plain.bytes, challenge) : call.status(wireErrorHeaders(plain)),
          );
        else void run(call, op, msg.bytes, challenge);
      });
    // The caller is decided from the headers before a byte of the body is read: a call without
    // credentials is refused at once, and what it still sends is dropped, never held (issue 28).
    const refused = (err: unknown): void => {
      fail(call, err, challenge);
      discard(call);
    };
    let pending: H2Call | Promise<H2Call>;
    try {
      pending = authenticateCall(call, authenticate);
    } catch (err) {
      return refused(err);
    }
    if (pending instanceof Promise) pending.then(read, refused);
    else read();
  };
}

/**
 * Read the request body, refusing it as soon as its prefix announces a message over `max` (or more
 * bytes arrive than one message of `max` may have), when its connection (or the server) holds too many
 * unfinished request bytes, or when it is not complete within `bodyTimeoutMs` — the client is answered
 * without the server holding the rest. The bytes are counted until the body is complete, refused, or
 * the stream closes.
 */
function readBody(
  call: H2Call,
  max: number,
  opts: Pick<H2ServiceOptions, 'bodyTimeoutMs' | 'holdBody'>,
  done: (body: Buffer) => void,
): void {
  const stream = call.stream;
  const hold = opts.holdBody(stream);
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let checked = false;
  const timer =
    opts.bodyTimeoutMs > 0
      ? setTimeout(() => {
          stop();
          call.status(
            plainStatusHeaders(
              GRPC_CODES.DEADLINE_EXCEEDED,
              `The request message was not complete within ${opts.bodyTimeoutMs} ms`,
              'BODY_TIMEOUT',
            ),
          );
          // A client that trickles is not waited for: the stream ends here (the status goes first).
          discard(call);
        }, opts.bodyTimeoutMs)
      : undefined;
  timer?.unref();
  /** Stop reading: the timer off, the bytes given back, nothing more kept. */
  const stop = (): void => {
    if (timer) clearTimeout(timer);
    hold.release();
    first = more = undefined;
    stream.removeListener('data', onData);
    stream.removeListener('end', onEnd);
  };
  const refuse = (refusal: RequestMessage & { ok: false }): void => {
    stop();
    call.status(wireErrorHeaders(refusal));
    discard(call);
  };
  const onData = (chunk: Buffer): void => {
    const full = hold.take(chunk.length);
    if (full) {
      stop();
      call.status(
        plainStatusHeaders(
          GRPC_CODES.RESOURCE_EXHAUSTED,
          `The server holds too many unfinished request bytes: the limit of ${full.limit} bytes ${full.label} is reached; send it again later`,
          'BODY_BYTES_EXHAUSTED',
        ),
      );
      discard(call);
      return;
    }
    size += chunk.length;
    if (first === undefined) first = chunk;
    else (more ??= []).push(chunk);
    if (!checked && size >= PREFIX_BYTES) {
      checked = true;
      const head = first.length >= PREFIX_BYTES ? first : Buffer.concat([first, ...(more ?? [])]);
      const length = head.readUInt32BE(1);
      if (length > max) return refuse(oversize(length, max) as RequestMessage & { ok: false });
    }
    if (size > max + PREFIX_BYTES)
      refuse(oversize(size - PREFIX_BYTES, max) as RequestMessage & { ok: false });
  };
  const onEnd = (): void => {
    const body =
      first === undefined ? Buffer.alloc(0) : more ? Buffer.concat([first, ...more]) : first;
    stop();
    if (call.finished || call.cancelled) return;
    done(body);
  };
  stream.on('data', onData);
  stream.on('end', onEnd);
  // A client that hangs up (or a reset) gives the bytes back at once.
  stream.once('close', stop);
}

/**
 * The call was answered before its request was complete: ask the client to stop sending (RST_STREAM
 * NO_ERROR after the status, as HTTP/2 allows), so the stream neither holds bytes nor a stream slot.
 */
function discard(call: H2Call): void {
  call.stream.resume();
  if (call.stream.readableEnded) return;
  // Not in the same turn as the status: on Node 22 a reset right behind a trailers-only answer went
  // out first, and the client saw no status at all.
  setImmediate(() => {
    if (!call.stream.readableEnded) call.stopReceiving();
  });
}
