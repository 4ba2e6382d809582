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
import { H2Call, authenticateCall } from './h2-call.js';
import { H2EventWriter } from './h2-event-writer.js';
import type { GrpcAuth } from './options.js';
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
  maxBufferedBytes?: number | undefined;
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
        call.reply(encodeFramed(m.response, result));
        return;
      }
      const events = await service.stream(op, params, call);
      const writer = new H2EventWriter(call, events, {
        logger,
        maxBufferedBytes: opts.maxBufferedBytes,
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
      discard(call, max);
      return;
    }
    const ms = timeoutMs(headers['grpc-timeout']);
    if (ms !== undefined) call.deadline(ms);
    const { authenticate, challenge } = opts.auth();
    const read = (): void =>
      readBody(call, max, (body) => {
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
      discard(call, max);
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
 * bytes arrive than one message of `max` may have) — the client is answered without the server
 * holding the rest.
 */
function readBody(call: H2Call, max: number, done: (body: Buffer) => void): void {
  const stream = call.stream;
  let first: Buffer | undefined;
  let more: Buffer[] | undefined;
  let size = 0;
  let checked = false;
  const refuse = (refusal: RequestMessage & { ok: false }): void => {
    stream.removeAllListeners('data');
    stream.removeAllListeners('end');
    call.status(wireErrorHeaders(refusal));
    discard(call, max);
  };
  stream.on('data', (chunk: Buffer) => {
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
  });
  stream.on('end', () => {
    if (call.finished || call.cancelled) return;
    done(first === undefined ? Buffer.alloc(0) : more ? Buffer.concat([first, ...more]) : first);
  });
}

/** Drop what the client still sends after it was answered; a client that keeps sending is reset. */
function discard(call: H2Call, max: number): void {
  let dropped = 0;
  const bound = 2 * Math.max(max, 1 << 20);
  call.stream.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > bound) call.abort();
  });
  call.stream.resume();
}
