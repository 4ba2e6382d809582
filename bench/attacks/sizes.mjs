/** How big each attack of bench/attack-mix.mjs is, per round. */

/** Default sizes; `--attack name=value,…` on bench/soak-attack.mjs overrides them. */
export const ATTACK_SIZES = {
  idleConnections: 300,
  unfinishedGrpc: 40,
  unfinishedHttp: 40,
  unfinishedDeclaredBytes: 1_000_000,
  unfinishedSentBytes: 1_000,
  subscribers: 20,
  artifactLines: 5_000,
  followUps: 10,
  oversizedBytes: 5_000_000,
  metadataKeys: 20_000,
  amplification: 6,
  emptyParts: 100_000,
  textScale: 1,
  forgedJwts: 50,
  unauthBodies: 10,
  unauthBytes: 3_000_000,
  grpcBodies: 5,
  grpcBytes: 8_000_000,
};
