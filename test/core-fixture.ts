/**
 * Shared helpers of the core conformance tests: a scripted agent whose behaviour is chosen by the
 * text it receives, a server on 127.0.0.1:0, raw JSON-RPC over fetch, and an SSE reader with
 * bounded waits. No mocks: every test talks to a real AgentServer over HTTP.
 */
import { createParser } from 'eventsource-parser';
import type {
  AgentCapabilities,
  AgentCard,
  Message,
  StreamResponse,
  Task,
} from '../src/protocol/index.js';
import {
  createAgentServer,
  silentLogger,
  type AgentExecutor,
  type AgentServer,
  type AgentServerOptions,
} from '../src/server/index.js';

export const UNKNOWN_TASK = '00000000-0000-4000-8000-000000000000';
/** Upper bound for any single wait in these tests (a hang fails the test instead of blocking it). */
export const BOUND_MS = 15_000; // generous: the whole suite may run in parallel on a loaded machine

/** A promise the test resolves by hand: lets an executor wait until the test says go. */
export class Gate {
  open!: () => void;
  readonly opened = new Promise<void>((r) => (this.open = r));
}

/** What the scripted agent saw, for assertions from the test. */
export interface Probe {
  gates: Map<string, Gate>;
  /** Resolves per task id when the executor's AbortSignal fires. */
  aborted: Map<string, Gate>;
  /** Resolves per task id when an executor call has returned (or thrown). */
  returned: Map<string, Gate>;
  gate(name: string): Gate;
}

export function probe(): Probe {
  const gates = new Map<string, Gate>();
  const get = (m: Map<string, Gate>, k: string) => {
    let g = m.get(k);
    if (!g) m.set(k, (g = new Gate()));
    return g;
  };
  return { gates, aborted: new Map(), returned: new Map(), gate: (n) => get(gates, n) };
}

const until = (p: Promise<void>) =>
  Promise.race([p, new Promise<void>((r) => setTimeout(r, BOUND_MS).unref())]);

/**
 * The scripted agent. The first word of the message text picks the behaviour:
 * echo, reply, noop, auth, ask (input-required, then completes on the follow-up), linger <name>, chunks, throw, throw-early,
 * gate <name> (working, waits for the test, then completes), polite <name> (the same, but stops when aborted), hang (waits for cancel, then tries to update),
 * two-step (working, artifact, complete, all synchronously).
 */
export function scripted(p: Probe): AgentExecutor {
  return async (ctx, task) => {
    const [cmd = '', arg = ''] = ctx.text.split(/\s+/, 2);
    const done = (): void => {
      const g = p.returned.get(ctx.taskId) ?? new Gate();
      p.returned.set(ctx.taskId, g);
      g.open();
    };
    ctx.signal.addEventListener('abort', () => {
      const g = p.aborted.get(ctx.taskId) ?? new Gate();
      p.aborted.set(ctx.taskId, g);
      g.open();
    });
    try {
      if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
        if (cmd === 'slowly') await until(p.gate(arg).opened); // thinks before its first update
        task.working('resuming');
        task.addArtifact({ name: 'answer', parts: [{ text: `got ${ctx.text}` }] });
        task.complete('thanks');
        return;
      }
      switch (cmd) {
        case 'reply':
          task.reply(`you said ${arg}`);
          return;
        case 'ask':
          task.working();
          task.inputRequired('which one?');
          return;
        case 'chunks':
          task.working();
          task.addArtifact({ artifactId: 'doc', name: 'doc', parts: [{ text: 'a' }] });
          task.addArtifact({ artifactId: 'doc', parts: [{ text: 'b' }] }, { append: true });
          task.addArtifact(
            { artifactId: 'doc', parts: [{ text: 'c' }] },
            { append: true, lastChunk: true },
          );
          task.addArtifact(
            { artifactId: 'other', parts: [{ data: { n: 1 } }] },
            { lastChunk: true },
          );
          task.complete();
          return;
        case 'throw':
          task.working();
          throw new Error('secret internal detail /etc/passwd');
        case 'throw-early':
          throw new Error('secret internal detail /etc/passwd');
        case 'gate':
          task.working('waiting');
          await until(p.gate(arg).opened);
          task.addArtifact({ name: 'late', parts: [{ text: arg }] });
          task.complete();
          return;
        case 'noop':
          return;
        case 'ext':
          for (const uri of ctx.requestedExtensions) ctx.activateExtension(uri);
          task.reply('used');
          return;
        case 'auth':
          task.authRequired('sign in first');
          return;
        case 'linger':
          // Asks for input, but keeps running and then finishes the task on its own.
          task.inputRequired('anything else?');
          await until(p.gate(arg).opened);
          task.complete('never mind');
          return;
        case 'polite': {
          // An agent that stops as soon as it is told to (what every agent should do with its signal).
          task.working('waiting politely');
          const stop = new Promise<void>((r) =>
            task.signal.aborted ? r() : task.signal.addEventListener('abort', () => r()),
          );
          await until(Promise.race([p.gate(arg).opened, stop]));
          if (task.signal.aborted) throw new Error('stopped');
          task.complete();
          return;
        }
        case 'hang':
          task.working('hanging');
          await until(
            new Promise<void>((r) =>
              task.signal.aborted ? r() : task.signal.addEventListener('abort', () => r()),
            ),
          );
          task.addArtifact({ name: 'after-cancel', parts: [{ text: 'x' }] });
          task.complete('too late');
          return;
        default:
          task.working('echoing');
          task.addArtifact({ name: 'echo', parts: [{ text: ctx.text }] });
          task.complete();
      }
    } finally {
      done();
    }
  };
}

