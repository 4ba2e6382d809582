/**
 * `--verbose`: the wire exchanges on stderr. Calls pass through a client interceptor (operation,
 * binding, URL, headers this client adds, the request, the answer or error, status and time); the
 * card fetch, which happens before any client exists, through a wrapped fetch. Secrets are masked.
 */
import type { ClientInterceptor, ClientLogger, FetchLike } from 'a2a-kit/client';
import type { Terminal } from './terminal.js';

const SECRET_HEADER = /authorization|cookie|token|secret|api-?key|password/i;

/** `Bearer abcdef…` → `Bearer ••••(43 chars)`: enough to see which credential went out, not to reuse it. */
export function maskHeader(name: string, value: string): string {
  if (!SECRET_HEADER.test(name)) return value;
  const [scheme, rest] = value.includes(' ')
    ? [value.slice(0, value.indexOf(' ')), value.slice(value.indexOf(' ') + 1)]
    : ['', value];
  return `${scheme ? `${scheme} ` : ''}••••(${rest.length} chars)`;
}

/** JSON for the log, with long strings (file contents in base64, …) cut short. */
export function compactJson(value: unknown, maxString = 200): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    typeof v === 'string' && v.length > maxString
      ? `${v.slice(0, maxString)}…(${v.length} chars)`
      : v,
  );
}

/** The interceptor that logs every attempt of every call. */
export function wireLog(term: Terminal): ClientInterceptor {
  const c = term.err;
  return {
    before(call) {
      const lines = [
        `${c.cyan('→')} ${c.bold(call.operation)} ${call.binding} ${call.url}${call.lastEventId ? ` (Last-Event-ID ${call.lastEventId})` : ''}`,
      ];
      for (const [k, v] of Object.entries(call.headers))
        lines.push(c.dim(`  ${k}: ${maskHeader(k, v)}`));
      lines.push(c.dim(`  ${compactJson(call.params)}`));
      term.note(lines.join('\n'));
    },
    after(call, outcome) {
      const status = outcome.status !== undefined ? `HTTP ${outcome.status} ` : '';
      const took = `${Math.round(outcome.durationMs)} ms`;
      const stream =
        outcome.events !== undefined ? `, ${outcome.events} event(s), stream ${outcome.end}` : '';
      const head = `${outcome.ok ? c.green('←') : c.red('←')} ${status}${call.operation} ${took}${stream}`;
      if (!outcome.ok) {
        const e = outcome.error as { name?: string; message?: string };
        term.note(
          `${head}\n${c.dim(`  ${e?.name ?? 'Error'}: ${e?.message ?? String(outcome.error)}`)}`,
        );
      } else if (outcome.result !== undefined)
        term.note(`${head}\n${c.dim(`  ${compactJson(outcome.result)}`)}`);
      else term.note(head);
    },
  };
}

/** The client's decisions (interface chosen, retries, fallbacks, stream resumes) as dim notes. */
export function decisionLog(term: Terminal): ClientLogger {
  const say = (msg: string) => term.note(term.err.dim(`· ${msg}`));
  return { debug: (_o, msg) => say(msg), info: (_o, msg) => say(msg), warn: (_o, msg) => say(msg) };
}

/** What the card's HTTP response said, kept for `a2a card` (cache headers) and `--json` (the bytes served). */
export interface CardResponse {
  /** The URL that answered. */
  url: string;
  /** Its HTTP status. */
  status: number;
  /** Its headers. */
  headers: Headers;
  /** The body as served. */
  body: string;
}

/**
 * Up to `max` bytes of a body, as text; `undefined` when the body is longer (the download is then
 * cancelled, so a card without end costs at most `max` bytes of memory).
 */
export async function readUpTo(res: Response, max: number): Promise<string | undefined> {
  if (Number(res.headers.get('content-length')) > max) {
    await res.body?.cancel().catch(() => undefined);
    return undefined;
  }
  if (!res.body) return '';
  const reader = res.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > max) {
      await reader.cancel().catch(() => undefined);
      return undefined;
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * A fetch for the card that records the response (and logs it with `--verbose`). The body is read
 * here once, at most `maxBytes` of it; a longer one is handed on as an empty body that declares
 * its length too large, so the library's own limit check refuses it with its usual error.
 */
export function recordingFetch(
  term: Terminal,
  verbose: boolean,
  record: (r: CardResponse) => void,
  maxBytes: number,
): FetchLike {
  const c = term.err;
  return async (input, init) => {
    if (verbose) {
      const lines = [`${c.cyan('→')} ${c.bold('GET')} ${String(input)}`];
      for (const [k, v] of Object.entries((init?.headers ?? {}) as Record<string, string>))
        lines.push(c.dim(`  ${k}: ${maskHeader(k, v)}`));
      term.note(lines.join('\n'));
    }
    const started = performance.now();
    const res = await globalThis.fetch(input, init);
    const text = res.status === 200 ? await readUpTo(res, maxBytes) : '';
    const body = text ?? '';
    record({ url: String(input), status: res.status, headers: res.headers, body });
    if (verbose) {
      const lines = [
        `${res.ok ? c.green('←') : c.red('←')} HTTP ${res.status} ${Math.round(performance.now() - started)} ms`,
      ];
      res.headers.forEach((v, k) => lines.push(c.dim(`  ${k}: ${v}`)));
      if (text === undefined) lines.push(c.dim(`  (body over ${maxBytes} bytes, not read)`));
      else if (body) lines.push(c.dim(`  ${readable(body)}`));
      term.note(lines.join('\n'));
    }
    if (res.status !== 200) return res;
    const headers = new Headers(res.headers);
    headers.delete('content-encoding');
    if (text === undefined) {
      headers.set('content-length', String(maxBytes + 1));
      return new Response(null, { status: res.status, statusText: res.statusText, headers });
    }
    headers.delete('content-length');
    return new Response(text, { status: res.status, statusText: res.statusText, headers });
  };
}

function readable(body: string): string {
  try {
    return compactJson(JSON.parse(body) as unknown);
  } catch {
    return body.length > 200 ? `${body.slice(0, 200)}…(${body.length} chars)` : body;
  }
}
