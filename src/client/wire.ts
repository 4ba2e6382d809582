/** Request headers and response shapes common to the HTTP-based bindings. */
import {
  A2AError,
  HEADER_EXTENSIONS,
  HEADER_VERSION,
  PROTOCOL_VERSION,
  type StreamResponse,
} from '../protocol/index.js';
import { A2AClientError } from './errors.js';
import type { TransportRequest } from './transport.js';

const STREAM_KINDS = ['task', 'message', 'statusUpdate', 'artifactUpdate'] as const;

/** Headers every A2A request carries (§3.6.1, §9.2, §11.2), plus the per-call ones. */
export function a2aHeaders(
  req: TransportRequest,
  contentType: string | undefined,
  accept: string,
): Record<string, string> {
  const h: Record<string, string> = { [HEADER_VERSION]: PROTOCOL_VERSION, Accept: accept };
  if (contentType) h['Content-Type'] = contentType;
  if (req.extensions && req.extensions.length > 0) h[HEADER_EXTENSIONS] = req.extensions.join(',');
  if (req.lastEventId !== undefined) h['Last-Event-ID'] = req.lastEventId;
  return { ...h, ...req.headers };
}

/** Appends query parameters to a URL string. */
export function withQuery(
  url: string,
  query: Record<string, string | string[]> | undefined,
): string {
  if (!query || Object.keys(query).length === 0) return url;
  const u = new URL(url);
  for (const [k, v] of Object.entries(query)) {
    for (const one of Array.isArray(v) ? v : [v]) u.searchParams.append(k, one);
  }
  return u.toString();
}

/** Checks that a value is a StreamResponse (exactly one known member) before handing it on. */
export function asStreamResponse(value: unknown, what: string): StreamResponse {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const present = STREAM_KINDS.filter((k) => (value as Record<string, unknown>)[k] !== undefined);
    if (present.length === 1) return value as StreamResponse;
  }
  const shown = JSON.stringify(value);
  throw new A2AClientError(
    'BAD_RESPONSE',
    `${what}: stream event is not a StreamResponse (expected exactly one of ${STREAM_KINDS.join(', ')}): ${
      shown && shown.length > 200 ? `${shown.slice(0, 200)}…` : shown
    }`,
  );
}

/** HTTP facts about a failed response that the client needs later (e.g. the 401 challenge). */
export interface HttpFailureInfo {
  status: number;
  wwwAuthenticate: string | null;
}
const failureInfo = new WeakMap<object, HttpFailureInfo>();

/** Remembers which HTTP response an error came from. */
export function tagHttpFailure<E extends object>(err: E, res: Response): E {
  failureInfo.set(err, {
    status: res.status,
    wwwAuthenticate: res.headers.get('www-authenticate'),
  });
  return err;
}

/** The HTTP response an error came from, if a transport recorded it. */
export function httpFailureOf(err: unknown): HttpFailureInfo | undefined {
  return typeof err === 'object' && err !== null ? failureInfo.get(err) : undefined;
}

/** An error for 401/403 answers that carry no A2A error body. */
export function authFailure(res: Response, what: string, url: string): A2AError {
  const kind = res.status === 401 ? 'Unauthenticated' : 'PermissionDenied';
  const challenge = res.headers.get('www-authenticate');
  const msg =
    res.status === 401
      ? `${what}: ${url} requires authentication (HTTP 401${challenge ? `, challenge: ${challenge}` : ''}); supply credentials for the card's security scheme`
      : `${what}: ${url} refused the request (HTTP 403); the credentials lack the needed permission`;
  return tagHttpFailure(new A2AError(kind, msg), res);
}
