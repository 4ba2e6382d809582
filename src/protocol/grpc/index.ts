/**
 * The gRPC binding's protocol facts (§10): the A2AService methods, the protobuf messages as a table,
 * a codec between them and ProtoJSON objects, and google.rpc.Status. Pure data and functions, shared
 * by the gRPC server and client, and only they import it. No dependency: the wire format is our own.
 */
export { decodeMessage, encodeFramed, encodeMessage, isKnownMessage } from './codec.js';
export { ProtoError } from './proto-error.js';
export {
  GRPC_CODES,
  STATUS_DETAILS_KEY,
  a2aErrorOfStatus,
  decodeStatus,
  encodeGrpcMessage,
  encodeStatus,
  grpcCodeName,
  grpcMessageText,
  typeUrlOf,
  type GrpcCodeName,
  type RpcStatus,
} from './status.js';
export {
  GRPC_EXTENSIONS_KEY,
  GRPC_METHODS,
  GRPC_SERVICE,
  GRPC_VERSION_KEY,
  type GrpcMethod,
} from './service.js';
export {
  A2A_ENUMS,
  A2A_MESSAGES,
  RPC_MESSAGES,
  type FieldSpec,
  type MessageSpec,
} from './messages.js';
export { grpcAuthority } from './target.js';
