/**
 * The fuzz suite's oracle: sends one generated request over raw node:http (bounded in time), reads
 * the answer or the whole stream, and says what is wrong with it: no answer, a 5xx or JSON-RPC
 * internal error the agent did not cause, an error body of the wrong shape, a stream that breaks,
 * does not end, or whose events are malformed.
 */
import { Agent, request } from 'node:http';
import type { FuzzCase } from './fuzz-gen.js';
import { FUZZ_RPC_PATH } from './fuzz-server.js';

/** What came back for one request. */
export interface Observation {
  status?: number;
  contentType?: string;
  body?: string;
  /** The `data:` of every SSE event, for stream answers. */
  events?: string[];
  /** complete: the server ended the answer; left: we closed a stream that may stay open; timeout; error. */
  end: 'complete' | 'left' | 'timeout' | 'error';
  error?: string;
}

const MAX_BODY = 64 * 1024 * 1024;

/** Send `c` to `origin`; never rejects, never waits longer than `boundMs`. */
export function send(
  origin: string,
  c: FuzzCase,
  agent: Agent,
  boundMs: number,
): Promise<Observation> {
  return new Promise((resolve) => {
    const o: Observation = { end: 'error' };
    let settled = false;
    const done = (end: Observation['end'], error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      o.end = end;
      if (error !== undefined) o.error = error;
      resolve(o);
    };
    const headers: Record<string, string | number> = { ...c.headers };
    if (c.body) headers['content-length'] = c.body.length;
    let req: ReturnType<typeof request>;
    try {
      req = request(origin + c.path, { method: c.verb, headers, agent });
    } catch (e) {
      // The request could not even be written (our own client refused it): nothing to judge.
      return done('error', `client refused to send: ${(e as Error).message}`);
    }
    const timer = setTimeout(() => {
      req.destroy();
      done('timeout');
    }, boundMs);
    req.on('error', (e: NodeJS.ErrnoException) => done('error', e.code ?? e.message));
    req.on('response', (res) => {
      o.status = res.statusCode;
      o.contentType = res.headers['content-type'];
      const chunks: Buffer[] = [];
      let size = 0;
      const sse = o.contentType?.startsWith('text/event-stream') === true;
      let pending = '';
      if (sse) o.events = [];
      res.on('data', (chunk: Buffer) => {
        if (!sse) {
          size += chunk.length;
          if (size <= MAX_BODY) chunks.push(chunk);
          return;
        }
        pending += chunk.toString('utf8');
        let cut: number;
        while ((cut = pending.indexOf('\n\n')) >= 0) {
          const block = pending.slice(0, cut);
          pending = pending.slice(cut + 2);
          const data = block
            .split('\n')
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).replace(/^ /, ''));
          if (data.length > 0) o.events!.push(data.join('\n'));
        }
        // A subscription to a task that is still waiting may rightly stay open: one event is enough.
        if (c.op === 'SubscribeToTask' && o.events!.length > 0) {
          done('left');
          res.destroy();
        }
      });
      res.on('end', () => {
        if (!sse) o.body = Buffer.concat(chunks).toString('utf8');
        done('complete');
      });
      res.on('aborted', () => done('error', 'the server aborted the answer'));
      res.on('error', (e: NodeJS.ErrnoException) => done('error', e.code ?? e.message));
    });
    req.end(c.body);
  });
}

/** The verdict on one answer. */
export interface Verdict {
  problems: string[];
  /** HTTP 5xx or a JSON-RPC internal error (-32603). */
  internal: boolean;
}

const TERMINAL_OR_INTERRUPTED =
  /^TASK_STATE_(COMPLETED|FAILED|CANCELED|REJECTED|INPUT_REQUIRED|AUTH_REQUIRED)$/;
const isObject = (v: unknown): v is Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v);

/** `data` of a JSON-RPC error or `details` of a google.rpc.Status: an array of objects with `@type`. */
function checkDetails(where: string, v: unknown, problems: string[]): void {
  if (v === undefined) return; // an empty repeated field is left out in ProtoJSON
  if (!Array.isArray(v)) return void problems.push(`${where} is not an array`);
  for (const d of v)
    if (!isObject(d) || typeof d['@type'] !== 'string')
      problems.push(`${where} holds an entry without "@type"`);
}

function checkRpcError(e: unknown, problems: string[]): boolean {
  if (!isObject(e)) {
    problems.push('error is not an object');
    return false;
  }
  if (!Number.isInteger(e.code)) problems.push('error.code is not an integer');
  if (typeof e.message !== 'string' || e.message === '') problems.push('error.message is missing');
  checkDetails('error.data', e.data, problems);
  return e.code === -32603;
}

/** One JSON-RPC response object (an answer, or one stream event). */
function checkRpcResponse(v: unknown, c: FuzzCase, problems: string[]): boolean {
  if (!isObject(v)) {
    problems.push('the JSON-RPC answer is not an object');
    return false;
  }
  if (v.jsonrpc !== '2.0') problems.push('"jsonrpc" is not "2.0"');
  // Before the body is parsed (or when it cannot be) the id is unknown and null is the answer's.
  const unread =
    v.id === null && isObject(v.error) && (v.error.code === -32700 || v.error.code === -32600);
  if (
    c.rpcId !== undefined
      ? v.id !== c.rpcId && !unread
      : !(v.id === null || typeof v.id === 'string' || typeof v.id === 'number')
  ) {
    problems.push(`id ${JSON.stringify(v.id)?.slice(0, 40)} does not echo the request's`);
  }
  if ('result' in v === 'error' in v) {
    problems.push('needs exactly one of "result" and "error"');
    return false;
  }
  return 'error' in v ? checkRpcError(v.error, problems) : false;
}

