/**
 * Which JWS algorithms a verification key may check, decided by the key's own type: a token names its
 * algorithm in its header, and a verifier that believes it can be talked into the classic confusion
 * (an HS256 token "signed" with the bytes of the public key) or into a library error that surfaced as
 * a 500 (issue 28). The allowed list is fixed when the verifier is built, and a token whose `alg` is
 * not on it is refused before any key is touched.
 */
import type { KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';

const HMAC = ['HS256', 'HS384', 'HS512'];
const RSA = ['RS256', 'RS384', 'RS512', 'PS256', 'PS384', 'PS512'];
const PSS = ['PS256', 'PS384', 'PS512'];
const EDDSA = ['EdDSA', 'Ed25519'];
/** What a key set (a JWKS URL, a resolver, keys discovered from the card) may hold: public keys only. */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  ...RSA,
  'ES256',
  'ES384',
  'ES512',
  ...EDDSA,
];

const ES_BY_CURVE: Record<string, string> = {
  'P-256': 'ES256',
  prime256v1: 'ES256',
  'P-384': 'ES384',
  secp384r1: 'ES384',
  'P-521': 'ES512',
  secp521r1: 'ES512',
};

const bits = (hash: unknown): string | undefined => {
  const name = typeof hash === 'string' ? hash : (hash as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' && /^SHA-(256|384|512)$/.test(name) ? name.slice(4) : undefined;
};

function ofJwk(jwk: JWK): string[] {
  if (typeof jwk.alg === 'string') return [jwk.alg];
  if (jwk.kty === 'oct') return HMAC;
  if (jwk.kty === 'RSA') return RSA;
  if (jwk.kty === 'EC') return ES_BY_CURVE[jwk.crv ?? ''] ? [ES_BY_CURVE[jwk.crv!]!] : [];
  if (jwk.kty === 'OKP') return jwk.crv === 'Ed25519' || jwk.crv === 'Ed448' ? EDDSA : [];
  return [];
}

function ofKeyObject(key: KeyObject): string[] {
  if (key.type === 'secret') return HMAC;
  const details = key.asymmetricKeyDetails;
  switch (key.asymmetricKeyType) {
    case 'rsa':
      return RSA;
    case 'rsa-pss':
      return PSS;
    case 'ec': {
      const es = ES_BY_CURVE[details?.namedCurve ?? ''];
      return es ? [es] : [];
    }
    case 'ed25519':
    case 'ed448':
      return EDDSA;
    default:
      return [];
  }
}

function ofCryptoKey(key: CryptoKey): string[] {
  const alg = key.algorithm as { name: string; hash?: unknown; namedCurve?: string };
  const n = bits(alg.hash);
  switch (alg.name) {
    case 'HMAC':
      return n ? [`HS${n}`] : HMAC;
    case 'RSASSA-PKCS1-v1_5':
      return n ? [`RS${n}`] : [];
    case 'RSA-PSS':
      return n ? [`PS${n}`] : [];
    case 'ECDSA': {
      const es = ES_BY_CURVE[alg.namedCurve ?? ''];
      return es ? [es] : [];
    }
    case 'Ed25519':
      return EDDSA;
    default:
      return [];
  }
}

/**
 * The algorithms a key can verify. A key set — a JWKS URL, a resolver, or none given (the keys are
 * discovered from the card) — gets {@link ASYMMETRIC_ALGORITHMS}.
 */
export function algorithmsOfKey(key: unknown): readonly string[] {
  if (key instanceof Uint8Array) return HMAC;
  if (key === undefined || typeof key === 'function' || key instanceof URL)
    return ASYMMETRIC_ALGORITHMS;
  if (typeof key !== 'object' || key === null) return [];
  const k = key as { type?: unknown; asymmetricKeyType?: unknown; algorithm?: unknown };
  // A CryptoKey has `algorithm`; a KeyObject has `type` and `export`; anything else is read as a JWK.
  if (typeof k.algorithm === 'object' && k.algorithm !== null) return ofCryptoKey(key as CryptoKey);
  if (typeof (key as { export?: unknown }).export === 'function' && typeof k.type === 'string')
    return ofKeyObject(key as KeyObject);
  return ofJwk(key);
}

/**
 * The algorithms a verifier accepts: those of its key, narrowed to `wanted` when given. Throws when
 * nothing is left, so a configuration that could never accept a token fails at start, not per request.
 */
export function pinAlgorithms(key: unknown, wanted: readonly string[] | undefined): string[] {
  // A resolver of your own may hand out any key (even a shared secret): then `wanted` is taken as given.
  if (typeof key === 'function' && wanted) return [...wanted];
  const own = algorithmsOfKey(key);
  const list = wanted ? wanted.filter((a) => own.includes(a)) : [...own];
  if (list.length === 0) {
    throw new TypeError(
      wanted
        ? `jwtBearer: none of the algorithms ${wanted.join(', ')} can be verified with the key given (it takes ${own.join(', ') || 'none'})`
        : 'jwtBearer: the key given is of no type a JWS algorithm can be verified with',
    );
  }
  return list;
}
