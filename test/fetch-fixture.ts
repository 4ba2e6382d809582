/** Shared by the fetch-path tests: operations performed through a fetch handler, without any server. */
import type { OperationName } from '../src/protocol/index.js';
import type { FetchHandler } from '../src/server/adapters/fetch.js';
import { BOUND_MS, restRequest, type Binding, type CallOptions } from './rest-fixture.js';

/** The origin the Web-served agents advertise; no request ever leaves the process. */
export const WEB = 'https://agent.example';

/** Standard headers of an A2A 1.0 JSON request. */
export const H = { 'a2a-version': '1.0', 'content-type': 'application/json' };

/** Perform `op` through the fetch handler, as the rest fixture does over the network. */
export function webRequest(
  handle: FetchHandler,
  binding: Binding,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions & { signal?: AbortSignal } = {},
): Promise<Response> {
  const headers: Record<string, string> = {
    'a2a-version': '1.0',
    'content-type': 'application/a2a+json',
    ...o.headers,
  };
  // The request's signal bounds the whole exchange: when it aborts, the handler ends the stream.
  const signal = o.signal ?? AbortSignal.timeout(BOUND_MS);
  if (binding === 'jsonrpc') {
    const p = o.tenant !== undefined ? { ...params, tenant: o.tenant } : params;
    const body = JSON.stringify({ jsonrpc: '2.0', id: 'req-1', method: op, params: p });
    return handle(new Request(`${WEB}/a2a/jsonrpc`, { method: 'POST', headers, body, signal }));
  }
  const r = restRequest(op, params, o);
  const init: RequestInit = {
    method: r.verb,
    headers,
    signal,
    ...(r.body !== undefined ? { body: r.body } : {}),
  };
  return handle(new Request(`${WEB}/a2a/rest${r.path}`, init));
}

/** Read SSE frames from a body until `stop` says so or the stream ends (bounded in reads and time). */
export async function readFrames(
  body: ReadableStream<Uint8Array>,
  stop: (frames: string[]) => boolean = () => false,
): Promise<{ frames: string[]; chunks: string[]; ended: boolean }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const chunks: string[] = [];
  let text = '';
  // Nothing but this stream may be pending (no socket holds the process): a timer keeps it alive and bounds the wait.
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error('the stream neither ended nor reached what the test waited for')),
      BOUND_MS,
    );
  });
  try {
    for (let i = 0; i < 10_000; i++) {
      const { done, value } = await Promise.race([reader.read(), expired]);
      if (done) return { frames: framesOf(text), chunks, ended: true };
      const chunk = decoder.decode(value, { stream: true });
      chunks.push(chunk);
      text += chunk;
      if (stop(framesOf(text))) {
        reader.releaseLock();
        return { frames: framesOf(text), chunks, ended: false };
      }
    }
    throw new Error('too many chunks');
  } finally {
    clearTimeout(timer);
  }
}

/** Complete SSE frames of a text (comments included, as their own frames). */
function framesOf(text: string): string[] {
  const parts = text.split('\n\n');
  parts.pop();
  return parts;
}

/** The `id:` and parsed `data:` of an event frame. */
export function eventOf(frame: string): { id: string | undefined; data: any } {
  const id = /^id: (.*)$/m.exec(frame)?.[1];
  const data = /^data: (.*)$/m.exec(frame)?.[1];
  return { id, data: data === undefined ? undefined : JSON.parse(data) };
}