export function card(
  origin: string,
  capabilities: AgentCapabilities = { streaming: true },
): AgentCard {
  return {
    name: 'core-test',
    description: 'conformance test agent',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities,
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 'S', description: 'scripted', tags: ['test'] }],
  };
}

/** A streaming agent's card listing JSON-RPC and HTTP+JSON under `origin`, and gRPC first when given. */
export function bindingsCard(
  name: string,
  description: string,
  origin: string,
  grpcUrl?: string,
): AgentCard {
  return {
    name,
    description,
    version: '1.0.0',
    supportedInterfaces: [
      ...(grpcUrl ? [{ url: grpcUrl, protocolBinding: 'GRPC', protocolVersion: '1.0' }] : []),
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 's', name: 's', description: 's', tags: ['t'] }],
  };
}

export interface Started {
  server: AgentServer;
  origin: string;
  url: string;
  probe: Probe;
  close(): Promise<void>;
}

/** Start a server with the scripted agent (or `executor`) on a free port. */
export async function start(
  capabilities: AgentCapabilities = { streaming: true },
  extra: Partial<AgentServerOptions> = {},
): Promise<Started> {
  const p = probe();
  const server = createAgentServer({
    executor: scripted(p),
    card: (o) => card(o, capabilities),
    // The scripted agent throws and drains on purpose: the default stderr lines would be noise here.
    logger: silentLogger,
    ...extra,
  });
  const origin = await server.listen(0);
  return { server, origin, url: `${origin}/rpc`, probe: p, close: () => server.close(1000) };
}

export const V = { 'A2A-Version': '1.0' };

export interface RpcAnswer {
  status: number;
  headers: Headers;
  body: any;
}

/** One JSON-RPC call: `body` overrides the whole request text (for envelope tests). */
export async function rpc(
  url: string,
  method: string,
  params?: unknown,
  headers: Record<string, string> = V,
  id: unknown = 1,
): Promise<RpcAnswer> {
  const envelope: Record<string, unknown> = { jsonrpc: '2.0', id, method };
  if (params !== undefined) envelope.params = params;
  return post(url, JSON.stringify(envelope), headers);
}

export async function post(
  url: string,
  body: string,
  headers: Record<string, string> = V,
): Promise<RpcAnswer> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body,
    signal: AbortSignal.timeout(BOUND_MS),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

let n = 0;
/** A user message with text parts. */
export function msg(text: string, extra: Partial<Message> = {}): Message {
  return {
    messageId: `m-${++n}-${Date.now()}`,
    role: 'ROLE_USER',
    parts: [{ text }],
    ...extra,
  };
}

