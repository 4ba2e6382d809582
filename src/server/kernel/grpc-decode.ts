/**
 * The one place a gRPC request message becomes the ProtoJSON object the dispatcher validates, for
 * both gRPC servers (ours on node:http2 and the grpc-js handlers), and what both answer for a message
 * they cannot decode. proto3 leaves every default out of the bytes; the decoder leaves it out of the
 * object too, and everything past this point reads an absent member as its default (`tenant` → `''`,
 * no `historyLength` → the server's default), so a request means the same whichever encoder wrote it
 * and whichever binding carried it.
 */
import { A2AError, type FieldViolation, type Operation } from '../../protocol/index.js';
import { GRPC_METHODS, ProtoError, decodeMessage } from '../../protocol/grpc/index.js';

/**
 * The tenant `@a2a-js/sdk` 1.3's gRPC client writes when a JavaScript caller leaves it out: its
 * encoder skips only `''` and turns the missing value into this text. Read as no tenant, or every
 * task that client makes would be filed under a tenant no other binding or client ever names.
 */
const SDK_UNSET_TENANT = 'undefined';

/** The request of `op` decoded from its protobuf bytes; undecodable input is InvalidParams naming the field. */
export function grpcRequest(op: Operation, bytes: Buffer): Record<string, unknown> {
  const type = GRPC_METHODS[op.name].request;
  let params: Record<string, unknown>;
  try {
    params = decodeMessage(type, bytes);
  } catch (err) {
    throw undecodable(err, type);
  }
  if (params.tenant === SDK_UNSET_TENANT) delete params.tenant;
  return params;
}

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
