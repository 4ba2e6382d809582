/**
 * Client protocol selection (spec §8.3.2): walk `supportedInterfaces` in the card's order and take
 * the first entry whose binding AND protocol version this client speaks. The agent's order is its
 * preference, so the caller's binding list only says what is acceptable, never what comes first.
 */
import {
  BINDINGS,
  PROTOCOL_VERSION,
  majorMinor,
  type AgentCard,
  type AgentInterface,
} from '../protocol/index.js';
import { A2AClientError } from './errors.js';

/** Bindings this package ships a transport for. */
export const DEFAULT_BINDINGS: readonly string[] = [BINDINGS.JSONRPC, BINDINGS.HTTP_JSON];

/** What {@link selectInterface} may choose from. */
export interface SelectInterfaceOptions {
  /** Bindings the caller accepts (`JSONRPC`, `HTTP+JSON`, …). Default: both bindings we ship. */
  bindings?: readonly string[];
  /** Protocol versions (Major.Minor) the caller speaks. Default `['1.0']`. */
  versions?: readonly string[];
  /**
   * Whether the caller has a transport for `binding` (upper case) at `version`, when accepting a
   * binding and a version separately is not enough (a gRPC transport that speaks only 1.0 must not
   * get a GRPC 0.3 entry). Default: every accepted binding at every accepted version.
   */
  canSpeak?: (binding: string, version: string) => boolean;
}

/** The interface chosen for talking to an agent, and why. */
export interface SelectedInterface {
  /** Position of the entry in `supportedInterfaces`. */
  index: number;
  /** The binding name as the card spells it. */
  binding: string;
  /** The interface URL requests go to. */
  url: string;
  /** Copied into every request when set (§8.3.2 rule 4). */
  tenant: string | undefined;
  /** Major.Minor of the entry. */
  protocolVersion: string;
  /** The entry itself. */
  entry: AgentInterface;
  /** What was skipped and what was chosen, for logs and transcripts. */
  reason: string;
}

const norm = (binding: string): string => binding.trim().toUpperCase();

interface Scan {
  found: SelectedInterface[];
  /** What happened to each entry, in order. */
  notes: string[];
  bindings: readonly string[];
  versions: Set<string>;
  entries: unknown[];
}

function scan(card: AgentCard, options: SelectInterfaceOptions): Scan {
  const bindings = options.bindings ?? DEFAULT_BINDINGS;
  const accepted = new Set(bindings.map(norm));
  const versions = new Set((options.versions ?? [PROTOCOL_VERSION]).map((v) => majorMinor(v) ?? v));
  const entries: unknown[] = Array.isArray(card.supportedInterfaces)
    ? card.supportedInterfaces
    : [];
  const notes: string[] = [];
  const found: SelectedInterface[] = [];
  for (const [index, raw] of entries.entries()) {
    const entry = raw as Partial<AgentInterface> | null;
    const label = `[${index}] ${entry?.protocolBinding ?? '?'} ${entry?.protocolVersion ?? '?'}`;
    if (typeof entry?.protocolBinding !== 'string' || !accepted.has(norm(entry.protocolBinding))) {
      notes.push(`skipped ${label}: binding not spoken`);
      continue;
    }
    const version = majorMinor(entry.protocolVersion);
    if (version === undefined || !versions.has(version)) {
      notes.push(`skipped ${label}: version not spoken`);
      continue;
    }
    if (options.canSpeak && !options.canSpeak(norm(entry.protocolBinding), version)) {
      notes.push(`skipped ${label}: no ${entry.protocolBinding} transport for version ${version}`);
      continue;
    }
    const httpBinding = DEFAULT_BINDINGS.includes(norm(entry.protocolBinding));
    if (
      typeof entry.url !== 'string' ||
      entry.url === '' ||
      (httpBinding && !isHttpUrl(entry.url))
    ) {
      notes.push(`skipped ${label}: url ${JSON.stringify(entry.url)} is not an http(s) URL`);
      continue;
    }
    found.push({
      index,
      binding: entry.protocolBinding,
      url: entry.url,
      tenant: typeof entry.tenant === 'string' && entry.tenant !== '' ? entry.tenant : undefined,
      protocolVersion: version,
      entry: entry as AgentInterface,
      reason: [
        ...notes,
        `chose ${label} at ${entry.url}${entry.tenant ? ` (tenant ${entry.tenant})` : ''}`,
      ].join('; '),
    });
    notes.push(`${label} also usable`);
  }
  return { found, notes, bindings, versions, entries };
}

/**
 * Every `supportedInterfaces` entry the client could use, in the card's order: the first is the
 * §8.3.2 choice, the others are fallbacks (§5.2). Empty when nothing fits.
 */
export function compatibleInterfaces(
  card: AgentCard,
  options: SelectInterfaceOptions = {},
): SelectedInterface[] {
  return scan(card, options).found;
}

/**
 * Picks the first `supportedInterfaces` entry with a binding and version the client speaks — the
 * agent's order is its preference (§8.3.2). Throws an `A2AClientError` `NO_COMPATIBLE_INTERFACE`
 * listing what the card offers and what the client speaks. {@link A2AClient} does this itself;
 * call it to know ahead which interface a client would use.
 *
 * @example
 * ```ts
 * import { resolveAgentCard, selectInterface } from 'a2a-kit/client';
 *
 * const card = await resolveAgentCard('http://localhost:41241');
 * const chosen = selectInterface(card, { bindings: ['HTTP+JSON', 'JSONRPC'] });
 * process.stdout.write(`${chosen.binding} ${chosen.url}: ${chosen.reason}\n`);
 * ```
 */
export function selectInterface(
  card: AgentCard,
  options: SelectInterfaceOptions = {},
): SelectedInterface {
  const r = scan(card, options);
  if (r.found[0]) return r.found[0];
  const offered =
    r.entries.length === 0
      ? 'no supportedInterfaces at all'
      : r.entries
          .map((raw, i) => {
            const e = raw as Partial<AgentInterface> | null;
            return `[${i}] ${e?.protocolBinding ?? '?'} ${e?.protocolVersion ?? '?'} ${e?.url ?? '?'}`;
          })
          .join(', ');
  // §3.6.3: no silent fallback to an older version, but say plainly how to allow it.
  const older =
    !r.versions.has('0.3') &&
    r.entries.some((raw) => {
      const e = raw as Partial<AgentInterface> | null;
      return (
        majorMinor(e?.protocolVersion) === '0.3' &&
        r.bindings.some((b) => norm(b) === norm(String(e?.protocolBinding ?? '')))
      );
    });
  const allow = older
    ? ` The agent speaks A2A 0.3 only over these bindings; to talk to it, allow that version: { versions: ['1.0', '0.3'] } in the client options.`
    : '';
  throw new A2AClientError(
    'NO_COMPATIBLE_INTERFACE',
    `Agent "${card.name ?? '?'}" offers ${offered}; this client speaks ${[...r.bindings].join(' or ')} at version ${[
      ...r.versions,
    ].join(' or ')}.${allow} ${r.notes.join('; ')}`.trim(),
  );
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
