/**
 * The client side of push notifications (spec §4.3.3, §13.2): an HTTP endpoint that authenticates each
 * notification, checks it belongs to a task the client expects, parses it into a typed StreamResponse
 * and hands it to the application, acknowledging with 204 only after the handler has finished.
 *
 * Usable as a node:http listener or as a fetch-style handler (`(Request) => Response`). Published as
 * `a2a-kit/client/push-receiver`.
 *
 * @packageDocumentation
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBounded } from '../protocol/body.js';
import type { StreamResponse } from '../protocol/index.js';
import {
  constantTimeEqual,
  createSignatureVerifier,
  parsePushEvent,
  PUSH_ID_HEADER,
  PUSH_SIGNATURE_HEADER,
  PUSH_TOKEN_HEADER,
  type PushEventKind,
  type PushVerifyKeys,
  type VerifiedSignature,
} from './push-verify.js';

export type { PushEventKind, PushVerifyKeys, VerifiedSignature } from './push-verify.js';

/** A fixed secret, or one per task (return undefined for a task you do not know). */
export type PushSecret = string | ((taskId: string) => string | undefined);

/**
 * How a push receiver authenticates notifications and what it does with them. At least one of
 * `token`, `authorization` or `verifyKeys` is required (the spec asks receivers to authenticate).
 */
export interface PushReceiverOptions {
  /** Expected `X-A2A-Notification-Token` (the config's `token`). */
  token?: PushSecret;
  /** Expected whole `Authorization` header value (the config's `authentication`), e.g. `Bearer abc`. */
  authorization?: PushSecret;
  /** Keys for a2a-kit's optional `X-A2A-Notification-Signature`; when set, unsigned requests are refused. */
  verifyKeys?: PushVerifyKeys;
  /** Replay window for signatures. Default 300 s. */
  signatureMaxAgeSeconds?: number;
  /** Whether a task id is one this client created; `false` → 404. */
  expectTask?: (taskId: string) => boolean | Promise<boolean>;
  /** Receives each accepted event; the sender gets 204 once it resolves, 500 if it throws (and will retry). */
  onEvent: (event: StreamResponse, meta: PushEventMeta) => void | Promise<void>;
  /** Largest accepted body. Default 1 MiB. */
  maxBodyBytes?: number;
  /** Accept notifications with no token, authorization or signature check. Default false (the spec requires one). */
  allowUnauthenticated?: boolean;
}

/** Facts about an accepted notification. */
export interface PushEventMeta {
  /** The task the event belongs to. */
  taskId: string;
  /** Which member of the StreamResponse the event carries. */
  kind: PushEventKind;
  /** `X-A2A-Notification-Id` (same on retries: use it to drop duplicates). */
  notificationId?: string;
  /** What the signature said, when `verifyKeys` checked one. */
  signature?: VerifiedSignature;
  /** The request's headers, e.g. for your own tracing. */
  headers: Headers;
}

/** The two ways to mount a receiver: answer every request at the webhook URL with one of them. */
export interface PushReceiver {
  /** A node:http request listener (also an Express / Connect handler). */
  listener: (req: IncomingMessage, res: ServerResponse) => void;
  /** A fetch-style handler for Web-standard hosts (Hono, Deno, Bun, workers). */
  fetch: (req: Request) => Promise<Response>;
}

interface Reply {
  status: number;
  error?: string;
}

type BodyResult = Uint8Array | 'too-large';

/**
 * Builds the webhook endpoint that receives an agent's push notifications (§4.3.3): each request is
 * authenticated (token, `Authorization` or signature), checked to name a task you expect, parsed
 * into a `StreamResponse` and handed to `onEvent`; the agent gets 204 once `onEvent` has finished.
 * Throws if no way to authenticate notifications is configured (unless `allowUnauthenticated`).
 *
 * @example
 * ```ts
 * import { createServer } from 'node:http';
 * import { randomUUID } from 'node:crypto';
 * import { A2AClient, userMessage } from 'a2a-kit/client';
 * import { createPushReceiver } from 'a2a-kit/client/push-receiver';
 *
 * // One secret for this client's webhooks; `expectTask` can also refuse tasks you did not start.
 * const token = randomUUID();
 * const receiver = createPushReceiver({
 *   token,
 *   onEvent: (event, meta) => {
 *     if ('statusUpdate' in event) process.stdout.write(`${meta.taskId} ${event.statusUpdate.status.state}\n`);
 *   },
 * });
 * // Node's defaults give a sender that trickles its request minutes; a webhook open to the world wants less.
 * const server = createServer({ headersTimeout: 10_000, requestTimeout: 30_000 }, receiver.listener);
 * server.maxConnections = 256;
 * server.listen(8090);
 *
 * // The agent needs `capabilities.pushNotifications`; the webhook is registered with the message.
 * const client = await A2AClient.connect('http://localhost:41241');
 * await client.sendMessage({
 *   message: userMessage('a long job'),
 *   configuration: { returnImmediately: true, taskPushNotificationConfig: { url: 'http://localhost:8090/a2a-push', token } },
 * });
 * ```
 */
