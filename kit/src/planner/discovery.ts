/**
 * Discovery as the seed describes it: fetch each configured agent's well-known card, check its
 * signature, take the first interface the client speaks, record who streams, who takes push, who
 * wants a token, and map skills to agents by skill id (never by port).
 */
import {
  A2AClient,
  A2AError,
  CardCache,
  discoverAgentCard,
  schemeKind,
  verifyAgentCard,
  type A2AClientOptions,
  type ClientInterceptor,
  type CardTrust,
} from 'a2a-kit/client';
import type { AgentCard } from 'a2a-kit';
import type { PlannerConfig } from './config.js';
import { skippedInterfaces } from './events.js';
import type { Transcript } from './transcript.js';

/** What the planner learned about one agent before delegating anything. */
export interface AgentFacts {
  baseUrl: string;
  card: AgentCard;
  client: A2AClient;
  streams: boolean;
  push: boolean;
  extendedCard: boolean;
  /** Names of the security schemes the card requires (empty: none). */
  auth: string[];
  signature: string;
}

export interface Discovery {
  agents: AgentFacts[];
  /** Skill id → agent. */
  bySkill: Map<string, AgentFacts>;
}

/** The skills the pipeline needs, in order. */
export const PIPELINE_SKILLS = ['run-tests', 'review-code', 'deploy'] as const;

export async function discover(
  cfg: PlannerConfig,
  t: Transcript,
  trust: CardTrust | undefined,
  cache = new CardCache(),
  interceptors?: readonly ClientInterceptor[],
): Promise<Discovery> {
  t.section(
    'discovery',
    'Discovery',
    `direct configuration: ${cfg.agents.length} base URLs; cards from the well-known path; speaks ${cfg.bindings.join(', ')} at ${cfg.versions.join(', ')}`,
  );
  const agents: AgentFacts[] = [];
  for (const baseUrl of cfg.agents) {
    const found = await discoverAgentCard(baseUrl, { cache });
    const card = found.card;
    const signature = await checkSignature(card, cfg, trust);
    t.item(`GET ${found.cardUrl} → ${card.name} ${card.version} (${found.from}; ${signature})`, {
      kind: 'agent',
      name: card.name,
      version: card.version,
      baseUrl,
      ...(found.cardUrl ? { cardUrl: found.cardUrl } : {}),
      from: found.from,
      signature,
    });
    const auth = requiredSchemes(card);
    const credentials = auth.length > 0 ? tokenFor(card, auth, cfg) : undefined;
    const client = A2AClient.fromCard(card, {
      bindings: cfg.bindings,
      versions: cfg.versions,
      ...(await transportsFor(cfg)),
      ...(credentials ? { credentials } : {}),
      ...(interceptors ? { interceptors } : {}),
    });
    const caps = card.capabilities;
    agents.push({
      baseUrl,
      card,
      client,
      streams: caps.streaming === true,
      push: caps.pushNotifications === true,
      extendedCard: caps.extendedAgentCard === true,
      auth,
      signature,
    });
  }
  t.line();
  t.table(
    ['agent', 'interface chosen', 'streaming', 'push', 'auth', 'skills'],
    agents.map((a) => [
      a.card.name,
      `[${a.client.interface.index}] ${a.client.interface.binding} ${a.client.interface.protocolVersion} ${a.client.interface.url}`,
      flag(a.card.capabilities.streaming),
      flag(a.card.capabilities.pushNotifications),
      a.auth.length ? a.auth.join('+') : 'none',
      a.card.skills.map((s) => s.id).join(', '),
    ]),
  );
  // The table shows each choice; a note only for the entries passed over before it (and why).
  for (const a of agents) {
    const { index, binding, protocolVersion, url, reason } = a.client.interface;
    const skipped = skippedInterfaces(reason);
    const caps = a.card.capabilities;
    t.tell({
      kind: 'decision',
      agent: a.card.name,
      interface: { index, binding, protocolVersion, url },
      skipped,
      streaming: caps.streaming,
      push: caps.pushNotifications,
      auth: a.auth,
      skills: a.card.skills.map((s) => s.id),
    });
    if (skipped.length)
      t.note(
        `${a.card.name}: ${skipped.map((s) => `skipped ${s.entry}${s.why ? `: ${s.why}` : ''}`).join('; ')}`,
        false,
      );
  }
  const bySkill = new Map<string, AgentFacts>();
  for (const a of agents)
    for (const s of a.card.skills) if (!bySkill.has(s.id)) bySkill.set(s.id, a);
  const missing = PIPELINE_SKILLS.filter((s) => !bySkill.has(s));
  if (missing.length)
    throw new Error(`no configured agent offers the skill(s) ${missing.join(', ')}`);
  t.item(
    `skill map: ${PIPELINE_SKILLS.map((s) => `${s} → ${bySkill.get(s)!.card.name}`).join(', ')}`,
  );
  for (const a of agents)
    if (a.auth.length > 0 && a.extendedCard) await checkCredentials(a, t, cfg, trust);
  return { agents, bySkill };
}

