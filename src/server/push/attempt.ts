/**
 * One delivery attempt of one notification: the SSRF check, the headers, the POST, and what the answer
 * means for retrying. The sender ({@link PushSender}) owns ordering, queues and retries; this module
 * owns a single request and nothing that outlives it.
 */
import type { TaskPushNotificationConfig } from '../../protocol/index.js';
import { checkWebhookUrl, type WebhookPolicy } from './ssrf.js';
import type { DeliveryTransport } from './transport.js';
import { parseRetryAfter } from '../../protocol/retry-after.js';
import { isRetryableStatus } from './retry.js';
import { PUSH_SIGNATURE_HEADER, type PushSigner } from './signing.js';
import { PUSH_CONTENT_TYPE, PUSH_ID_HEADER, PUSH_TOKEN_HEADER } from './options.js';

/** What one attempt came to: delivered, or failed and whether trying again may help. */
export type Attempt =
  | { ok: true; status: number }
  | { ok: false; retryable: boolean; status?: number; error: string; retryAfterMs?: number };

/** The notification an attempt sends. */
export interface AttemptTarget {
  /** The notification id, sent in its header and signed with the body. */
  id: string;
  config: TaskPushNotificationConfig;
  /** Set when a wire format chose another body than the 1.0 event. */
  contentType?: string;
}

/** What an attempt needs from the sender that makes it. */
export interface AttemptContext {
  policy: WebhookPolicy;
  send: DeliveryTransport;
  signer: PushSigner | undefined;
  userAgent: string;
  timeoutMs: number;
  maxResponseBytes: number;
  /** Aborted when the sender closes. */
  signal: AbortSignal;
  /** Now, in ms since the epoch (to read an HTTP-date `Retry-After`). */
  now: () => number;
}

// Header values must be visible ASCII (plus space/tab): anything else is a bad config, not a transient fault.
const SAFE_HEADER = /^[\t\x20-\x7e]*$/;

/**
 * The request headers for `target`, or `undefined` when its token or authentication could not be sent
 * as a header. `extra` (a tracer's propagation headers) adds only names not set already, and only safe values.
 */
function headersFor(
  target: AttemptTarget,
  userAgent: string,
  extra: Record<string, string> | undefined,
): Record<string, string> | undefined {
  const { config } = target;
  const headers: Record<string, string> = {
    'Content-Type': target.contentType ?? PUSH_CONTENT_TYPE,
    'User-Agent': userAgent,
    [PUSH_ID_HEADER]: target.id,
  };
  if (config.authentication) {
    const { scheme, credentials } = config.authentication;
    headers['Authorization'] = credentials ? `${scheme} ${credentials}` : scheme;
  }
  if (config.token !== undefined && config.token !== '') headers[PUSH_TOKEN_HEADER] = config.token;
  if (!Object.values(headers).every((v) => SAFE_HEADER.test(v))) return undefined;
  if (extra) {
    for (const [k, v] of Object.entries(extra))
      if (!(k in headers) && SAFE_HEADER.test(v)) headers[k] = v;
  }
  return headers;
}

/** What a webhook's status means: 2xx delivered, 3xx and most 4xx final, 429/5xx worth retrying. */
function judgeStatus(status: number, retryAfter: string | null | undefined, now: number): Attempt {
  if (status >= 200 && status <= 299) return { ok: true, status };
  if (status >= 300 && status <= 399)
    return {
      ok: false,
      retryable: false,
      status,
      error: `HTTP ${status}: redirects are not followed`,
    };
  if (!isRetryableStatus(status))
    return { ok: false, retryable: false, status, error: `HTTP ${status}` };
  const retryAfterMs = parseRetryAfter(retryAfter, now);
  return {
    ok: false,
    retryable: true,
    status,
    error: `HTTP ${status}`,
    ...(retryAfterMs !== undefined ? { retryAfterMs } : {}),
  };
}

/** Sends `body` once to `target`'s webhook. Never throws: every failure is an {@link Attempt}. */
export async function attemptDelivery(
  target: AttemptTarget,
  body: Buffer,
  ctx: AttemptContext,
  extra?: Record<string, string>,
): Promise<Attempt> {
  const check = await checkWebhookUrl(target.config.url, ctx.policy);
  if (!check.ok)
    return { ok: false, retryable: check.reason === 'resolution-failed', error: check.message };
  const headers = headersFor(target, ctx.userAgent, extra);
  if (!headers) {
    return {
      ok: false,
      retryable: false,
      error: 'token or authentication contains characters not allowed in a header',
    };
  }
  if (ctx.signer) headers[PUSH_SIGNATURE_HEADER] = await ctx.signer.sign(body, target.id);
  try {
    const { status, retryAfter } = await ctx.send({
      url: check.url,
      headers,
      body,
      addresses: check.addresses,
      timeoutMs: ctx.timeoutMs,
      signal: ctx.signal,
      maxResponseBytes: ctx.maxResponseBytes,
    });
    return judgeStatus(status, retryAfter, ctx.now());
  } catch (e) {
    const err = e as { code?: string; message?: string; name?: string };
    const code = err.code ?? err.name ?? 'Error';
    return {
      ok: false,
      retryable: !code.startsWith('ERR_INVALID'),
      error: `${code}: ${err.message ?? ''}`.trim(),
    };
  }
}
