/**
 * Signed push notifications. **An a2a-kit addition: A2A 1.0.1 defines no notification signature.**
 * The spec only says receivers should verify the source (§13.2) and suggests asymmetric keys published
 * as a JWKS; this is our concrete form of that, sent alongside the spec's token and Authorization.
 *
 * Each POST carries `X-A2A-Notification-Signature: <protected>..<signature>`, a compact JWS whose
 * payload is the exact request body, detached (RFC 7515 appendix F). The protected header is
 * `{ alg, kid, typ: "JOSE", iat, jti, sha256 }`: `iat` (seconds) lets receivers refuse stale replays,
 * `jti` is the notification id (stable across retries, for de-duplication), `sha256` is the base64url
 * SHA-256 of the body. Receivers fetch the public keys from `PUSH_JWKS_PATH` on the agent.
 */
import {
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  KeyObject,
} from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';
import { jose } from '../../protocol/lazy-schemas.js';

/** Header carrying the detached JWS. */
export { PUSH_SIGNATURE_HEADER, PUSH_JWKS_PATH } from '../../protocol/push.js';

/** Asymmetric algorithms a signer may use (symmetric keys would have to be shared with every receiver). */
export type PushSigningAlg = 'ES256' | 'ES384' | 'ES512' | 'EdDSA' | 'RS256' | 'PS256';

/** The key a {@link createPushSigner} signs push bodies with, and how it is published. */
export interface PushSignerOptions {
  /** The private key: a KeyObject, a CryptoKey, a private JWK or a PEM string. */
  privateKey: KeyObject | CryptoKey | JWK | string;
  /** Key id; defaults to the RFC 7638 thumbprint of the public key. */
  kid?: string;
  /** Defaults from the key type (EC curve → ES256/384/512, Ed25519 → EdDSA, RSA → RS256, RSA-PSS → PS256). */
  alg?: PushSigningAlg;
  /** Extra public JWKs to keep publishing, e.g. the previous key during a rotation. */
  additionalPublicKeys?: JWK[];
  /** Clock for `iat` (ms since epoch). */
  now?: () => number;
}

/** Signs push bodies and describes the keys receivers should trust. */
export interface PushSigner {
  readonly kid: string;
  readonly alg: PushSigningAlg;
  /** The header value for one body. `notificationId` becomes the `jti`. */
  sign(body: Uint8Array, notificationId?: string): Promise<string>;
  /** The JWKS to serve at `PUSH_JWKS_PATH`. */
  publicJwks(): { keys: JWK[] };
}

function toKeyObject(key: PushSignerOptions['privateKey']): KeyObject {
  if (key instanceof KeyObject) return key;
  if (typeof key === 'string') return createPrivateKey(key);
  if (typeof (key as CryptoKey).algorithm === 'object' && 'type' in key) return KeyObject.from(key);
  return createPrivateKey({ key: key as JWK as import('node:crypto').JsonWebKey, format: 'jwk' });
}

function inferAlg(key: KeyObject): PushSigningAlg {
  const curve = key.asymmetricKeyDetails?.namedCurve;
  switch (key.asymmetricKeyType) {
    case 'ec':
      if (curve === 'prime256v1' || curve === 'P-256') return 'ES256';
      if (curve === 'secp384r1' || curve === 'P-384') return 'ES384';
      if (curve === 'secp521r1' || curve === 'P-521') return 'ES512';
      break;
    case 'ed25519':
      return 'EdDSA';
    case 'rsa':
      return 'RS256';
    case 'rsa-pss':
      return 'PS256';
  }
  throw new Error(
    `push signing: unsupported key type ${key.asymmetricKeyType ?? key.type}${curve ? ` (${curve})` : ''}`,
  );
}

/** SHA-256 of a body, base64url, as carried in the `sha256` header parameter. */
export function bodySha256(body: Uint8Array): string {
  return createHash('sha256').update(body).digest('base64url');
}

/** Builds a signer from a private key. Throws for symmetric or unsupported keys. */
export async function createPushSigner(opts: PushSignerOptions): Promise<PushSigner> {
  const privateKey = toKeyObject(opts.privateKey);
  if (privateKey.type !== 'private')
    throw new Error('push signing: a private asymmetric key is required');
  const alg = opts.alg ?? inferAlg(privateKey);
  const publicJwk = createPublicKey(privateKey).export({ format: 'jwk' }) as JWK;
  // jose is loaded here, by the signer's creation, so that no notification waits for it.
  const { CompactSign, calculateJwkThumbprint } = jose.now() ?? (await jose.load());
  const kid = opts.kid ?? (await calculateJwkThumbprint(publicJwk, 'sha256'));
  const published: JWK[] = [
    { ...publicJwk, kid, alg, use: 'sig' },
    ...(opts.additionalPublicKeys ?? []),
  ];
  const now = opts.now ?? Date.now;
  return {
    kid,
    alg,
    async sign(body, notificationId) {
      const header = {
        alg,
        kid,
        typ: 'JOSE',
        iat: Math.floor(now() / 1000),
        ...(notificationId ? { jti: notificationId } : {}),
        sha256: bodySha256(body),
      };
      const jws = await new CompactSign(body).setProtectedHeader(header).sign(privateKey);
      const [protectedPart, , signature] = jws.split('.');
      return `${protectedPart}..${signature}`;
    },
    publicJwks: () => ({ keys: published.map((k) => ({ ...k })) }),
  };
}

/** A signer with a fresh key pair (ES256 unless told otherwise), for servers that do not manage keys. */
export async function generatePushSigner(
  alg: 'ES256' | 'EdDSA' = 'ES256',
  kid?: string,
): Promise<PushSigner> {
  const { privateKey } =
    alg === 'EdDSA'
      ? generateKeyPairSync('ed25519')
      : generateKeyPairSync('ec', { namedCurve: 'P-256' });
  return createPushSigner({ privateKey, alg, ...(kid ? { kid } : {}) });
}
