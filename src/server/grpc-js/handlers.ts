/**
 * The A2AService methods over the operation dispatcher (§10.4): each request is decoded from protobuf
 * into the ProtoJSON object the JSON bindings hand the dispatcher, and the answer is encoded straight
 * from the object it returns — one operation table and no per-binding logic. grpc-js passes raw bytes
 * both ways, so that undecodable input becomes an A2A error with a field violation rather than
 * grpc-js's own INTERNAL answer.
 */
import type {
  ServerUnaryCall,
  ServerWritableStream,
  ServiceDefinition,
  UntypedServiceImplementation,
  sendUnaryData,
} from '@grpc/grpc-js';
import { OPERATIONS, type Operation } from '../../protocol/index.js';
import { GRPC_METHODS, encodeMessage } from '../../protocol/grpc/index.js';
import { engineOf, type ServedAgent } from '../kernel/engine.js';
import type { Logger } from '../logger.js';
import { asA2AError } from '../kernel/errors.js';
import type { CallAuth as GrpcAuth } from '../kernel/request.js';
import { grpcRequest } from '../kernel/grpc-decode.js';
import { grpcContextOf, type GrpcCallContext } from './context.js';
import { extensionMetadata, statusOf } from './errors.js';
import { GrpcEventWriter } from './event-writer.js';
import { streamBufferBytes } from '../kernel/stream-buffer.js';

/** How the handlers authenticate and log; each defaults to the agent server's own. */
export interface GrpcHandlerOptions {
  /**
   * The authenticator and challenge, read on every call. Default: those of the agent server (its
   * `auth` or `authenticate` option over its current card), as over HTTP; a call that arrives before
   * the server has its card waits for it, and is refused if there is none.
   */
  auth?: () => GrpcAuth;
  /** Default: the agent server's logger. */
  logger?: Logger;
  /**
   * Bytes one subscriber may leave unread before its stream is ended with RESOURCE_EXHAUSTED (reason
   * SLOW_READER) and, if it still has not drained 10 s later, reset. Default: the agent server's
   * `maxStreamBufferBytes` (4 MiB unless set); at least 1024.
   */
  maxStreamBufferBytes?: number | undefined;
  /** @deprecated Use `maxStreamBufferBytes`. */
  maxBufferedBytes?: number | undefined;
}

const passBytes = (b: Buffer): Buffer => b;

/** The service definition: the eleven methods, with bytes in and out (the handlers do the protobuf). */
export const A2A_SERVICE_DEFINITION: ServiceDefinition = Object.fromEntries(
  OPERATIONS.map((op) => {
    const m = GRPC_METHODS[op.name];
    return [
      op.name,
      {
        path: m.path,
        requestStream: false,
        responseStream: m.streaming,
        requestSerialize: passBytes,
        requestDeserialize: passBytes,
        responseSerialize: passBytes,
        responseDeserialize: passBytes,
        originalName: op.name.charAt(0).toLowerCase() + op.name.slice(1),
      },
    ];
  }),
);

/** The implementation of every method of {@link A2A_SERVICE_DEFINITION} for an agent server (`createAgentServer`). */
export function grpcHandlers(
  agent: ServedAgent,
  opts: GrpcHandlerOptions = {},
): UntypedServiceImplementation {
  const engine = engineOf(agent, 'grpcHandlers(agent)');
  const { service } = engine;
  const auth = opts.auth ?? engine.auth;
  const logger = opts.logger ?? engine.logger;
  const maxStreamBufferBytes = streamBufferBytes({
    maxStreamBufferBytes: opts.maxStreamBufferBytes,
    maxBufferedBytes: opts.maxBufferedBytes,
    "the agent server's maxStreamBufferBytes": engine.maxStreamBufferBytes,
  });

  const unary = (op: Operation) => {
    const responseType = GRPC_METHODS[op.name].response;
    const run = async (
      call: ServerUnaryCall<Buffer, Buffer>,
      callback: sendUnaryData<Buffer>,
    ): Promise<void> => {
      let cc: GrpcCallContext | undefined;
      const { authenticate, challenge } = auth();
      try {
        const params = grpcRequest(op, call.request);
        const pending = grpcContextOf(call, authenticate);
        cc = pending instanceof Promise ? await pending : pending;
        const result = await service.call(op, params, cc);
        const bytes = encodeMessage(responseType, result);
        cc.finished = true;
        const md = extensionMetadata(cc);
        if (md) call.sendMetadata(md);
        callback(null, bytes);
      } catch (err) {
        if (cc) cc.finished = true;
        callback(statusOf(asA2AError(err, logger), cc, challenge));
      }
    };
    return (call: ServerUnaryCall<Buffer, Buffer>, callback: sendUnaryData<Buffer>): void =>
      void run(call, callback);
  };

  const streaming = (op: Operation) => {
    const run = async (call: ServerWritableStream<Buffer, Buffer>): Promise<void> => {
      let cc: GrpcCallContext | undefined;
      const { authenticate, challenge } = auth();
      try {
        const params = grpcRequest(op, call.request);
        const pending = grpcContextOf(call, authenticate);
        cc = pending instanceof Promise ? await pending : pending;
        const stream = await service.stream(op, params, cc);
        const writer = new GrpcEventWriter(call, cc, stream, {
          logger,
          maxStreamBufferBytes,
        });
        // The agent server's drain reaches these streams as it reaches its own (UNAVAILABLE: call again).
        writer.onEnd(engine.track({ transport: 'grpc', goAway: () => writer.goAway() }));
        stream.open(writer);
      } catch (err) {
        if (cc) cc.finished = true;
        if (!call.cancelled) call.emit('error', statusOf(asA2AError(err, logger), cc, challenge));
      }
    };
    return (call: ServerWritableStream<Buffer, Buffer>): void => void run(call);
  };

  const impl: UntypedServiceImplementation = {};
  for (const op of OPERATIONS) impl[op.name] = op.streaming ? streaming(op) : unary(op);
  return impl;
}
