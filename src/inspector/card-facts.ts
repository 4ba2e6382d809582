/**
 * What the card view shows besides the card itself, worked out with the client's own code: which
 * interface `A2AClient` would take and why (`selectInterface`), the signature's status
 * (`verifyAgentCard`), the caching headers the card came with, and which credentials are held.
 */
import { schemeKind, selectInterface, verifyAgentCard, type CardTrust } from 'a2a-kit/client';
import { BINDINGS, type AgentCard } from 'a2a-kit';
import type { CardFinding } from './card-findings.js';
import type { HeaderFact } from './custom-headers.js';

/** What the inspector's client accepts: every binding and version the library speaks. */
const SELECTION = {
  bindings: [BINDINGS.JSONRPC, BINDINGS.HTTP_JSON, BINDINGS.GRPC],
  versions: ['1.0', '0.3'],
};

/** One `supportedInterfaces` entry as the card view lists it. */
export interface InterfaceFact {
  index: number;
  binding: string;
  version: string;
  url: string;
  tenant?: string;
  /** The one the client would use. */
  chosen: boolean;
  /** What the selection said about this entry (skipped and why, chosen, or usable as a fallback). */
  note: string;
}

/** One signature on the card, from its protected header. */
export interface SignatureFact {
  kid?: string;
  alg?: string;
  jku?: string;
}

/** Everything the card view shows about one agent. */
export interface CardFacts {
  /** The URL the user entered (the key of the agent in the session). */
  agent: string;
  card: AgentCard;
  cardUrl?: string;
  /** `network`, `cache` (fresh copy reused), `revalidated` (304) or `extended` (GetExtendedAgentCard). */
  from: string;
  /** The caching headers of the last card response. */
  cache: Record<string, string>;
  interfaces: InterfaceFact[];
  /** The client's whole explanation, or why no interface fits. */
  selection: { ok: boolean; reason: string };
  signature: { verified: boolean; status: string; message: string; signatures: SignatureFact[] };
  /** Per security scheme: its kind and whether the session holds a credential for it (never the value). */
  credentials: Array<{ scheme: string; kind: string; held: boolean; detail: string }>;
  /** The public card's skill ids, when this is the extended card (to show what it adds). */
  publicSkills?: string[];
  /** The card checked against the spec: every finding, errors first. */
  findings: CardFinding[];
  /** The custom headers sent to this agent (a secret one without its value). */
  headers: HeaderFact[];
}

const CACHE_HEADERS = ['cache-control', 'etag', 'last-modified', 'expires', 'age', 'date', 'vary'];

/** The caching headers of a card response, for display. */
export function cacheHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const h of CACHE_HEADERS) {
    const v = headers.get(h);
    if (v !== null) out[h] = v;
  }
  return out;
}

function signatures(card: AgentCard): SignatureFact[] {
  return (card.signatures ?? []).map((s) => {
    try {
      const h = JSON.parse(Buffer.from(s.protected, 'base64url').toString('utf8')) as Record<
        string,
        unknown
      >;
      return {
        ...(typeof h.kid === 'string' ? { kid: h.kid } : {}),
        ...(typeof h.alg === 'string' ? { alg: h.alg } : {}),
        ...(typeof h.jku === 'string' ? { jku: h.jku } : {}),
      };
    } catch {
      return {};
    }
  });
}

const STATUS_TEXT: Record<string, string> = {
  unsigned: 'not signed',
  'unknown-kid': 'signed, but by no key the inspector trusts',
  'bad-signature': 'signature does NOT match the card',
  malformed: 'signature unreadable',
  'alg-not-allowed': 'signature algorithm not allowed',
};

/** The card view's facts for a card the session holds. */
export async function cardFacts(
  agent: string,
  card: AgentCard,
  how: {
    cardUrl?: string | undefined;
    from: string;
    cache: Record<string, string>;
    trust: CardTrust;
    held: ReadonlySet<string>;
  },
): Promise<CardFacts> {
  let selection: CardFacts['selection'];
  let chosenIndex = -1;
  try {
    const s = selectInterface(card, SELECTION);
    selection = { ok: true, reason: s.reason };
    chosenIndex = s.index;
  } catch (err) {
    selection = { ok: false, reason: (err as Error).message };
  }
  const interfaces = card.supportedInterfaces.map((i, index): InterfaceFact => ({
    index,
    binding: i.protocolBinding,
    version: i.protocolVersion,
    url: i.url,
    ...(i.tenant ? { tenant: i.tenant } : {}),
    chosen: index === chosenIndex,
    note: entryNote(card, index, chosenIndex),
  }));
  const verdict = await verifyAgentCard(card, how.trust);
  const signature = verdict.verified
    ? {
        verified: true,
        status: 'verified',
        message: `verified with ${verdict.alg}, key ${verdict.kid}`,
        signatures: signatures(card),
      }
    : {
        verified: false,
        status: STATUS_TEXT[verdict.reason] ?? verdict.reason,
        message: verdict.message,
        signatures: signatures(card),
      };
  const credentials = Object.entries(card.securitySchemes ?? {}).map(([scheme, s]) => ({
    scheme,
    kind: schemeKind(s) ?? 'unknown',
    held: how.held.has(scheme),
    detail: schemeDetail(s),
  }));
  return {
    agent,
    card,
    ...(how.cardUrl ? { cardUrl: how.cardUrl } : {}),
    from: how.from,
    cache: how.cache,
    interfaces,
    selection,
    signature,
    credentials,
    findings: [],
    headers: [],
  };
}

/**
 * What the client's selection says about one entry, asked of the entry alone so that entries after
 * the chosen one get an answer too: chosen, a fallback (§5.2), or skipped and why.
 */
function entryNote(card: AgentCard, index: number, chosen: number): string {
  if (index === chosen)
    return 'the first entry, in the card’s order, whose binding and version the client speaks';
  try {
    selectInterface(
      { ...card, supportedInterfaces: [card.supportedInterfaces[index]!] },
      SELECTION,
    );
    return index < chosen || chosen < 0
      ? 'usable'
      : 'usable: a fallback if the chosen one cannot be reached';
  } catch (err) {
    const m = /skipped \[0\] [^:]*: (.*)$/.exec((err as Error).message);
    return m ? `skipped: ${m[1]}` : 'skipped';
  }
}

/** A scheme in a few words: `HTTP Bearer (JWT)`, `API key in header X-API-Key`, … */
function schemeDetail(s: NonNullable<AgentCard['securitySchemes']>[string]): string {
  if ('httpAuthSecurityScheme' in s) {
    const h = s.httpAuthSecurityScheme;
    return `HTTP ${h.scheme}${h.bearerFormat ? ` (${h.bearerFormat})` : ''}`;
  }
  if ('apiKeySecurityScheme' in s)
    return `API key in ${s.apiKeySecurityScheme.location} ${s.apiKeySecurityScheme.name}`;
  if ('oauth2SecurityScheme' in s)
    return `OAuth 2 (${Object.keys(s.oauth2SecurityScheme.flows).join(', ')}); paste an access token`;
  if ('openIdConnectSecurityScheme' in s)
    return `OpenID Connect (${s.openIdConnectSecurityScheme.openIdConnectUrl}); paste a token`;
  if ('mtlsSecurityScheme' in s)
    return 'mutual TLS (a client certificate; not available from the inspector)';
  return 'unknown scheme';
}
