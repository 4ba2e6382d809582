/**
 * A2A 0.3 over JSON-RPC, behind the same {@link Transport} as 1.0: the client hands it 1.0 requests
 * and gets 1.0 results, events and errors back. On the wire: slash-style methods, `kind`-discriminated
 * objects, streams whose events are JSON-RPC responses carrying 0.3 events. The envelope is 1.0's.
 */
import { A2AError, type OperationName, type StreamResponse } from '../../protocol/index.js';
import { METHOD_OF_V03, errorFromV03 } from '../../protocol/v03/index.js';
import { JsonRpcTransport, type JsonRpcEnvelope } from '../jsonrpc-transport.js';
import type { Transport, TransportRequest } from '../transport.js';
import { eventFromV03, paramsToV03, resultFromV03 } from './convert.js';
import { v03Headers } from './wire.js';

/** Talks A2A 0.3 JSON-RPC to one interface URL. */
export class JsonRpcV03Transport extends JsonRpcTransport implements Transport {
  protected override readonly urlKind = "the agent's JSON-RPC 0.3 URL";
  protected override readonly accept = 'application/json';

  protected override request(
    operation: OperationName,
    params: object,
  ): { method: string | undefined; params?: unknown } {
    return {
      method: METHOD_OF_V03[operation],
      params: paramsToV03(operation, params, `the JSON-RPC 0.3 interface at ${this.url}`),
    };
  }

  protected override headers(req: TransportRequest, accept: string): Record<string, string> {
    return v03Headers(req, 'application/json', accept);
  }

  protected override result(operation: OperationName, value: unknown): unknown {
    return resultFromV03(operation, value, this.url);
  }

  protected override event(operation: OperationName, value: unknown): StreamResponse {
    return eventFromV03(value, operation, this.url);
  }

  /**
   * A 0.3 delete has nothing to return, and Python's 0.3 server drops the `null` result from its
   * envelope: harmless, so read as success (the id is still checked).
   */
  protected override resultMayBeOmitted(operation: OperationName): boolean {
    return operation === 'DeleteTaskPushNotificationConfig';
  }

  protected override isAgentError(env: JsonRpcEnvelope): boolean {
    return env.error !== undefined;
  }

  protected override error(error: unknown): A2AError {
    const e = (typeof error === 'object' && error !== null ? error : {}) as Record<string, unknown>;
    // A 1.0 agent answering a 0.3 request (e.g. VersionNotSupported) sends its details as a list.
    return Array.isArray(e.data)
      ? A2AError.fromJsonRpc(e as { code: number; message?: string; data?: unknown })
      : errorFromV03(e);
  }
}
