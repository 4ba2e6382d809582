/**
 * Checks on an incoming push notification that need no HTTP: the (a2a-kit, non-standard) detached JWS
 * signature, constant-time secret comparison, and parsing the body into a typed StreamResponse.
 * Kept free of server imports so receivers can ship without the server.
 */
import { createHash, timingSafeEqual, type KeyObject } from 'node:crypto';
import type { CryptoKey, JSONWebKeySet, JWK } from 'jose';
import { jose } from '../protocol/lazy-schemas.js';
import { V03Reader } from '../protocol/v03/to-v10.js';
import type { StreamResponse } from '../protocol/index.js';
import { ASYMMETRIC_ALGORITHMS } from './jws-algorithms.js';

/** Header names used by a2a-kit senders (they mirror src/server/push). */
export { PUSH_ID_HEADER, PUSH_SIGNATURE_HEADER, PUSH_TOKEN_HEADER } from '../protocol/push.js';

/** Keys to trust: a JWKS, a list of public keys, or the URL of the agent's `/.well-known/a2a-push-jwks.json`. */
export type PushVerifyKeys = JSONWebKeySet | ReadonlyArray<CryptoKey | KeyObject | JWK> | URL;

/** What a valid signature told us. */
export interface VerifiedSignature {
  /** The JWS algorithm, e.g. `ES256`. */
  alg: string;
  /** The id of the key that verified it, when the header named one. */
  kid?: string;
  /** Signing time, seconds since the epoch. */
  iat: number;
  /** Notification id (same on every retry of one event). */
  jti?: string;
}

export interface SignatureVerifierOptions {
  /** Oldest acceptable `iat`, against replays. Default 300 s. */
  maxAgeSeconds?: number;
  /** Tolerated clock difference for an `iat` in the future. Default 60 s. */
  clockSkewSeconds?: number;
  now?: () => number;
}

const DETACHED = /^[A-Za-z0-9_-]+\.\.[A-Za-z0-9_-]+$/;

/** Equality of two secrets in time independent of where they differ (hashing first equalises lengths). */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a, 'utf8').digest();
  const hb = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/**
 * Returns a function that verifies a detached-JWS signature header against the exact body bytes and
 * throws (with a reason) when it does not hold.
 */
export function createSignatureVerifier(
  keys: PushVerifyKeys,
  opts: SignatureVerifierOptions = {},
): (header: string, body: Uint8Array) => Promise<VerifiedSignature> {
  const maxAge = opts.maxAgeSeconds ?? 300;
  const skew = opts.clockSkewSeconds ?? 60;
  const now = opts.now ?? Date.now;
  const options = { algorithms: [...ASYMMETRIC_ALGORITHMS] };
  type Verify = (jws: string) => Promise<{ protectedHeader: Record<string, unknown> }>;
  // Made once, with jose, by the first notification checked (jose is not loaded by the import).
  let made: Verify | undefined;
  const verifierOf = ({
    compactVerify,
    createLocalJWKSet,
    createRemoteJWKSet,
  }: typeof import('jose')): Verify => {
    if (keys instanceof URL) {
      const set = createRemoteJWKSet(keys);
      return (jws) => compactVerify(jws, set, options);
    }
    if (!Array.isArray(keys)) {
      const set = createLocalJWKSet(keys as JSONWebKeySet);
      return (jws) => compactVerify(jws, set, options);
    }
    const list = keys as ReadonlyArray<CryptoKey | KeyObject | JWK>;
    return async (jws) => {
      let last: unknown = new Error('no verification keys');
      for (const key of list) {
        try {
          return await compactVerify(jws, key, options);
        } catch (e) {
          last = e;
        }
      }
      throw last;
    };
  };
  const verify: Verify = async (jws) => {
    made ??= verifierOf(jose.now() ?? (await jose.load()));
    return made(jws);
  };
  return async (header, body) => {
    if (!DETACHED.test(header)) throw new Error('signature is not a detached compact JWS');
    const [protectedPart, , signature] = header.split('.');
    const jws = `${protectedPart}.${Buffer.from(body).toString('base64url')}.${signature}`;
    let h: Record<string, unknown>;
    try {
      h = (await verify(jws)).protectedHeader;
    } catch (e) {
      throw new Error(`signature does not verify (${(e as Error).message})`, { cause: e });
    }
    if (h.typ !== 'JOSE') throw new Error('signature typ must be JOSE');
    const digest = createHash('sha256').update(body).digest('base64url');
    if (typeof h.sha256 === 'string' && h.sha256 !== digest)
      throw new Error('signed body hash does not match the body');
    if (typeof h.iat !== 'number') throw new Error('signature has no iat');
    const nowS = Math.floor(now() / 1000);
    if (h.iat < nowS - maxAge) throw new Error('signature is too old');
    if (h.iat > nowS + skew) throw new Error('signature is from the future');
    return {
      alg: String(h.alg),
      iat: h.iat,
      ...(typeof h.kid === 'string' ? { kid: h.kid } : {}),
      ...(typeof h.jti === 'string' ? { jti: h.jti } : {}),
    };
  };
}

