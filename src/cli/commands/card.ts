/**
 * `a2a card <url>`: the agent card, readable — or raw with `--json` — and with `--extended` the card
 * an authenticated caller gets (GetExtendedAgentCard).
 */
import { verifyAgentCard, type AgentCard, type CardTrust } from 'a2a-kit/client';
import {
  cacheLines,
  capabilityLines,
  identityLines,
  interfaceLines,
  securityLines,
  signatureLines,
  skillLines,
} from '../card-view.js';
import type { Command, CommandContext } from '../command.js';
import { CliExit, EXIT } from '../exit-codes.js';

/** The `card` command. */
export const card: Command = {
  name: 'card',
  summary:
    'show an agent card: interfaces and the one chosen, capabilities, skills, security, signature, cache',
  usage: '<url>',
  positionals: { min: 1, max: 1 },
  agent: true,
  options: {
    extended: {
      type: 'boolean',
      help: 'also fetch the extended card for authenticated callers (needs --token when the agent asks for one)',
    },
  },
  details: [
    "The URL is the agent's base URL (its card is at /.well-known/agent-card.json below it) or the card's own URL.",
    'The signature is checked against --trust-jwks when given; without it the card shows who signed it. ' +
      'The command exits 4 when a signature check fails, or when --require-signature is given and the card is not verified.',
    'With --json: the card exactly as served (with --extended: the extended card).',
  ],
  examples: [
    'a2a card http://localhost:41242',
    'a2a card http://localhost:41243 --extended --token "$(cat .kit-work/deployer-token)"',
    'a2a card http://localhost:41241 --trust-jwks .kit-work/card-signing-jwks.json',
    'a2a card http://localhost:41241 --json | jq .skills',
  ],
  run: runCard,
};

async function runCard(ctx: CommandContext): Promise<number> {
  const url = ctx.args.positionals[0]!;
  const agent = await ctx.discover(url);
  const trust = agent.trust ?? {};
  const extended = ctx.args.flag('extended') ? await fetchExtended(ctx, agent) : undefined;
  const shown = extended ?? agent.card;
  const result = await verifyAgentCard(shown, trust);

  if (ctx.json) {
    ctx.term.json(extended ?? parsedBody(agent.response?.body) ?? agent.card);
  } else {
    const p = ctx.term.out;
    const source = extended
      ? `extended card from GetExtendedAgentCard (public card: ${agent.cardUrl})`
      : `${agent.cardUrl ?? url}${agent.response ? p.dim(`  (HTTP ${agent.response.status})`) : ''}`;
    const blocks = [
      identityLines(p, shown, source),
      ...(extended ? [differenceLines(agent.card, extended)] : []),
      interfaceLines(p, shown, ctx.settings?.bindings, ctx.settings?.versions),
      capabilityLines(p, shown),
      skillLines(p, shown),
      securityLines(p, shown),
      signatureLines(p, shown, result, agent.trust?.jwks !== undefined),
      ...(extended ? [] : [cacheLines(p, agent.response)]),
    ];
    ctx.term.line(blocks.map((b) => b.join('\n')).join('\n\n'));
  }
  return verdict(result, trust);
}

/** A failed check on a trusted key always fails the command; an unverifiable card only with --require-signature. */
function verdict(result: Awaited<ReturnType<typeof verifyAgentCard>>, trust: CardTrust): number {
  if (result.verified) return EXIT.OK;
  const uncheckable = result.reason === 'unsigned' || result.reason === 'unknown-kid';
  if (uncheckable && !trust.requireSignature) return EXIT.OK;
  throw new CliExit(EXIT.BAD_AGENT, `the card's signature is not accepted: ${result.message}`);
}

async function fetchExtended(
  ctx: CommandContext,
  agent: Awaited<ReturnType<CommandContext['discover']>>,
): Promise<AgentCard> {
  const { client } = ctx.client(agent);
  if (!agent.card.capabilities?.extendedAgentCard) {
    throw new CliExit(
      EXIT.ERROR,
      `${agent.card.name} declares no extended card (capabilities.extendedAgentCard is not set)`,
    );
  }
  ctx.term.waiting('fetching the extended card');
  try {
    return await client.getExtendedAgentCard({ signal: ctx.signal });
  } finally {
    ctx.term.done();
  }
}

/** What the extended card adds to (or removes from) the public one, in skills. */
function differenceLines(pub: AgentCard, ext: AgentCard): string[] {
  const before = new Set(pub.skills.map((s) => s.id));
  const after = new Set(ext.skills.map((s) => s.id));
  const added = [...after].filter((s) => !before.has(s));
  const removed = [...before].filter((s) => !after.has(s));
  const parts = [
    added.length ? `adds skill(s) ${added.join(', ')}` : '',
    removed.length ? `drops skill(s) ${removed.join(', ')}` : '',
  ].filter(Boolean);
  return [`  compared with the public card: ${parts.join('; ') || 'same skills'}`];
}

function parsedBody(body: string | undefined): unknown {
  if (!body) return undefined;
  try {
    return JSON.parse(body) as unknown;
  } catch {
    return undefined;
  }
}