export function createPushReceiver(opts: PushReceiverOptions): PushReceiver {
  if (!opts.token && !opts.authorization && !opts.verifyKeys && !opts.allowUnauthenticated) {
    throw new Error(
      'push receiver: configure token, authorization or verifyKeys (or set allowUnauthenticated)',
    );
  }
  const maxBody = opts.maxBodyBytes ?? 1024 * 1024;
  const verifySignature = opts.verifyKeys
    ? createSignatureVerifier(opts.verifyKeys, {
        maxAgeSeconds: opts.signatureMaxAgeSeconds ?? 300,
      })
    : undefined;

  const secretOk = (
    expected: PushSecret | undefined,
    got: string | null,
    taskId: string | undefined,
  ): boolean => {
    if (expected === undefined) return true;
    const want =
      typeof expected === 'string' ? expected : taskId === undefined ? undefined : expected(taskId);
    return want !== undefined && got !== null && constantTimeEqual(got, want);
  };

  async function handle(
    method: string,
    headers: Headers,
    readBody: () => Promise<BodyResult>,
  ): Promise<Reply> {
    if (method !== 'POST') return { status: 405, error: 'only POST is accepted' };
    const body = await readBody();
    if (body === 'too-large') return { status: 413, error: `body exceeds ${maxBody} bytes` };
    let signature: VerifiedSignature | undefined;
    if (verifySignature) {
      const header = headers.get(PUSH_SIGNATURE_HEADER);
      if (!header) return { status: 401, error: 'missing signature' };
      try {
        signature = await verifySignature(header, body);
      } catch (e) {
        return { status: 401, error: (e as Error).message };
      }
    }
    // Fixed secrets are checked before parsing so unauthenticated callers learn nothing about the body.
    const token = headers.get(PUSH_TOKEN_HEADER);
    const authorization = headers.get('authorization');
    if (typeof opts.token === 'string' && !secretOk(opts.token, token, undefined))
      return { status: 401, error: 'bad token' };
    if (
      typeof opts.authorization === 'string' &&
      !secretOk(opts.authorization, authorization, undefined)
    ) {
      return { status: 401, error: 'bad authorization' };
    }
    const parsed = parsePushEvent(Buffer.from(body).toString('utf8'));
    if (!parsed.ok) return { status: 400, error: parsed.error };
    if (parsed.taskId === undefined) return { status: 400, error: 'the event names no task' };
    const taskId = parsed.taskId;
    if (!secretOk(opts.token, token, taskId)) return { status: 401, error: 'bad token' };
    if (!secretOk(opts.authorization, authorization, taskId))
      return { status: 401, error: 'bad authorization' };
    if (opts.expectTask && !(await opts.expectTask(taskId)))
      return { status: 404, error: 'unknown task' };
    const notificationId = headers.get(PUSH_ID_HEADER) ?? signature?.jti;
    const meta: PushEventMeta = {
      taskId,
      kind: parsed.kind,
      headers,
      ...(notificationId ? { notificationId } : {}),
      ...(signature ? { signature } : {}),
    };
    try {
      await opts.onEvent(parsed.event, meta);
    } catch {
      return { status: 500, error: 'handler failed' };
    }
    return { status: 204 };
  }

  const listener = (req: IncomingMessage, res: ServerResponse): void => {
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) {
      if (v !== undefined) headers.set(k, Array.isArray(v) ? v.join(', ') : v);
    }
    const readBody = () =>
      new Promise<BodyResult>((resolve, reject) => {
        const declared = Number(req.headers['content-length'] ?? 0);
        if (declared > maxBody) return resolve('too-large');
        const chunks: Buffer[] = [];
        let size = 0;
        req.on('data', (c: Buffer) => {
          size += c.byteLength;
          if (size > maxBody) {
            req.pause();
            resolve('too-large');
          } else chunks.push(c);
        });
        req.on('end', () => resolve(Buffer.concat(chunks)));
        req.on('error', reject);
      });
    handle(req.method ?? 'GET', headers, readBody).then(
      (reply) => writeNode(res, reply),
      () => writeNode(res, { status: 400, error: 'could not read the request' }),
    );
  };

  const fetchHandler = async (req: Request): Promise<Response> => {
    const readBody = async (): Promise<BodyResult> =>
      (await readBounded(req.body, maxBody, req.headers.get('content-length'))) ?? 'too-large';
    let reply: Reply;
    try {
      reply = await handle(req.method, req.headers, readBody);
    } catch {
      reply = { status: 400, error: 'could not read the request' };
    }
    if (reply.status === 204) return new Response(null, { status: 204 });
    return Response.json(
      { error: reply.error },
      { status: reply.status, headers: extraHeaders(reply) },
    );
  };

  return { listener, fetch: fetchHandler };
}

function extraHeaders(reply: Reply): Record<string, string> {
  return reply.status === 405 ? { Allow: 'POST' } : {};
}

function writeNode(res: ServerResponse, reply: Reply): void {
  if (reply.status === 204) {
    res.writeHead(204).end();
    return;
  }
  const body = JSON.stringify({ error: reply.error });
  const headers: Record<string, string | number> = {
    'Content-Type': 'application/json',
    'Content-Length': Buffer.byteLength(body),
    ...extraHeaders(reply),
  };
  // An unread oversized body would otherwise be parsed as the next request on a keep-alive connection.
  if (reply.status === 413) headers['Connection'] = 'close';
  res.writeHead(reply.status, headers).end(body);
}