/** Which StreamResponse member a notification carries. */
export type PushEventKind = 'task' | 'message' | 'statusUpdate' | 'artifactUpdate';
const KINDS: readonly PushEventKind[] = ['task', 'message', 'statusUpdate', 'artifactUpdate'];

export type ParsedPushEvent =
  | { ok: true; event: StreamResponse; kind: PushEventKind; taskId: string | undefined }
  | { ok: false; error: string };

const isObj = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isStr = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const hasState = (s: unknown): boolean => isObj(s) && isStr(s.state);

/**
 * Parses a notification body: a JSON object with exactly one of task / message / statusUpdate /
 * artifactUpdate (other members are ignored), checked for the members a receiver relies on.
 */
export function parsePushEvent(text: string): ParsedPushEvent {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { ok: false, error: 'body is not JSON' };
  }
  if (!isObj(value)) return { ok: false, error: 'body is not a JSON object' };
  if (typeof value.kind === 'string') return parseV03PushEvent(value);
  const present = KINDS.filter((k) => value[k] !== undefined && value[k] !== null);
  if (present.length !== 1) {
    return {
      ok: false,
      error: `a StreamResponse has exactly one of ${KINDS.join(', ')}; this has ${present.length}`,
    };
  }
  const kind = present[0]!;
  const v = value[kind];
  if (!isObj(v)) return { ok: false, error: `${kind} must be an object` };
  let taskId: unknown;
  let valid: boolean;
  switch (kind) {
    case 'task':
      taskId = v.id;
      valid = isStr(v.id) && typeof v.contextId === 'string' && hasState(v.status);
      break;
    case 'statusUpdate':
      taskId = v.taskId;
      valid = isStr(v.taskId) && typeof v.contextId === 'string' && hasState(v.status);
      break;
    case 'artifactUpdate':
      taskId = v.taskId;
      valid =
        isStr(v.taskId) &&
        typeof v.contextId === 'string' &&
        isObj(v.artifact) &&
        Array.isArray(v.artifact.parts);
      break;
    case 'message':
      taskId = v.taskId;
      valid = isStr(v.messageId) && isStr(v.role) && Array.isArray(v.parts);
      break;
  }
  if (!valid) return { ok: false, error: `${kind} lacks required members` };
  const event = { [kind]: v } as unknown as StreamResponse;
  return { ok: true, event, kind, taskId: isStr(taskId) ? taskId : undefined };
}

/**
 * An A2A 0.3 notification: one `kind`-discriminated object, usually the whole task (0.3 agents sent
 * the task after each change), read into the 1.0 StreamResponse the handler gets whatever the version.
 */
function parseV03PushEvent(value: Record<string, unknown>): ParsedPushEvent {
  const r = new V03Reader();
  const event = r.event(value, 'body');
  if (!event || r.violations.length > 0) {
    const why = r.violations
      .slice(0, 3)
      .map((v) => `${v.field}: ${v.description}`)
      .join('; ');
    return {
      ok: false,
      error: `an A2A 0.3 notification (kind "${String(value.kind).slice(0, 20)}") that cannot be read: ${why}`,
    };
  }
  const kind = Object.keys(event)[0] as PushEventKind;
  const taskId =
    'task' in event
      ? event.task.id
      : 'message' in event
        ? event.message.taskId
        : 'statusUpdate' in event
          ? event.statusUpdate.taskId
          : event.artifactUpdate.taskId;
  return { ok: true, event, kind, taskId };
}
