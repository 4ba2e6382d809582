/**
 * The inspector server's HTTP plumbing: JSON in and out, errors as JSON the page can show, and the
 * guard that keeps other web pages out. The inspector fetches whatever URL it is given and holds
 * credentials, so only its own page may drive it: the Host must be one of its own names (no DNS
 * rebinding), an API request must not come from another page, a POST must show that it came from
 * the inspector's own page and be JSON (which a foreign page cannot send without a preflight the
 * inspector never answers).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isA2AClientError, isA2AError } from 'a2a-kit/client';
import { BadRequest, CardRefused } from './errors.js';

/** Largest JSON body the page may send (a file attached to a message travels inside it). */
export const MAX_BODY_BYTES = 12 * 1024 * 1024;

/** Reads a JSON object body; throws {@link BadRequest} for anything else. */
export async function readJson(req: IncomingMessage): Promise<Record<string, unknown>> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (type !== 'application/json')
    throw new BadRequest('send JSON (Content-Type: application/json)');
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES)
      throw new BadRequest(`the request is larger than ${MAX_BODY_BYTES / 1024 / 1024} MiB`);
    chunks.push(chunk as Buffer);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}');
  } catch {
    throw new BadRequest('the body is not JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new BadRequest('the body must be a JSON object');
  return parsed as Record<string, unknown>;
}

/** Answers with JSON; never cached (it is the session's live state). */
export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/**
 * An error as the page shows it. Errors from the agent keep their A2A kind and code; errors of this
 * side keep the client's code; the HTTP status says whose fault it was (400 the page, 502 the agent).
 */
export function sendError(res: ServerResponse, err: unknown): void {
  if (err instanceof BadRequest) return sendJson(res, 400, { error: { message: err.message } });
  if (err instanceof CardRefused)
    return sendJson(res, 502, {
      error: { message: err.message, code: err.refusal.code, findings: err.findings },
    });
  if (isA2AError(err)) {
    return sendJson(res, 502, {
      error: {
        message: err.message,
        kind: err.kind,
        code: err.spec.jsonRpcCode,
        httpStatus: err.spec.httpStatus,
        details: err.details,
      },
    });
  }
  if (isA2AClientError(err)) {
    return sendJson(res, 502, {
      error: {
        message: err.message,
        code: err.code,
        ...(err.status !== undefined ? { httpStatus: err.status } : {}),
      },
    });
  }
  const message = err instanceof Error ? err.message : String(err);
  sendJson(res, 400, { error: { message } });
}

const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];

/** Whether `host` (an address the server listens on) is a loopback one. */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || host === '[::1]' || host.startsWith('127.');
}

/**
 * The Host values the inspector answers to: its loopback names on its port, or anything when it
 * was asked to listen on another interface (then the Origin check still applies).
 */
export function hostGuard(host: string, port: number): (value: string | undefined) => boolean {
  if (!isLoopback(host)) return () => true;
  const allowed = new Set(
    [...LOOPBACK_NAMES, host.includes(':') && !host.startsWith('[') ? `[${host}]` : host].map(
      (h) => `${h}:${port}`,
    ),
  );
  return (value) => value !== undefined && allowed.has(value.toLowerCase());
}

/**
 * The header the page sends with each of its calls. A page of another origin cannot send it: a custom
 * header makes the browser ask first (a CORS preflight), and the inspector never says yes.
 */
export const PAGE_HEADER = 'x-a2a-inspector';

/**
 * Who made a request, as far as the browser says: `own` — the inspector's page (its Origin, its
 * header, or `Sec-Fetch-Site: same-origin`); `foreign` — another page, even one on another port of
 * this machine (same site, other origin); `unknown` — nothing says (an old browser's plain GET, an
 * image tag without fetch metadata, a command-line tool).
 */
export function requestSource(req: IncomingMessage): 'own' | 'foreign' | 'unknown' {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  if (origin !== undefined && origin !== `http://${req.headers.host}`) return 'foreign';
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return 'foreign';
  if (origin !== undefined || site === 'same-origin' || req.headers[PAGE_HEADER] !== undefined)
    return 'own';
  return 'unknown';
}

/** Refuses a Host that is not one of the inspector's names (DNS rebinding); answers the refusal itself. */
export function guard(
  req: IncomingMessage,
  res: ServerResponse,
  hostOk: (h: string | undefined) => boolean,
): boolean {
  const host = req.headers.host;
  if (!hostOk(host)) {
    sendJson(res, 421, {
      error: { message: `this inspector does not answer to Host ${host ?? '(none)'}` },
    });
    return false;
  }
  return true;
}

/**
 * Why an API request is refused, or undefined when it may go on: another page never reaches the API,
 * and a request that changes something (any POST) must show it came from the inspector's page.
 */
export function apiRefusal(req: IncomingMessage): string | undefined {
  const source = requestSource(req);
  if (source === 'foreign') return 'requests from other web pages are refused';
  if (req.method !== 'GET' && source !== 'own')
    return `a request that changes something must come from the inspector's page (same Origin, or the ${PAGE_HEADER} header)`;
  return undefined;
}

/** The value of one cookie. */
export function cookie(req: IncomingMessage, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}