/** SendMessage and return the Task (asserting that the answer is a task). */
export async function sendTask(
  url: string,
  text: string,
  extra: Record<string, unknown> = {},
  m: Partial<Message> = {},
): Promise<Task> {
  const r = await rpc(url, 'SendMessage', { message: msg(text, m), ...extra });
  if (!r.body?.result?.task) throw new Error(`expected a task, got ${JSON.stringify(r.body)}`);
  return r.body.result.task as Task;
}

export interface SseEvent {
  id: string | undefined;
  data: any;
}

/** An open SSE answer; `next()` waits (bounded) for the next event, undefined once the stream ended. */
export class SseReader {
  readonly #queue: SseEvent[] = [];
  #ended = false;
  #error: unknown;
  #wake: (() => void) | undefined;
  #reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  cleanEnd = false;

  constructor(readonly response: Response) {
    const parser = createParser({
      onEvent: (e) => {
        this.#queue.push({ id: e.id, data: JSON.parse(e.data) });
        this.#wake?.();
      },
    });
    void (async () => {
      try {
        const reader = (this.#reader = response.body!.getReader());
        const dec = new TextDecoder();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          parser.feed(dec.decode(value, { stream: true }));
        }
        this.cleanEnd = true;
      } catch (err) {
        this.#error = err;
      } finally {
        this.#ended = true;
        this.#wake?.();
      }
    })();
  }

  async next(): Promise<SseEvent | undefined> {
    const deadline = Date.now() + BOUND_MS;
    while (this.#queue.length === 0 && !this.#ended) {
      if (Date.now() > deadline) throw new Error('timed out waiting for an SSE event');
      await new Promise<void>((r) => {
        this.#wake = r;
        setTimeout(r, 100).unref();
      });
    }
    return this.#queue.shift();
  }

  /** Every remaining event until the server ends the stream. */
  async rest(): Promise<SseEvent[]> {
    const out: SseEvent[] = [];
    for (let i = 0; i < 1000; i++) {
      const e = await this.next();
      if (!e) return out;
      out.push(e);
    }
    throw new Error('stream did not end after 1000 events');
  }

  /** The client goes away (closes its side of the connection). */
  async cancel(): Promise<void> {
    await this.#reader?.cancel();
  }

  get error(): unknown {
    return this.#error;
  }
}

/** Start a streaming JSON-RPC call; the Response is an SSE stream when the call was accepted. */
export async function openStream(
  url: string,
  method: string,
  params: unknown,
  headers: Record<string, string> = V,
  id: unknown = 7,
): Promise<SseReader> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), 4 * BOUND_MS);
  timer.unref();
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
    signal: controller.signal,
  });
  return new SseReader(res);
}

/** The StreamResponse carried by a JSON-RPC stream event. */
export const resultOf = (e: SseEvent): StreamResponse => e.data.result as StreamResponse;

/** State named by a stream event (task, or status update), else undefined. */
export function stateOf(e: SseEvent): string | undefined {
  const r = e.data.result;
  return r?.task?.status.state ?? r?.statusUpdate?.status.state;
}

/** Poll GetTask (bounded) until `pred` holds. */
export async function waitForTask(
  url: string,
  id: string,
  pred: (t: Task) => boolean,
): Promise<Task> {
  const deadline = Date.now() + BOUND_MS;
  for (;;) {
    const r = await rpc(url, 'GetTask', { id });
    const t = r.body.result as Task;
    if (t && pred(t)) return t;
    if (Date.now() > deadline)
      throw new Error(`task ${id} never matched: ${JSON.stringify(r.body)}`);
    await new Promise((res) => setTimeout(res, 20));
  }
}

export function errorInfo(body: any): { reason: string; domain: string } | undefined {
  return (body.error?.data ?? []).find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
  );
}

export function badRequestFields(body: any): string[] {
  const br = (body.error?.data ?? []).find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
  );
  return (br?.fieldViolations ?? []).map((v: any) => v.field as string);
}
