/**
 * The card checked against the spec, every finding listed: first what the library's own validation
 * refuses (`checkAgentCard`, the same check discovery makes, so an `error` here is why a client
 * refuses the card), then what it accepts but the spec asks otherwise or a client will trip on
 * (`warning`), then facts worth knowing (`info`).
 */
import { checkAgentCard } from 'a2a-kit/client';
import type { AgentCard } from 'a2a-kit';

/** One thing the check found. */
export interface CardFinding {
  level: 'error' | 'warning' | 'info';
  /** Where in the card (`skills[2].tags`), or `(card)`. */
  where: string;
  text: string;
  /** The spec section it rests on, when there is one. */
  section?: string;
}

/** Findings listed at most; the rest are counted in one last finding. */
const MAX_FINDINGS = 200;
const LOOPBACK = /^(localhost|127\.\d+\.\d+\.\d+|\[::1\])$/i;
const KNOWN_BINDINGS = new Set(['JSONRPC', 'HTTP+JSON', 'GRPC']);
const KNOWN_VERSIONS = new Set(['1.0', '0.3']);

/** `supportedInterfaces[0].url: must be an absolute URL` → where + text. */
function problem(p: string): CardFinding {
  const cut = p.indexOf(': ');
  return cut > 0
    ? { level: 'error', where: p.slice(0, cut), text: p.slice(cut + 2) }
    : { level: 'error', where: '(card)', text: p };
}

/** What the library accepts but the spec (or a client) does not like. */
function advice(card: AgentCard, version: string): CardFinding[] {
  const out: CardFinding[] = [];
  const warn = (where: string, text: string, section?: string) =>
    out.push({ level: 'warning', where, text, ...(section ? { section } : {}) });
  if (version === '0.3')
    out.push({
      level: 'info',
      where: '(card)',
      text: 'an A2A 0.3 card (no supportedInterfaces): a client that speaks only 1.0 refuses it',
      section: '3.6.3',
    });
  if (card.skills.length === 0) warn('skills', 'is empty: a required list needs an entry', '5.7');
  if (card.defaultInputModes.length === 0)
    warn('defaultInputModes', 'is empty: a required list needs an entry', '5.7');
  if (card.defaultOutputModes.length === 0)
    warn('defaultOutputModes', 'is empty: a required list needs an entry', '5.7');
  const ids = new Set<string>();
  card.skills.forEach((s, i) => {
    if (s.tags.length === 0)
      warn(`skills[${i}].tags`, 'is empty: a required list needs an entry', '5.7');
    if (ids.has(s.id)) warn(`skills[${i}].id`, `"${s.id}" is used by an earlier skill`);
    ids.add(s.id);
  });
  card.supportedInterfaces.forEach((i, n) => {
    const at = `supportedInterfaces[${n}]`;
    if (!KNOWN_BINDINGS.has(i.protocolBinding) && !/^[a-z][a-z0-9+.-]*:/i.test(i.protocolBinding))
      warn(
        `${at}.protocolBinding`,
        `"${i.protocolBinding}" is neither a standard binding nor a URI`,
        '5.8',
      );
    const mm = /^(\d+\.\d+)/.exec(i.protocolVersion)?.[1];
    if (mm && !KNOWN_VERSIONS.has(mm))
      warn(`${at}.protocolVersion`, `${i.protocolVersion}: no client of this library speaks it`);
    let host: string | undefined;
    let plain = false;
    try {
      const u = new URL(i.url);
      host = u.hostname;
      plain = u.protocol === 'http:' || u.protocol === 'grpc:';
    } catch {
      host = undefined;
    }
    if (plain && host !== undefined && !LOOPBACK.test(host))
      warn(`${at}.url`, 'is not encrypted: production deployments use HTTPS (TLS for gRPC)', '7.1');
  });
  if (!card.signatures?.length)
    out.push({
      level: 'info',
      where: 'signatures',
      text: 'the card is not signed',
      section: '8.4',
    });
  return out;
}

/**
 * Every finding about a card as received (parsed JSON, either version). Never throws: whatever the
 * agent sent is described, not trusted.
 */
export async function cardFindings(json: unknown): Promise<CardFinding[]> {
  let found: CardFinding[];
  try {
    const r = await checkAgentCard(json);
    found = r.ok ? advice(r.card, r.version) : r.problems.map(problem);
  } catch (err) {
    found = [{ level: 'error', where: '(card)', text: `could not be checked: ${String(err)}` }];
  }
  if (found.length <= MAX_FINDINGS) return found;
  return [
    ...found.slice(0, MAX_FINDINGS),
    { level: 'info', where: '(card)', text: `… and ${found.length - MAX_FINDINGS} more findings` },
  ];
}

/** Parses the card's text as the agent sent it and checks it; a body that is not JSON is one finding. */
export async function cardTextFindings(text: string): Promise<CardFinding[]> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return [{ level: 'error', where: '(card)', text: `is not JSON: ${(err as Error).message}` }];
  }
  return cardFindings(json);
}
