/**
 * A2A 0.3 over JSON-RPC, at the URL of the 1.0 JSON-RPC interface: the 1.0 binding hands over every
 * request that asks for 0.3 (or for no version). Slash-style methods, `kind`-discriminated objects,
 * 0.3 errors (`data` an object, not a list of details); streams as SSE whose events are JSON-RPC
 * responses with a 0.3 event as `result`, the last status update marked `final`.
 */
import {
  A2AError,
  OPERATIONS_BY_METHOD,
  OPERATIONS_BY_NAME,
  type AgentCard,
} from '../../protocol/index.js';
import { V03, V03_METHODS, errorToV03, eventToV03 } from '../../protocol/v03/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { answerHeaders, type BindingOptions } from '../bindings/common.js';
import { asA2AError } from '../kernel/errors.js';
import type { HttpExchange } from '../bindings/exchange.js';
import type { JsonRpcEnvelope, JsonRpcId, JsonRpcOtherVersion } from '../bindings/jsonrpc.js';
import { requestFromV03, resultToV03 } from './calls.js';
import type { V03Registrations } from './registrations.js';
import { V03_EXTENSIONS_HEADER, contextOfV03, whyV03 } from './context.js';
import { callV03, streamV03 } from './run.js';

const JSON_TYPE = 'application/json';

/** Turns the extended card (1.0) into what a 0.3 caller gets; supplied by the server, which holds the signing keys. */
export type V03CardWriter = (card: AgentCard) => Promise<object>;

/** MethodNotFound for a name 0.3 does not have, saying what it is when it is a 1.0 name. */
function unknownMethod(method: string, why: string): A2AError {
  const v10 = OPERATIONS_BY_METHOD.get(method);
  if (method === 'tasks/list' || method === 'ListTasks') {
    return new A2AError(
      'MethodNotFound',
      `Method not found: ${method}; listing tasks (ListTasks) is not part of A2A 0.3 — send A2A-Version: 1.0 to use it (this request was read as 0.3 ${why})`,
    );
  }
  if (v10) {
    return new A2AError(
      'MethodNotFound',
      `Method not found: ${method} is an A2A 1.0 method; this request was read as A2A 0.3 ${why}. Send A2A-Version: 1.0 to call it`,
    );
  }
  return new A2AError(
    'MethodNotFound',
    `Method not found: ${method.slice(0, 100)} (read as A2A 0.3 ${why})`,
  );
}

/** The 0.3 JSON-RPC handler for the 1.0 binding at the same URL. */
export function jsonRpcV03(
  service: OperationDispatcher,
  opts: BindingOptions,
  extendedCard: V03CardWriter,
  registrations: V03Registrations,
): JsonRpcOtherVersion {
  const logger = opts.logger ?? service.logger;
  const run = { service, opts, registrations };

  const sendError = (ex: HttpExchange, id: JsonRpcId, err: A2AError, cc?: CallContext): void => {
    if (ex.answered) return ex.drop();
    const headers = answerHeaders(cc, JSON_TYPE, V03_EXTENSIONS_HEADER);
    let status = 200;
    if (err.kind === 'Unauthenticated') {
      status = 401;
      headers['www-authenticate'] = opts.challenge ?? 'Bearer';
    } else if (err.kind === 'PermissionDenied') {
      status = 403;
    }
    try {
      ex.reply(status, headers, JSON.stringify({ jsonrpc: '2.0', id, error: errorToV03(err) }));
    } catch (e) {
      logger.error({ err: e }, 'could not write a 0.3 JSON-RPC error answer');
      ex.drop();
    }
  };

  const handle = async (
    ex: HttpExchange,
    request: JsonRpcEnvelope,
    query: URLSearchParams | undefined,
    sent: string | undefined,
  ): Promise<void> => {
    const { id, method, params } = request;
    const why = whyV03(sent);
    const name = V03_METHODS[method];
    if (!name) return sendError(ex, id, unknownMethod(method, why));
    const op = OPERATIONS_BY_NAME[name];
    let cc: CallContext | undefined;
    try {
      const v10 = requestFromV03(name, params, why);
      const pending = contextOfV03(ex, opts, query, 'JSONRPC');
      cc = pending instanceof Promise ? await pending : pending;
      if (!op.streaming) {
        const result = await callV03(run, name, v10, cc);
        const v03 =
          name === 'GetExtendedAgentCard'
            ? await extendedCard(result as AgentCard)
            : resultToV03(name, result);
        ex.reply(
          200,
          answerHeaders(cc, JSON_TYPE, V03_EXTENSIONS_HEADER),
          JSON.stringify({ jsonrpc: '2.0', id, result: v03 }),
        );
        return;
      }
      const prefix = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`;
      await streamV03(run, ex, name, v10, cc, {
        event: (event) => `${prefix}${JSON.stringify(eventToV03(event))}}`,
        error: (err, writer) =>
          writer.event(JSON.stringify({ jsonrpc: '2.0', id, error: errorToV03(err) })),
      });
    } catch (err) {
      sendError(ex, id, asA2AError(err, logger), cc);
    }
  };

  return { version: V03, handle };
}
