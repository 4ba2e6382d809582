/**
 * Shared by the connection tests: an echo agent started with `listen()` (HTTP/1.1 and its gRPC
 * listener, both on 127.0.0.1:0) and raw clients — node:http2 sessions that speak gRPC frame by frame,
 * and bare TCP sockets — that report what the server did to them. Every wait is bounded.
 */
import { connect as h2connect, constants, type ClientHttp2Session } from 'node:http2';
import { connect as netConnect, type Socket } from 'node:net';
import { after } from 'node:test';
import { randomUUID } from 'node:crypto';
import { GRPC_METHODS, encodeFramed } from '../src/protocol/grpc/index.js';
import {
  createAgentServer,
  silentLogger,
  type AgentGrpcOptions,
  type AgentServer,
  type AgentServerOptions,
} from '../src/server/index.js';
import { options } from './mount-fixture.js';

/** Upper bound of any single wait. */
export const BOUND_MS = 10_000;
export const KIB = 1024;

const servers: AgentServer[] = [];
after(async () => {
  for (const s of servers.splice(0)) await s.close(200);
});

/** A running agent: its HTTP origin and gRPC url. */
export interface ConnAgent {
  origin: string;
  grpcUrl: string;
  port: number;
  grpcPort: number;
}

/** The echo agent with `listen()`, the gRPC listener configured by `grpc`, HTTP by `http`. */
export async function startConnAgent(
  grpc: AgentGrpcOptions = {},
  http: Partial<AgentServerOptions> = {},
): Promise<ConnAgent> {
  const server = createAgentServer(options({ logger: silentLogger, grpc, ...http }));
  servers.push(server);
  const origin = await server.listen(0);
  const g = server.grpc!;
  return { origin, grpcUrl: g.url, port: Number(new URL(origin).port), grpcPort: g.port };
}

/** A framed SendMessage request whose one text part is `size` characters. */
export function sendMessageFrame(size = 5): Buffer {
  return encodeFramed(GRPC_METHODS.SendMessage.request, {
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts: [{ text: 'x'.repeat(size) }] },
  });
}

/** An HTTP/2 session, resolved once connected (or undefined when the server closed it first). */
export function openSession(url: string): Promise<ClientHttp2Session | undefined> {
  const session = h2connect(url);
  session.on('error', () => {});
  return new Promise((resolve) => {
    const bound = setTimeout(() => done(false), BOUND_MS);
    const done = (ok: boolean): void => {
      clearTimeout(bound);
      if (!ok) session.destroy();
      resolve(ok ? session : undefined);
    };
    // Connected means the server's SETTINGS arrived: it read our preface and kept the connection.
    session.once('remoteSettings', () => done(true));
    session.once('close', () => done(false));
  });
}

/** How a session ended: whether the server said GOAWAY (and with which code) before it closed. */
export function sessionEnd(
  session: ClientHttp2Session,
): Promise<{ closed: boolean; goaway: number | undefined }> {
  return new Promise((resolve) => {
    let goaway: number | undefined;
    if (session.closed || session.destroyed) return resolve({ closed: true, goaway });
    const bound = setTimeout(() => resolve({ closed: false, goaway }), BOUND_MS);
    session.on('goaway', (code: number) => (goaway = code));
    session.once('close', () => {
      clearTimeout(bound);
      resolve({ closed: true, goaway });
    });
  });
}

/** A gRPC status as the client saw it; `status` undefined when the stream ended without one. */
export interface CallResult {
  status: string | undefined;
  message: string | undefined;
  /** The RST_STREAM code the stream ended with (0 = NO_ERROR). */
  rstCode: number | undefined;
}

/** A started call: `sent` when its bytes are on the wire, `done` with its status. */
export interface OpenCall {
  sent: Promise<void>;
  done: Promise<CallResult>;
  cancel(): void;
}

/**
 * Start a SendMessage call on `session` writing `body`; `end` finishes the request, else it stays
 * unfinished (the server is left waiting for the rest).
 */
export function startCall(session: ClientHttp2Session, body: Buffer, end: boolean): OpenCall {
  const stream = session.request(
    {
      ':method': 'POST',
      ':path': GRPC_METHODS.SendMessage.path,
      'content-type': 'application/grpc',
      'a2a-version': '1.0',
      te: 'trailers',
    },
    { endStream: false },
  );
  stream.on('error', () => {});
  const sent = new Promise<void>((resolve) => {
    stream.write(body, () => resolve());
    if (end) stream.end();
  });
  const done = new Promise<CallResult>((resolve) => {
    let status: string | undefined;
    let message: string | undefined;
    const bound = setTimeout(() => finish(), BOUND_MS);
    const read = (h: Record<string, unknown>): void => {
      if (h['grpc-status'] !== undefined) {
        status = String(h['grpc-status']);
        message = h['grpc-message'] === undefined ? undefined : String(h['grpc-message']);
      }
    };
    function finish(): void {
      clearTimeout(bound);
      resolve({ status, message: message && decodeURIComponent(message), rstCode: stream.rstCode });
    }
    stream.on('response', read);
    stream.on('trailers', read);
    stream.resume();
    stream.once('close', finish);
  });
  return { sent, done, cancel: () => stream.close(constants.NGHTTP2_CANCEL) };
}

/** A unary SendMessage of `size` characters, finished; resolves with its status. */
export function call(session: ClientHttp2Session, size = 5): Promise<CallResult> {
  return startCall(session, sendMessageFrame(size), true).done;
}

/**
 * The first `bytes` of a request announcing a message of `announced` bytes, never finished; `sent`
 * resolves when they are on the wire.
 */
export function unfinishedCall(
  session: ClientHttp2Session,
  announced: number,
  bytes: number,
): OpenCall {
  const body = Buffer.alloc(bytes, 0x61);
  body[0] = 0;
  body.writeUInt32BE(announced, 1);
  return startCall(session, body, false);
}

/** A PING answered: the server has read every frame sent on the connection before it. */
export function pinged(session: ClientHttp2Session): Promise<void> {
  return new Promise((resolve, reject) => session.ping((err) => (err ? reject(err) : resolve())));
}

/** A bare TCP connection, resolved once connected. */
export function rawSocket(port: number, send?: string | Buffer): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = netConnect(port, '127.0.0.1', () => {
      if (send !== undefined) socket.write(send);
      resolve(socket);
    });
    socket.once('error', reject);
  });
}

/** Whether the server closed `socket` (within the bound), and what it sent before. */
export function socketEnd(socket: Socket): Promise<{ closed: boolean; received: number }> {
  return new Promise((resolve) => {
    let received = 0;
    socket.on('error', () => {});
    if (socket.destroyed) return resolve({ closed: true, received });
    const bound = setTimeout(() => resolve({ closed: false, received }), BOUND_MS);
    socket.on('data', (d: Buffer) => (received += d.length));
    socket.once('close', () => {
      clearTimeout(bound);
      resolve({ closed: true, received });
    });
  });
}

/**
 * Try `attempt` until it returns true, at most `times` times, 25 ms apart: for what the server learns
 * asynchronously (a peer's hang-up reaches it a moment after the client's own close).
 */
export async function eventually(attempt: () => Promise<boolean>, times = 80): Promise<boolean> {
  for (let i = 0; i < times; i++) {
    if (await attempt()) return true;
    await new Promise((r) => setTimeout(r, 25));
  }
  return false;
}
