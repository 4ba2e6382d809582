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
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { Logger } from '../logger.js';
import { asA2AError } from '../bindings/common.js';
import type { GrpcAuth } from '../grpc/options.js';
import { grpcRequest } from '../grpc/request.js';
import { grpcContextOf, type GrpcCallContext } from './context.js';
import { extensionMetadata, statusOf } from './errors.js';
import { GrpcEventWriter } from './event-writer.js';

/** What the handlers need besides the dispatcher. */
export interface GrpcHandlerOptions {
  /**
   * Read on every call, so that a server can start listening before its card (which needs the port)
   * and with it the card-derived authenticator exist.
   */
  auth: () => GrpcAuth;
  logger: Logger;
  /** Bytes a slow reader may leave unsent on one stream before the stream is ended. Default 8 MiB. */
  maxBufferedBytes?: number | undefined;
  /** Told of every stream as it opens (the server ends open streams when it shuts down). */
  onStream?: ((writer: GrpcEventWriter) => void) | undefined;
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
) as ServiceDefinition;

/** The implementation of every method of {@link A2A_SERVICE_DEFINITION} over `service`. */
export function grpcHandlers(
  service: OperationDispatcher,
  opts: GrpcHandlerOptions,
): UntypedServiceImplementation {
  const { auth, logger } = opts;

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
        const bytes = encodeMessage(responseType, result as object);
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
          maxBufferedBytes: opts.maxBufferedBytes,
        });
        opts.onStream?.(writer);
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