/**
 * An agent that wants a token and offers an extended card is asked for that card before anything is
 * delegated: it is the one authenticated call with no side effect, so a wrong token stops the run here
 * instead of after the tests and the review have been paid for.
 */
async function checkCredentials(
  a: AgentFacts,
  t: Transcript,
  cfg: PlannerConfig,
  trust: CardTrust | undefined,
): Promise<void> {
  let ext: AgentCard;
  try {
    ext = await a.client.getExtendedAgentCard();
  } catch (err) {
    if (
      err instanceof A2AError &&
      (err.kind === 'Unauthenticated' || err.kind === 'PermissionDenied')
    ) {
      throw new Error(
        `${a.card.name} refused the configured token (HTTP ${err.spec.httpStatus}, ${err.kind}: ${err.message}); check DEPLOYER_TOKEN`,
        { cause: err },
      );
    }
    throw new Error(
      `${a.card.name}: the authenticated extended card could not be fetched: ${(err as Error).message}`,
      { cause: err },
    );
  }
  // The client now works from this card, so it is held to the same signature rule as the public one.
  const signature = await checkSignature(ext, cfg, trust);
  const extra = ext.skills
    .filter((s) => !a.card.skills.some((p) => p.id === s.id))
    .map((s) => s.id);
  t.item(
    `${a.card.name}: token accepted; extended card (${signature}) adds ${extra.length ? `skill(s) ${extra.join(', ')}` : 'no skills'}`,
  );
}

/** The gRPC transport when the planner accepts GRPC; it is loaded only then. */
async function transportsFor(cfg: PlannerConfig): Promise<Pick<A2AClientOptions, 'transports'>> {
  if (!cfg.bindings.includes('GRPC')) return {};
  const { grpcTransport } = await import('a2a-kit/client/grpc');
  return { transports: { GRPC: grpcTransport() } };
}

/** `true` → yes; `false` → no; absent → "absent" (the card rules the capability out either way). */
function flag(v: boolean | undefined): string {
  return v === true ? 'yes' : v === false ? 'no' : 'absent';
}

/**
 * The planner holds one secret, the deployer's bearer token. It goes to the agent that offers the
 * `deploy` skill and to no other: a card that asks for credentials does not make it the deployer,
 * and a token handed to whoever asks is a leaked token.
 */
function tokenFor(card: AgentCard, auth: string[], cfg: PlannerConfig): Record<string, string> {
  if (!card.skills.some((s) => s.id === 'deploy')) {
    throw new Error(
      `${card.name} requires ${auth.join(', ')}, but the planner holds a token only for the deployer (skill deploy) and will not send it elsewhere`,
    );
  }
  if (!cfg.deployerToken)
    throw new Error(
      `${card.name} requires ${auth.join(', ')} but no token is configured (DEPLOYER_TOKEN)`,
    );
  const schemes = card.securitySchemes ?? {};
  const bearer = auth.filter(
    (n) => schemes[n] !== undefined && schemeKind(schemes[n]) === 'bearer',
  );
  const usable = (card.securityRequirements ?? []).some((req) =>
    Object.keys(req.schemes).every((n) => bearer.includes(n)),
  );
  if (!usable)
    throw new Error(
      `${card.name} requires ${auth.join(', ')}, and no alternative is met by a bearer token alone`,
    );
  return Object.fromEntries(bearer.map((n) => [n, cfg.deployerToken!]));
}

function requiredSchemes(card: AgentCard): string[] {
  const names = new Set<string>();
  for (const req of card.securityRequirements ?? [])
    for (const n of Object.keys(req.schemes)) names.add(n);
  return [...names];
}

async function checkSignature(
  card: AgentCard,
  cfg: PlannerConfig,
  trust: CardTrust | undefined,
): Promise<string> {
  if (cfg.verifyCards === 'off') return 'signature not checked';
  if (!card.signatures?.length) {
    if (cfg.verifyCards === 'required')
      throw new Error(`${card.name}: the card is not signed and signatures are required`);
    return 'unsigned';
  }
  if (!trust) {
    if (cfg.verifyCards === 'required')
      throw new Error(`${card.name}: no trusted keys configured to verify its signature`);
    return 'signed, no trusted keys to check';
  }
  const r = await verifyAgentCard(card, trust);
  if (r.verified) return `signature ✓ ${r.alg} kid=${r.kid}`;
  if (cfg.verifyCards === 'required' || r.reason === 'bad-signature') {
    throw new Error(
      `${card.name}: card signature check failed (${r.reason}): ${r.message}; refusing this agent`,
    );
  }
  return `signature not verified: ${r.reason}`;
}
