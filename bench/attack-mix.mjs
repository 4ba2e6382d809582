/**
 * The attack mix of bench/soak-attack.mjs, in its own process (its own file descriptors): every attack of
 * bench/attacks/ at once, in rounds of `roundSeconds` until `seconds` have passed. Each attack is bounded
 * by its count (`sizes`) and by the round's time. After each round it sends `{ cmd: 'round', outcomes }`
 * over IPC, and `{ cmd: 'done', outcomes, rounds }` at the end: per attack, how many times the server
 * answered each way, and the slowest answer.
 *
 *   node bench/attack-mix.mjs '{"ports": {"runner": P, "reviewer": P, "deployer": P, "grpc": P},
 *     "seconds": N, "roundSeconds": 20, "sizes": {…}}'
 */
import {
  idleGrpc,
  slowSubscribers,
  unfinishedGrpc,
  unfinishedHttp,
} from './attacks/connections.mjs';
import {
  amplification,
  forgedJwts,
  grpcLargeBodies,
  parserTexts,
  stuffedFollowUps,
  unauthLargeBodies,
} from './attacks/requests.mjs';
import { ATTACK_SIZES } from './attacks/sizes.mjs';

/** The attacks, each a function of (ports, sizes, holdMs) resolving `{ label, ms }[]`. */
const ATTACKS = {
  'idle gRPC connections': (p, s, holdMs) =>
    idleGrpc({ grpcPort: p.grpc, n: s.idleConnections, holdMs }),
  'unfinished gRPC bodies': (p, s, holdMs) =>
    unfinishedGrpc({
      grpcPort: p.grpc,
      n: s.unfinishedGrpc,
      declared: s.unfinishedDeclaredBytes,
      sent: s.unfinishedSentBytes,
      holdMs,
    }),
  'unfinished HTTP/1 bodies': (p, s, holdMs) =>
    unfinishedHttp({
      port: p.runner,
      n: s.unfinishedHttp,
      declared: s.unfinishedDeclaredBytes,
      sent: s.unfinishedSentBytes,
      holdMs,
    }),
  'subscribers that never read (large artifact)': (p, s, holdMs) =>
    slowSubscribers({ port: p.reviewer, n: s.subscribers, lines: s.artifactLines, holdMs }),
  'oversized / metadata-stuffed follow-ups': (p, s, holdMs) =>
    stuffedFollowUps({
      port: p.runner,
      n: s.followUps,
      oversizedBytes: s.oversizedBytes,
      metadataKeys: s.metadataKeys,
      holdMs,
    }),
  'amplification (many empty parts)': (p, s, holdMs) =>
    amplification({
      ports: [p.runner, p.reviewer],
      n: s.amplification,
      parts: s.emptyParts,
      holdMs,
    }),
  'adversarial parser text': (p, s, holdMs) =>
    parserTexts({ ports: [p.runner, p.reviewer], scale: s.textScale, holdMs }),
  'forged HS256 / alg-none JWTs to the deployer': (p, s, holdMs) =>
    forgedJwts({ port: p.deployer, n: s.forgedJwts, holdMs }),
  'large bodies without credentials to the deployer': (p, s, holdMs) =>
    unauthLargeBodies({ port: p.deployer, n: s.unauthBodies, bytes: s.unauthBytes, holdMs }),
  'large gRPC bodies without credentials': (p, s, holdMs) =>
    grpcLargeBodies({ grpcPort: p.grpc, n: s.grpcBodies, bytes: s.grpcBytes, holdMs }),
};

/** The size that counts each attack's requests: 0 turns the attack off. */
const COUNT_OF = {
  'idle gRPC connections': 'idleConnections',
  'unfinished gRPC bodies': 'unfinishedGrpc',
  'unfinished HTTP/1 bodies': 'unfinishedHttp',
  'subscribers that never read (large artifact)': 'subscribers',
  'oversized / metadata-stuffed follow-ups': 'followUps',
  'amplification (many empty parts)': 'amplification',
  'adversarial parser text': 'textScale',
  'forged HS256 / alg-none JWTs to the deployer': 'forgedJwts',
  'large bodies without credentials to the deployer': 'unauthBodies',
  'large gRPC bodies without credentials': 'grpcBodies',
};

async function main() {
  const cfg = JSON.parse(process.argv[2]);
  const sizes = { ...ATTACK_SIZES, ...cfg.sizes };
  const deadline = Date.now() + cfg.seconds * 1000;
  let stopping = false;
  process.on('message', (m) => {
    if (m?.cmd === 'stop') stopping = true;
  });
  /** attack → { label → count }, plus `slowest ms`. */
  const on = Object.entries(ATTACKS).filter(([name]) => sizes[COUNT_OF[name]] > 0);
  const outcomes = Object.fromEntries(on.map(([k]) => [k, { counts: {}, maxMs: 0 }]));
  let rounds = 0;
  while (!stopping && Date.now() < deadline - 2000) {
    const roundStart = Date.now();
    const holdMs = Math.min(cfg.roundSeconds * 1000, deadline - Date.now());
    await Promise.all(
      on.map(async ([name, attack]) => {
        const o = outcomes[name];
        let got;
        try {
          got = await attack(cfg.ports, sizes, holdMs);
        } catch (err) {
          got = [{ label: `attack failed: ${err.message}` }];
        }
        for (const { label, ms } of got) {
          o.counts[label] = (o.counts[label] ?? 0) + 1;
          if (ms > o.maxMs) o.maxMs = ms;
        }
      }),
    );
    rounds++;
    process.send?.({ cmd: 'round', rounds, outcomes });
    // A round lasts roundSeconds even when its attacks were answered quickly: the sizes are per round.
    const rest = Math.min(roundStart + holdMs, deadline) - Date.now();
    if (rest > 0) await new Promise((r) => setTimeout(r, rest));
  }
  process.send?.({ cmd: 'done', rounds, outcomes, sizes });
  process.disconnect?.();
}

await main();
