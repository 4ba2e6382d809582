/** What both gRPC servers (node:http2 and grpc-js) answer for a request message they cannot decode. */
import { A2AError, type FieldViolation } from '../../protocol/index.js';
import { ProtoError } from '../../protocol/grpc/index.js';

/** A request that could not be decoded: INVALID_ARGUMENT naming the field (or the message as a whole). */
export function undecodable(err: unknown, messageName: string): A2AError {
  const violation: FieldViolation =
    err instanceof ProtoError
      ? { field: err.field || '(request)', description: err.problem }
      : { field: '(request)', description: 'is not a readable protobuf message' };
  return A2AError.invalidParams(
    [violation],
    `The request is not a valid lf.a2a.v1.${messageName}: ${violation.field}: ${violation.description}`,
  );
}
