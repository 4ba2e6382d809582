/**
 * Attacks made of whole requests: oversized or metadata-stuffed follow-ups, amplification bodies (many
 * empty parts), text built to make the agents' parsers backtrack, forged JWTs and credential-less large
 * bodies to the deployer, large gRPC bodies. Each resolves a list of `{ label, ms }` outcomes.
 */
import { performance } from 'node:perf_hooks';
import { createHmac, randomBytes } from 'node:crypto';
import { grpcPrefix, h2Call, h2Session, jsonRpc, msg, rawHttp } from './wire.mjs';

/** Per exchange, the time left of the round (at least a second); loops stop when it is over. */
const clock = (holdMs) => {
  const end = Date.now() + holdMs;
  return { open: () => Date.now() < end, left: () => Math.max(1000, end - Date.now()) };
};

/** Names of the JSON-RPC error codes the agents answer with, for the report. */
const CODES = {
  [-32700]: 'ParseError',
  [-32600]: 'InvalidRequest',
  [-32602]: 'InvalidParams',
  [-32603]: 'Internal',
  [-32001]: 'TaskNotFound',
  [-32002]: 'TaskNotCancelable',
  [-32004]: 'UnsupportedOperation',
  [-32010]: 'Unauthenticated',
  [-32012]: 'Unavailable',
};

const post = (port, body, holdMs, headers = {}, path = '/a2a/jsonrpc') =>
  rawHttp({ port, path, body, headers, holdMs });

/** A JSON-RPC call through fetch, labelled by status and the task's state or the error code. */
async function call(port, method, params, holdMs, headers = {}) {
  const t0 = performance.now();
  try {
    const res = await fetch(`http://127.0.0.1:${port}/a2a/jsonrpc`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
      body: jsonRpc(method, params),
      signal: AbortSignal.timeout(holdMs),
    });
    const text = await res.text();
    let what = '';
    try {
      const body = JSON.parse(text);
      what = body.error
        ? ` error ${body.error.code}${CODES[body.error.code] ? ` ${CODES[body.error.code]}` : ''}`
        : ` ${(body.result?.task?.status?.state ?? 'message').replace('TASK_STATE_', '')}`;
    } catch {
      what = '';
    }
    return { label: `HTTP ${res.status}${what}`, ms: performance.now() - t0 };
  } catch (err) {
    return { label: `error ${err.name}`, ms: performance.now() - t0 };
  }
}

/** Follow-ups to a finished test-runner task: over the body limit, and stuffed with metadata under it. */
export async function stuffedFollowUps({ port, n, oversizedBytes, metadataKeys, holdMs }) {
  const t = clock(holdMs);
  const first = await call(port, 'SendMessage', { message: msg('hello') }, holdMs);
  const made = await fetch(`http://127.0.0.1:${port}/a2a/rest/tasks?pageSize=1`, {
    headers: { 'a2a-version': '1.0' },
  }).then(
    (r) => r.json(),
    () => ({}),
  );
  const taskId = made.tasks?.[0]?.id ?? 'no-such-task';
  const metadata = Object.fromEntries(
    Array.from({ length: metadataKeys }, (_, i) => [`k${i}`, { v: [i, `${i}`] }]),
  );
  const out = [{ ...first, label: `setup: ${first.label}` }];
  for (let i = 0; i < n && t.open(); i++) {
    const stuffed = i % 2 === 0;
    const params = {
      message: msg(stuffed ? 'again' : 'x'.repeat(oversizedBytes), { taskId, metadata }),
      metadata,
    };
    // Under the body limit an ordinary client sends it; over it, a raw socket sees the early refusal.
    const r = stuffed
      ? await call(port, 'SendMessage', params, t.left())
      : await post(port, jsonRpc('SendMessage', params), t.left());
    out.push({ ...r, label: `${stuffed ? 'metadata-stuffed' : 'oversized'}: ${r.label}` });
  }
  return out;
}

