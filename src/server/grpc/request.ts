/**
 * The one place a gRPC request message becomes the ProtoJSON object the dispatcher validates, for
 * both gRPC servers (ours on node:http2 and the grpc-js handlers). proto3 leaves every default out
 * of the bytes; the decoder leaves it out of the object too, and everything past this point reads an
 * absent member as its default (`tenant` → `''`, no `historyLength` → the server's default), so a
 * request means the same whichever encoder wrote it and whichever binding carried it.
 */
import type { Operation } from '../../protocol/index.js';
import { GRPC_METHODS, decodeMessage } from '../../protocol/grpc/index.js';
import { undecodable } from './h2-wire.js';

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
