/**
 * `a2a card` as text: who the agent is, its interfaces (with the one this client would choose and
 * why), capabilities, skills, security, signature status and the card's cache headers.
 */
import {
  selectInterface,
  type AgentCard,
  type CardVerifyResult,
  type SecurityScheme,
} from 'a2a-kit/client';
import { CLI_BINDINGS } from './args.js';
import type { Palette } from './terminal.js';
import type { CardResponse } from './verbose.js';

const yesNo = (p: Palette, v: boolean | undefined) => (v ? p.green('yes') : p.dim('no'));
const row = (label: string, value: string, width = 20) => `  ${label.padEnd(width)}${value}`;

/** The header block: name, version, description, where the card came from. */
export function identityLines(p: Palette, card: AgentCard, source: string): string[] {
  const out = [
    `${p.bold(card.name)} ${card.version}  ${p.dim('—')} ${card.description}`,
    row('card', source, 10),
  ];
  if (card.provider)
    out.push(row('provider', `${card.provider.organization} (${card.provider.url})`, 10));
  if (card.documentationUrl) out.push(row('docs', card.documentationUrl, 10));
  if (card.iconUrl) out.push(row('icon', card.iconUrl, 10));
  return out;
}

/** Each interface, marked `→` where the client would go, with why the others are not used. */
export function interfaceLines(
  p: Palette,
  card: AgentCard,
  bindings: string[] | undefined,
  versions?: string[],
): string[] {
  const opts = { bindings: bindings ?? CLI_BINDINGS, ...(versions ? { versions } : {}) };
  let chosen: { index: number; reason: string } | undefined;
  try {
    chosen = selectInterface(card, opts);
  } catch {
    chosen = undefined;
  }
  const out = [
    p.bold('interfaces') +
      p.dim("  (→ the one this client uses, in the card's order of preference)"),
  ];
  for (const [i, entry] of card.supportedInterfaces.entries()) {
    let usable = true;
    let why = '';
    try {
      selectInterface({ ...card, supportedInterfaces: [entry] }, opts);
    } catch (err) {
      usable = false;
      why = /skipped \[0\] [^:]*: ([^;.]*)/.exec((err as Error).message)?.[1] ?? 'not usable';
    }
    const mark = chosen?.index === i ? p.green('→') : ' ';
    const label = `[${i}] ${entry.protocolBinding} ${entry.protocolVersion}`;
    const tenant = entry.tenant ? `  tenant ${entry.tenant}` : '';
    const note = chosen?.index === i ? '' : usable ? p.dim('  fallback') : p.dim(`  ${why}`);
    out.push(`  ${mark} ${label.padEnd(20)} ${entry.url}${tenant}${note}`);
  }
  out.push(
    chosen
      ? `  ${p.dim('why:')} ${chosen.reason}`
      : `  ${p.red('no interface this client speaks')} (${CLI_BINDINGS.join(', ')} at ${(versions ?? ['1.0']).join(' or ')}${bindings ? `, limited by --binding to ${bindings.join(', ')}` : ''})${card.supportedInterfaces.some((i) => i.protocolVersion.startsWith('0.3')) && !versions?.includes('0.3') ? '; allow A2A 0.3 with --versions 1.0,0.3' : ''}`,
  );
  return out;
}

/** Streaming, push, extended card, extensions. */
export function capabilityLines(p: Palette, card: AgentCard): string[] {
  const c = card.capabilities ?? {};
  const out = [p.bold('capabilities')];
  out.push(row('streaming', yesNo(p, c.streaming)));
  out.push(row('push notifications', yesNo(p, c.pushNotifications)));
  out.push(row('extended card', yesNo(p, c.extendedAgentCard)));
  const ext = c.extensions ?? [];
  out.push(row('extensions', ext.length ? '' : p.dim('none')));
  for (const e of ext)
    out.push(
      `    ${e.uri ?? '?'}${e.required ? p.yellow(' (required)') : ''}${e.description ? p.dim(` — ${e.description}`) : ''}`,
    );
  return out;
}

/** Skills with their tags, examples and modes. */
export function skillLines(p: Palette, card: AgentCard): string[] {
  const out = [
    p.bold('skills') +
      p.dim(
        `  (default input ${card.defaultInputModes.join(', ') || '-'}; output ${card.defaultOutputModes.join(', ') || '-'})`,
      ),
  ];
  if (card.skills.length === 0) out.push(p.dim('  none'));
  for (const s of card.skills) {
    out.push(
      `  ${p.bold(s.id)}  ${s.name}${s.tags.length ? p.dim(`  [${s.tags.join(', ')}]`) : ''}`,
    );
    out.push(`    ${s.description}`);
    for (const e of s.examples ?? []) out.push(p.dim(`    e.g. "${e}"`));
    if (s.inputModes?.length) out.push(p.dim(`    input ${s.inputModes.join(', ')}`));
    if (s.outputModes?.length) out.push(p.dim(`    output ${s.outputModes.join(', ')}`));
    if (s.securityRequirements?.length)
      out.push(p.dim(`    requires ${requirementText(s.securityRequirements)}`));
  }
  return out;
}

