/**
 * The JWS algorithms the client accepts for signatures it verifies (agent cards, push notifications):
 * asymmetric only, since a shared secret would let every holder forge them. `none` is never accepted.
 */
export const ASYMMETRIC_ALGORITHMS: readonly string[] = [
  'ES256',
  'ES384',
  'ES512',
  'EdDSA',
  'Ed25519',
  'RS256',
  'RS384',
  'RS512',
  'PS256',
  'PS384',
  'PS512',
];