/** Messages of `parts` empty text parts each, to the test-runner and the reviewer in turn. */
export async function amplification({ ports, n, parts, holdMs }) {
  const message = msg('', { parts: Array.from({ length: parts }, () => ({ text: '' })) });
  const out = [];
  const t = clock(holdMs);
  for (let i = 0; i < n && t.open(); i++)
    out.push(await call(ports[i % 2], 'SendMessage', { message }, t.left()));
  return out;
}

/** Text that made the agents' sentence parser and code hints backtrack (issue 28), to each agent. */
export function adversarialTexts(scale = 1) {
  return {
    'test a␣×200k b': `test a${' '.repeat(200_000 * scale)}b`,
    'a ⏎×150k': `a${'\n'.repeat(150_000 * scale)}`,
    'a( ×100k': 'a('.repeat(100_000 * scale),
    'review ␣×200k x': `review ${' '.repeat(200_000 * scale)}x`,
  };
}

/** Every adversarial text to the test-runner and the reviewer, one call each, labelled by text. */
export async function parserTexts({ ports, scale, holdMs }) {
  const out = [];
  const t = clock(holdMs);
  for (const [name, text] of Object.entries(adversarialTexts(scale))) {
    for (const [agent, port] of [
      ['runner', ports[0]],
      ['reviewer', ports[1]],
    ]) {
      if (!t.open()) break;
      const r = await call(port, 'SendMessage', { message: msg(text) }, t.left());
      out.push({ ...r, label: `${agent} "${name}": ${r.label}` });
    }
  }
  return out;
}

const b64 = (x) => Buffer.from(typeof x === 'string' ? x : JSON.stringify(x)).toString('base64url');

/** Bearer tokens an attacker might try: HS256 JWTs with guessed keys, alg none, random bytes. */
export function forgedTokens() {
  const claims = { sub: 'deployer-operator', exp: Math.floor(Date.now() / 1000) + 3600 };
  const hs256 = (key) => {
    const head = `${b64({ alg: 'HS256', typ: 'JWT' })}.${b64(claims)}`;
    return `${head}.${createHmac('sha256', key).update(head).digest('base64url')}`;
  };
  return [
    hs256('secret'),
    hs256(''),
    hs256('deployer'),
    `${b64({ alg: 'none', typ: 'JWT' })}.${b64(claims)}.`,
    randomBytes(32).toString('base64url'),
  ];
}

/** Deploy requests with forged bearer tokens. */
export async function forgedJwts({ port, n, holdMs }) {
  const tokens = forgedTokens();
  const out = [];
  const t = clock(holdMs);
  for (let i = 0; i < n && t.open(); i++) {
    const authorization = `Bearer ${tokens[i % tokens.length]}`;
    const params = { message: msg('deploy change-ok to staging') };
    out.push(await call(port, 'SendMessage', params, t.left(), { authorization }));
  }
  return out;
}

/** Large bodies without credentials to the deployer, on JSON-RPC and on HTTP+JSON. */
export async function unauthLargeBodies({ port, n, bytes, holdMs }) {
  const body = jsonRpc('SendMessage', { message: msg('x'.repeat(bytes)) });
  const out = [];
  const t = clock(holdMs);
  for (let i = 0; i < n && t.open(); i++) {
    const path = i % 2 ? '/a2a/rest/message:send' : '/a2a/jsonrpc';
    const r = await post(port, body, t.left(), {}, path);
    out.push({ ...r, label: `${i % 2 ? 'rest' : 'jsonrpc'}: ${r.label}` });
  }
  return out;
}

/** gRPC calls without credentials whose frame declares and carries `bytes` (the kit's only gRPC port). */
export async function grpcLargeBodies({ grpcPort, n, bytes, holdMs }) {
  const session = await h2Session(grpcPort);
  if (!session) return [{ label: 'could not connect' }];
  const body = Buffer.concat([grpcPrefix(bytes), Buffer.alloc(bytes, 0x0a)]);
  const out = [];
  const t = clock(holdMs);
  for (let i = 0; i < n && t.open(); i++)
    out.push(await h2Call(session, { body, holdMs: t.left() }));
  session.destroy();
  return out;
}