function schemeText(s: SecurityScheme): string {
  if ('httpAuthSecurityScheme' in s)
    return `HTTP ${s.httpAuthSecurityScheme.scheme}${s.httpAuthSecurityScheme.bearerFormat ? ` (${s.httpAuthSecurityScheme.bearerFormat})` : ''}`;
  if ('apiKeySecurityScheme' in s)
    return `API key in ${s.apiKeySecurityScheme.location} "${s.apiKeySecurityScheme.name}"`;
  if ('oauth2SecurityScheme' in s)
    return `OAuth 2 (${Object.keys(s.oauth2SecurityScheme.flows).join(', ')})`;
  if ('openIdConnectSecurityScheme' in s)
    return `OpenID Connect (${s.openIdConnectSecurityScheme.openIdConnectUrl})`;
  if ('mtlsSecurityScheme' in s) return 'mutual TLS';
  return 'unknown scheme';
}

function requirementText(reqs: NonNullable<AgentCard['securityRequirements']>): string {
  return reqs.map((r) => Object.keys(r.schemes ?? {}).join(' + ') || 'anonymous').join(' or ');
}

/** The schemes and which of them are required. */
export function securityLines(p: Palette, card: AgentCard): string[] {
  const schemes = Object.entries(card.securitySchemes ?? {});
  const out = [p.bold('security')];
  if (schemes.length === 0) return [...out, p.dim('  none: anonymous calls')];
  for (const [name, s] of schemes) {
    const description = Object.values(s)[0]?.description;
    out.push(row(name, `${schemeText(s)}${description ? p.dim(` — ${description}`) : ''}`, 12));
  }
  const reqs = card.securityRequirements ?? [];
  out.push(row('required', reqs.length ? requirementText(reqs) : 'any one scheme', 12));
  return out;
}

/** Each signature's key id and algorithm, read from its protected header. */
function signers(card: AgentCard): string[] {
  return (card.signatures ?? []).map((s) => {
    try {
      const h = JSON.parse(Buffer.from(s.protected, 'base64url').toString('utf8')) as {
        alg?: string;
        kid?: string;
        jku?: string;
      };
      return `${h.alg ?? '?'} kid ${h.kid ?? '?'}${h.jku ? ` (jku ${h.jku})` : ''}`;
    } catch {
      return 'unreadable header';
    }
  });
}

/** What the signature check said, in words. */
export function signatureLines(
  p: Palette,
  card: AgentCard,
  result: CardVerifyResult,
  trusted: boolean,
): string[] {
  const out = [p.bold('signature')];
  if (result.verified)
    return [
      ...out,
      `  ${p.green('✓ verified')}  ${result.alg}, key ${result.kid} (trusted via --trust-jwks)`,
    ];
  const by = signers(card);
  if (result.reason === 'unsigned') return [...out, `  ${p.dim('unsigned')}`];
  if (result.reason === 'unknown-kid') {
    const advice = trusted
      ? 'no key in --trust-jwks has this kid'
      : 'no trusted keys given; pass --trust-jwks FILE|URL to check it';
    return [...out, `  ${p.yellow('signed, not verified')}  ${by.join('; ')} — ${advice}`];
  }
  return [...out, `  ${p.red('✗ does not verify')}  ${result.message}`];
}

/** The caching headers, and what a client does with them (§8.6). */
export function cacheLines(p: Palette, res: CardResponse | undefined): string[] {
  const out = [p.bold('cache')];
  if (!res) return [...out, p.dim('  (no HTTP response recorded)')];
  const names = ['cache-control', 'etag', 'last-modified', 'expires', 'age', 'date'];
  const shown = names.filter((n) => res.headers.get(n) !== null);
  if (shown.length === 0)
    out.push(p.dim('  no caching headers: a client falls back to its own default'));
  for (const n of shown)
    out.push(
      row(
        n
          .replace(/(^|-)([a-z])/g, (_m, d: string, c: string) => `${d}${c.toUpperCase()}`)
          .replace('Etag', 'ETag'),
        res.headers.get(n)!,
        16,
      ),
    );
  const maxAge = /max-age=(\d+)/i.exec(res.headers.get('cache-control') ?? '')?.[1];
  const revalidate = res.headers.get('etag')
    ? 'If-None-Match'
    : res.headers.get('last-modified')
      ? 'If-Modified-Since'
      : undefined;
  if (maxAge)
    out.push(
      p.dim(
        `  a client may reuse it for ${maxAge} s${revalidate ? `, then revalidate with ${revalidate}` : ''}`,
      ),
    );
  return out;
}
