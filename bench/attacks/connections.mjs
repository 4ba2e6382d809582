/**
 * Attacks that hold server resources rather than send work: idle gRPC connections, request bodies that
 * never finish (gRPC and HTTP/1), and subscribers that never read a task with a large artifact. Each
 * takes the round's `holdMs` at most and resolves a list of `{ label, ms }` outcomes.
 */
import net from 'node:net';
import { grpcPrefix, h2Call, h2Session, jsonRpc, msg, rawHttp } from './wire.mjs';

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** How each of `n` idle connections ended by `holdMs`: half HTTP/2 sessions, half bare TCP. */
export async function idleGrpc({ grpcPort, n, holdMs }) {
  const one = async (i) => {
    if (i % 2) {
      // A TCP connection that never even sends the HTTP/2 preface.
      const s = net.connect(grpcPort, '127.0.0.1');
      let label;
      s.on('error', (err) => (label ??= `tcp: error ${err.code}`));
      s.on('close', () => (label ??= 'tcp: closed by server'));
      s.resume();
      await sleep(holdMs);
      s.destroy();
      return { label: label ?? 'tcp: open at the round end' };
    }
    const session = await h2Session(grpcPort);
    if (!session) return { label: 'h2: could not connect' };
    let label;
    session.on('goaway', (code) => (label ??= `h2: GOAWAY ${code}`));
    session.on('close', () => (label ??= 'h2: closed by server'));
    await sleep(holdMs);
    session.destroy();
    return { label: label ?? 'h2: open at the round end' };
  };
  return Promise.all(Array.from({ length: n }, (_, i) => one(i)));
}

/** gRPC calls that declare `declared` bytes and send `sent` of them, on `n` sessions of 10 calls. */
export async function unfinishedGrpc({ grpcPort, n, declared, sent, holdMs }) {
  const out = [];
  const perSession = 10;
  await Promise.all(
    Array.from({ length: Math.ceil(n / perSession) }, async (_, s) => {
      const session = await h2Session(grpcPort);
      if (!session) return out.push({ label: 'could not connect' });
      const calls = Math.min(perSession, n - s * perSession);
      const body = Buffer.concat([grpcPrefix(declared), Buffer.alloc(sent, 0x0a)]);
      const got = await Promise.all(
        Array.from({ length: calls }, () => h2Call(session, { body, end: false, holdMs })),
      );
      out.push(...got);
      session.destroy();
    }),
  );
  return out;
}

/** JSON-RPC requests to `port` that declare `declared` bytes and send `sent` of them. */
export function unfinishedHttp({ port, n, declared, sent, holdMs }) {
  const body = Buffer.alloc(sent, 0x20);
  return Promise.all(
    Array.from({ length: n }, () =>
      rawHttp({ port, path: '/a2a/jsonrpc', body, declared, holdMs }),
    ),
  );
}

/** A source file that makes the reviewer report two findings per line: a large artifact. */
export const noisySource = (lines) =>
  Array.from({ length: lines }, (_, i) => `var a${i} = eval("x") == null; debugger;`).join('\n');

/**
 * A review of `lines` noisy lines (its artifact ≈ 600 bytes a line) started with returnImmediately;
 * then `n` SubscribeToTask calls while it runs and `n` GetTask calls after, none of which reads a byte.
 */
export async function slowSubscribers({ port, n, lines, holdMs }) {
  const t0 = Date.now();
  const started = await fetch(`http://127.0.0.1:${port}/a2a/jsonrpc`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: jsonRpc('SendMessage', {
      message: msg('review', {
        parts: [{ text: noisySource(lines), filename: 'noisy.js', mediaType: 'text/javascript' }],
      }),
      configuration: { returnImmediately: true },
    }),
    signal: AbortSignal.timeout(holdMs),
  })
    .then((r) => r.json())
    .catch((err) => ({ error: { message: err.message } }));
  const id = started.result?.task?.id;
  if (!id) return [{ label: `review not started: ${started.error?.message ?? 'no task'}` }];
  const unread = (method) =>
    rawHttp({
      port,
      path: '/a2a/jsonrpc',
      body: jsonRpc(method, { id }),
      read: false,
      holdMs: Math.max(1000, holdMs - (Date.now() - t0)),
    });
  const subscribers = Array.from({ length: n }, () => unread('SubscribeToTask'));
  // GetTask once the review is done: each answer is the whole task, artifact included.
  for (let i = 0; i < 60 && Date.now() - t0 < holdMs / 2; i++) {
    const r = await fetch(`http://127.0.0.1:${port}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      body: jsonRpc('GetTask', { id, historyLength: 0 }),
    }).then((res) => res.json());
    if (/COMPLETED|FAILED|REJECTED/.test(r.result?.status?.state ?? '')) break;
    await sleep(250);
  }
  const readers = Array.from({ length: n }, () => unread('GetTask'));
  const got = await Promise.all([...subscribers, ...readers]);
  return got.map((g, i) => ({ ...g, label: `${i < n ? 'subscribe' : 'get'}: ${g.label}` }));
}
