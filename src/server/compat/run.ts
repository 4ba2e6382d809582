/**
 * A 0.3 request run as its 1.0 operation, the same way in both 0.3 bindings: a webhook the request
 * names is announced for as long as the call or the stream lasts (so its notifications go out in the
 * 0.3 form), and a stream is written as SSE, each event and error in the binding's own form.
 */
import {
  OPERATIONS_BY_NAME,
  type A2AError,
  type OperationName,
  type StreamResponse,
} from '../../protocol/index.js';
import type { CallContext } from '../dispatch/call-context.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { EventStream } from '../tasks/event-stream.js';
import { answerHeaders, type BindingOptions } from '../bindings/common.js';
import type { HttpExchange } from '../bindings/exchange.js';
import { SseWriter } from '../bindings/sse.js';
import { announceWebhook } from './calls.js';
import { V03_EXTENSIONS_HEADER } from './context.js';
import type { V03Registrations } from './registrations.js';

/** What a 0.3 binding runs its requests with. */
export interface V03Runner {
  service: OperationDispatcher;
  opts: BindingOptions;
  registrations: V03Registrations;
}

/** How a 0.3 binding writes a stream's events and its error. */
export interface V03StreamForm {
  event(event: StreamResponse): string;
  error(err: A2AError, writer: SseWriter): void;
}

/** Runs a unary operation with the 1.0 request `v10`; its answer is the caller's to write. */
export async function callV03(
  run: V03Runner,
  name: OperationName,
  v10: Record<string, unknown>,
  cc: CallContext,
): Promise<unknown> {
  const withdraw = announceWebhook(run.registrations, name, v10);
  try {
    return await run.service.call(OPERATIONS_BY_NAME[name], v10, cc);
  } finally {
    withdraw();
  }
}

/**
 * Opens a streaming operation and writes it to `ex` as SSE. An error before the stream opens is thrown
 * (for the binding to answer); once the SSE answer has begun, a failure only ends it.
 */
export async function streamV03(
  run: V03Runner,
  ex: HttpExchange,
  name: OperationName,
  v10: Record<string, unknown>,
  cc: CallContext,
  form: V03StreamForm,
): Promise<void> {
  // A webhook given with a streamed message is registered when its task is created: announced until the stream ends.
  const withdraw = announceWebhook(run.registrations, name, v10);
  let stream: EventStream;
  try {
    stream = await run.service.stream(
      OPERATIONS_BY_NAME[name],
      v10,
      cc,
      ex.header('last-event-id'),
    );
  } catch (err) {
    withdraw();
    throw err;
  }
  const writer = new SseWriter(ex, {
    ...run.opts.sse,
    headers: answerHeaders(cc, 'text/event-stream', V03_EXTENSIONS_HEADER),
  });
  writer.onClose(() => {
    withdraw();
    stream.close();
  });
  writer.onSlowReader((err) => form.error(err, writer));
  try {
    stream.open({
      event: (event: StreamResponse, eventId: string) => writer.event(form.event(event), eventId),
      error: (err: A2AError) => form.error(err, writer),
      idle: (why: string) => writer.comment(why),
      end: () => writer.end(),
    });
  } catch {
    writer.end();
  }
}