function checkRestError(v: unknown, status: number, problems: string[]): void {
  const e = isObject(v) ? v.error : undefined;
  if (!isObject(e)) return void problems.push('the REST error has no "error" object');
  if (e.code !== status)
    problems.push(`error.code ${String(e.code)} is not the HTTP status ${status}`);
  if (typeof e.status !== 'string' || !/^[A-Z_]+$/.test(e.status))
    problems.push('error.status is not a google.rpc.Code name');
  if (typeof e.message !== 'string' || e.message === '') problems.push('error.message is missing');
  checkDetails('error.details', e.details, problems);
}

const PAYLOADS = ['task', 'message', 'statusUpdate', 'artifactUpdate'];

/** The payload of one StreamResponse, or a problem. */
function payloadOf(v: unknown, problems: string[]): [string, Record<string, unknown>] | undefined {
  if (!isObject(v)) return void problems.push('a stream event is not an object');
  const keys = PAYLOADS.filter((k) => k in v);
  if (keys.length !== 1 || !isObject(v[keys[0]!]))
    return void problems.push(`a stream event has payload members [${keys.join(', ')}]`);
  return [keys[0]!, v[keys[0]!] as Record<string, unknown>];
}

function checkStream(c: FuzzCase, o: Observation, problems: string[]): boolean {
  let internal = false;
  const rpc = c.path.startsWith(FUZZ_RPC_PATH);
  const payloads: Array<[string, Record<string, unknown>]> = [];
  for (const data of o.events ?? []) {
    let v: unknown;
    try {
      v = JSON.parse(data);
    } catch {
      problems.push('a stream event is not JSON');
      continue;
    }
    if (rpc) {
      internal = checkRpcResponse(v, c, problems) || internal;
      if (isObject(v) && 'error' in v) continue;
      v = isObject(v) ? v.result : undefined;
    } else if (isObject(v) && 'error' in v) {
      continue;
    }
    const p = payloadOf(v, problems);
    if (p) payloads.push(p);
  }
  if (o.end === 'left') return internal;
  if (o.end !== 'complete') problems.push(`the stream broke: ${o.error ?? o.end}`);
  const first = payloads[0];
  if (first && first[0] !== 'task' && first[0] !== 'message')
    problems.push(`the stream starts with ${first[0]}, not a task or a message`);
  const last = payloads.at(-1);
  const state = (last?.[1].status as { state?: string } | undefined)?.state;
  if (
    o.end === 'complete' &&
    last &&
    last[0] !== 'message' &&
    !TERMINAL_OR_INTERRUPTED.test(state ?? '')
  ) {
    problems.push(`the stream ended after ${last[0]} in state ${String(state)}`);
  }
  if (payloads.length === 0 && (o.events ?? []).length === 0)
    problems.push('the stream ended without any event');
  return internal;
}

/** node:http's own limit on a request head; past it node answers 431 and closes, racing our write. */
const MAX_HEAD_BYTES = 16 * 1024;
/** The binding's default body limit; past it the server answers 413 and may close before reading the rest. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** Whether the request is over an HTTP-level size limit, where a reset instead of an answer is fair. */
function oversized(c: FuzzCase): boolean {
  const head =
    c.path.length + Object.entries(c.headers).reduce((n, [k, v]) => n + k.length + v.length + 4, 0);
  return head > MAX_HEAD_BYTES || (c.body?.length ?? 0) > MAX_BODY_BYTES;
}

/** Judge the answer `o` to `c`. */
export function judge(c: FuzzCase, o: Observation): Verdict {
  const problems: string[] = [];
  if (o.end === 'timeout')
    return {
      problems: [o.status === undefined ? 'no answer in time' : 'the answer did not end in time'],
      internal: false,
    };
  if (
    o.end === 'error' &&
    oversized(c) &&
    (o.status === undefined || o.status === 413 || o.status === 431)
  )
    return { problems, internal: false };
  if (o.status === undefined)
    return { problems: [`no answer: ${o.error ?? 'connection closed'}`], internal: false };
  let internal = o.status >= 500;
  if (o.events) {
    if (o.status !== 200) problems.push(`a stream with HTTP ${o.status}`);
    internal = checkStream(c, o, problems) || internal;
  } else {
    if (o.end !== 'complete') problems.push(`the answer broke off: ${o.error ?? o.end}`);
    let v: unknown;
    try {
      v = JSON.parse(o.body ?? '');
    } catch {
      // node:http answers HTTP-level problems (an oversized head) itself, without a body.
      if (!(o.body === '' && [400, 413, 414, 431].includes(o.status)))
        problems.push(`HTTP ${o.status} with a body that is not JSON`);
      return { problems, internal };
    }
    if (c.path.startsWith(FUZZ_RPC_PATH)) {
      internal = checkRpcResponse(v, c, problems) || internal;
      if (![200, 401, 403, 405, 413, 415].includes(o.status))
        problems.push(`JSON-RPC answer with HTTP ${o.status}`);
    } else if (o.status >= 400) {
      checkRestError(v, o.status, problems);
    } else if (!isObject(v)) {
      problems.push('the REST answer is not a JSON object');
    }
  }
  if (internal && !c.onPurpose)
    problems.push(`internal error (HTTP ${o.status}${o.body ? `: ${o.body.slice(0, 160)}` : ''})`);
  return { problems, internal };
}
