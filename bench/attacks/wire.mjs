/**
 * Raw HTTP/1.1 and HTTP/2 exchanges for the attack mix: requests a well-behaved client never sends
 * (declared bodies that never arrive, answers never read), each resolving to a short label of how the
 * server answered — `HTTP 401`, `grpc-status 8`, `RST 2`, `closed by server`, `open at the round end` — which
 * the report counts. Every exchange ends by its own `holdMs` at the latest.
 */
import { performance } from 'node:perf_hooks';
import net from 'node:net';
import http2 from 'node:http2';

const HOST = '127.0.0.1';

/**
 * One HTTP/1.1 request on its own connection. `body` is sent (all of it, or `sendBytes` of it) after a
 * head declaring `declared` bytes (default: the body's length). `read: false` never reads the answer.
 * Resolves `{ label, ms }`: the status line's code, or what happened to the connection instead.
 */
export function rawHttp({
  port,
  path,
  headers = {},
  body = '',
  declared,
  sendBytes,
  read = true,
  holdMs,
}) {
  const buf = Buffer.isBuffer(body) ? body : Buffer.from(body);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = net.connect(port, HOST);
    let settled = false;
    let head = '';
    const done = (label) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ label, ms: performance.now() - t0 });
    };
    const timer = setTimeout(
      () => done(read ? 'no answer by the round end' : 'held unread to the round end'),
      holdMs,
    );
    socket.on('connect', () => {
      const lines = [
        `POST ${path} HTTP/1.1`,
        `host: ${HOST}:${port}`,
        'content-type: application/json',
        'a2a-version: 1.0',
        `content-length: ${declared ?? buf.length}`,
        ...Object.entries(headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
      socket.write(sendBytes === undefined ? buf : buf.subarray(0, sendBytes), () => {});
      if (!read) socket.pause();
    });
    socket.on('data', (chunk) => {
      head += chunk.toString('latin1', 0, Math.min(chunk.length, 64));
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(head);
      if (m) done(`HTTP ${m[1]}`);
    });
    socket.on('end', () => done('closed by server'));
    socket.on('error', (err) => done(`error ${err.code ?? err.message}`));
    socket.on('close', () => done('closed by server'));
  });
}

/** An HTTP/2 session to a gRPC port; `null` when it cannot connect within `ms`. */
export function h2Session(port, ms = 5000) {
  return new Promise((resolve) => {
    const session = http2.connect(`http://${HOST}:${port}`);
    const t = setTimeout(() => {
      session.destroy();
      resolve(null);
    }, ms);
    session.on('error', () => undefined);
    session.once('connect', () => {
      clearTimeout(t);
      resolve(session);
    });
    session.once('close', () => {
      clearTimeout(t);
      resolve(null);
    });
  });
}

/** A gRPC frame prefix: not compressed, `length` bytes of message declared. */
export const grpcPrefix = (length) => {
  const b = Buffer.alloc(5);
  b.writeUInt32BE(length, 1);
  return b;
};

/**
 * One gRPC call on `session`: `body` is written (and the stream ended when `end`). Resolves `{ label, ms }`:
 * the grpc-status the server ended it with, its RST_STREAM code, or `open at the round end` at `holdMs`.
 */
export function h2Call(
  session,
  { method = 'SendMessage', body, end = true, holdMs, headers = {} },
) {
  const t0 = performance.now();
  return new Promise((resolve) => {
    let status;
    let settled = false;
    const stream = session.request({
      ':method': 'POST',
      ':path': `/lf.a2a.v1.A2AService/${method}`,
      'content-type': 'application/grpc',
      te: 'trailers',
      ...headers,
    });
    const done = (label) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (!stream.destroyed) stream.close(http2.constants.NGHTTP2_CANCEL);
      resolve({ label, ms: performance.now() - t0 });
    };
    const timer = setTimeout(() => done('open at the round end'), holdMs);
    const grpc = (h) => {
      if (h['grpc-status'] !== undefined) status = `grpc-status ${h['grpc-status']}`;
    };
    stream.on('response', (h) => {
      grpc(h);
      if (h[':status'] !== 200) status = `HTTP/2 ${h[':status']}`;
    });
    stream.on('trailers', grpc);
    stream.on('data', () => undefined);
    stream.on('error', () => undefined);
    stream.on('close', () =>
      done(status ?? (stream.rstCode ? `RST ${stream.rstCode}` : 'closed without status')),
    );
    stream.write(body, () => {});
    if (end) stream.end();
  });
}

/** A JSON-RPC request body. */
export const jsonRpc = (method, params, id = 1) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, params });

/** A user message; `extra` merged in (metadata, taskId, more parts…). */
export const msg = (text, extra = {}) => ({
  messageId: `attack-${Math.random().toString(36).slice(2)}`,
  role: 'ROLE_USER',
  parts: [{ text }],
  ...extra,
});
