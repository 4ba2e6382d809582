import { createParser } from 'eventsource-parser';
import type { RecordedResponse } from './types.js';

/** A request after substitution, ready to send. */
export interface PreparedRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: readonly (readonly [string, string])[];
  readonly body?: string;
}

/** Bounds on one send. */
export interface SendLimits {
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly maxEvents?: number;
  readonly signal?: AbortSignal;
}

/** Our workplace allows traffic to the local machine only. */
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

// fetch computes or forbids these itself; the .http form still writes them (e.g. Host in the manual's captures).
const DROPPED_HEADERS = new Set([
  'host',
  'content-length',
  'connection',
  'transfer-encoding',
  'keep-alive',
  'upgrade',
  'expect',
]);

/**
 * Builds the absolute URL: an absolute target as is, or a path joined to the `Host` header
 * (the form of the manual's captures). Throws for anything but http(s) on the local machine.
 */
export function resolveTarget(target: string, host: string | undefined): URL {
  let url: URL;
  if (target.startsWith('/')) {
    if (!host) throw new Error(`"${target}" is a path, so the request needs a Host header`);
    url = new URL(`http://${host}${target}`);
  } else {
    try {
      url = new URL(target);
    } catch {
      throw new Error(`not a valid URL: ${target}`);
    }
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`refused: only http(s) is replayed, not ${url.protocol} (${url.href})`);
  }
  if (!LOCAL_HOSTS.has(url.hostname)) {
    throw new Error(
      `refused: ${url.hostname} is not localhost, 127.0.0.1 or [::1]; replay only talks to the local machine`,
    );
  }
  return url;
}

/**
 * Sends one request with global fetch (no redirects followed) and reads the whole response,
 * bounded by a timeout and a size limit. Event streams are parsed into `events`.
 */
export async function send(req: PreparedRequest, limits: SendLimits): Promise<RecordedResponse> {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, limits.timeoutMs);
  const signal = limits.signal
    ? AbortSignal.any([controller.signal, limits.signal])
    : controller.signal;
  const headers = new Headers();
  for (const [name, value] of req.headers)
    if (!DROPPED_HEADERS.has(name.toLowerCase())) headers.append(name, value);
  const progress = { bytes: 0, events: 0 };
  try {
    const res = await fetch(req.url, {
      method: req.method,
      headers,
      redirect: 'manual',
      signal,
      ...(req.body !== undefined && { body: req.body }),
    });
    const isStream = (res.headers.get('content-type') ?? '')
      .toLowerCase()
      .startsWith('text/event-stream');
    const events: unknown[] = [];
    const parser = createParser({
      onEvent: (e) => {
        events.push(parseJsonOrText(e.data));
        progress.events = events.length;
      },
    });
    const text = await readBody(res, limits, progress, (chunk) => {
      if (!isStream) return false;
      parser.feed(chunk);
      return limits.maxEvents !== undefined && events.length >= limits.maxEvents;
    });
    if (!isStream)
      return {
        status: res.status,
        headers: res.headers,
        text,
        doc: text === '' ? undefined : parseJsonOrText(text),
      };
    const kept = limits.maxEvents !== undefined ? events.slice(0, limits.maxEvents) : events;
    return { status: res.status, headers: res.headers, text, doc: { events: kept }, events: kept };
  } catch (err) {
    if (timedOut) {
      const stream =
        progress.events > 0
          ? ` (${progress.events} events so far; add "# @max-events N" for an open stream)`
          : '';
      throw new Error(`timed out after ${limits.timeoutMs} ms${stream}`, { cause: err });
    }
    if (limits.signal?.aborted) throw new Error('replay aborted', { cause: err });
    // undici reports "fetch failed" and hides the useful part (ECONNREFUSED, …) in `cause`.
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    if (cause)
      throw new Error(
        `${(err as Error).message}: ${cause.code ?? cause.message ?? String(cause)}`,
        { cause: err },
      );
    throw err;
  } finally {
    clearTimeout(timer);
    controller.abort(); // releases the connection when we stopped reading early
  }
}

/**
 * Reads the body to the end, or until `onChunk` says to stop. `onChunk` gets decoded text
 * and returns true to stop early (enough events).
 */
async function readBody(
  res: Response,
  limits: SendLimits,
  progress: { bytes: number },
  onChunk: (chunk: string) => boolean,
): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  // Terminates: each read returns more bytes (bounded by maxBodyBytes), ends the stream, or the timeout aborts it.
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    progress.bytes += value.byteLength;
    if (progress.bytes > limits.maxBodyBytes) {
      await reader.cancel().catch(() => undefined);
      throw new Error(`response body larger than ${limits.maxBodyBytes} bytes`);
    }
    const chunk = decoder.decode(value, { stream: true });
    text += chunk;
    if (onChunk(chunk)) {
      await reader.cancel().catch(() => undefined);
      return text;
    }
  }
  const tail = decoder.decode();
  text += tail;
  if (tail) onChunk(tail);
  return text;
}

function parseJsonOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
