/**
 * Webhook URL guard against server-side request forgery (spec §13.2 recommends it).
 *
 * A push config's URL is checked twice: when the config is created ({@link assertWebhookUrl}) and again
 * before every delivery attempt ({@link checkWebhookUrl}), because a hostname may be re-pointed after the
 * first check (DNS rebinding). The delivery transport then connects only to the addresses this check
 * returned, so what was checked is what gets connected to.
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { A2AError } from '../../protocol/index.js';
import { embeddedIPv4, type EmbeddedIPv4 } from './embedded-ipv4.js';

/** One resolved address of a webhook host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a hostname to every address it has. Injectable so tests never touch real DNS. */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

/** Operator policy for webhook destinations. The defaults refuse everything that is not public. */
export interface WebhookPolicy {
  /** Allow 127.0.0.0/8, ::1 and `localhost` (development, tests). Default false. */
  allowLoopback?: boolean;
  /** Allow RFC 1918, carrier-grade NAT (100.64/10) and unique-local IPv6 (fc00::/7). Default false. */
  allowPrivate?: boolean;
  /**
   * Hosts trusted whatever they resolve to: exact names (case-insensitive) or `*.example.com` patterns,
   * IP literals without brackets. Cloud metadata addresses stay refused even for these hosts.
   */
  allowedHosts?: readonly string[];
  /** Allowlist mode: refuse every host not matched by {@link allowedHosts}. Default false. */
  onlyAllowedHosts?: boolean;
  /** Refuse plain `http:` URLs. Default false (the spec only recommends HTTPS). */
  requireHttps?: boolean;
  /** Name resolution; defaults to `dns.lookup` with all addresses. */
  resolve?: HostResolver;
}

/** Why a URL was refused. */
export type WebhookRefusal =
  | 'invalid-url'
  | 'scheme'
  | 'userinfo'
  | 'not-allowlisted'
  | 'resolution-failed'
  | 'loopback'
  | 'private'
  | 'link-local'
  | 'metadata'
  | 'unspecified'
  | 'multicast'
  | 'reserved';

export type WebhookCheck =
  | { ok: true; url: URL; hostname: string; addresses: ResolvedAddress[] }
  | { ok: false; reason: WebhookRefusal; message: string };

type AddressClass = Exclude<
  WebhookRefusal,
  'invalid-url' | 'scheme' | 'userinfo' | 'not-allowlisted' | 'resolution-failed'
>;

const DESCRIPTIONS: Record<AddressClass, string> = {
  loopback: 'a loopback address',
  private: 'a private-network address',
  'link-local': 'a link-local address',
  metadata: 'a cloud metadata service address',
  unspecified: 'the unspecified address',
  multicast: 'a multicast or broadcast address',
  reserved: 'a reserved or documentation address',
};

function blockList(v4: [string, number][], v6: [string, number][]): BlockList {
  const list = new BlockList();
  for (const [net, prefix] of v4) list.addSubnet(net, prefix, 'ipv4');
  for (const [net, prefix] of v6) list.addSubnet(net, prefix, 'ipv6');
  return list;
}

// Order matters: the first matching class names the refusal (metadata before link-local, etc.).
// Node's BlockList matches IPv4 rules against IPv4-mapped IPv6 addresses (::ffff:a.b.c.d) by itself; the
// other embeddings are decoded by embedded-ipv4.ts.
const CLASSES: [AddressClass, BlockList][] = [
  ['unspecified', blockList([['0.0.0.0', 32]], [['::', 128]])],
  [
    'metadata',
    blockList(
      [
        ['169.254.169.254', 32],
        ['169.254.170.2', 32],
        ['100.100.100.200', 32],
        ['168.63.129.16', 32],
      ],
      [['fd00:ec2::254', 128]],
    ),
  ],
  ['loopback', blockList([['127.0.0.0', 8]], [['::1', 128]])],
  ['link-local', blockList([['169.254.0.0', 16]], [['fe80::', 10]])],
  [
    'private',
    blockList(
      [
        ['10.0.0.0', 8],
        ['172.16.0.0', 12],
        ['192.168.0.0', 16],
        ['100.64.0.0', 10],
      ],
      [
        ['fc00::', 7],
        ['fec0::', 10],
      ],
    ),
  ],
  [
    'multicast',
    blockList(
      [
        ['224.0.0.0', 4],
        ['255.255.255.255', 32],
      ],
      [['ff00::', 8]],
    ),
  ],
  [
    'reserved',
    blockList(
      [
        ['0.0.0.0', 8],
        ['192.0.0.0', 24],
        ['192.0.2.0', 24],
        ['198.18.0.0', 15],
        ['198.51.100.0', 24],
        ['203.0.113.0', 24],
        ['240.0.0.0', 4],
      ],
      [
        ['2001:db8::', 32],
        ['100::', 64],
      ],
    ),
  ],
];

/** The class of an address and, when it came from an IPv4 address embedded in an IPv6 one, that IPv4 address. */
interface Classified {
  cls: AddressClass;
  embedded?: EmbeddedIPv4;
}

function classify(address: string): Classified | undefined {
  const bare = address.split('%')[0] ?? '';
  const family = isIP(bare);
  if (family === 0) return { cls: 'reserved' };
  // Embedded IPv4 first, so the refusal names the IPv4 address the packets would reach.
  for (const inner of family === 6 ? embeddedIPv4(bare) : []) {
    const found = classify(inner.address);
    if (found) return { cls: found.cls, embedded: inner };
  }
  for (const [cls, list] of CLASSES)
    if (list.check(bare, family === 4 ? 'ipv4' : 'ipv6')) return { cls };
  return undefined;
}

/**
 * The class of a non-public address, or undefined for an ordinary public one. An IPv6 address that
 * embeds an IPv4 one (IPv4-mapped, NAT64, 6to4, Teredo, ISATAP…) is judged by that IPv4 address too.
 */
export function classifyAddress(address: string): AddressClass | undefined {
  return classify(address)?.cls;
}

function hostMatches(host: string, patterns: readonly string[]): boolean {
  return patterns.some((raw) => {
    const p = raw.toLowerCase().replace(/\.$/, '');
    return p.startsWith('*.')
      ? host.endsWith(p.slice(1)) && host.length > p.length - 1
      : host === p;
  });
}

/** `dns.lookup` with every address, in resolver order. */
export const systemResolve: HostResolver = async (hostname) =>
  (await lookup(hostname, { all: true, verbatim: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? 6 : 4,
  }));

/**
 * Remembers successful resolutions for `ttlMs`. Safe against DNS rebinding because the sender connects
 * to the addresses that were checked, never to a fresh answer; it only spares the libuv thread pool a
 * lookup per delivery. Failures are not cached.
 */
export function cachingResolver(
  inner: HostResolver,
  ttlMs: number,
  now: () => number = Date.now,
  maxEntries = 1000,
): HostResolver {
  const cache = new Map<string, { at: number; addresses: ResolvedAddress[] }>();
  return async (hostname) => {
    const hit = cache.get(hostname);
    if (hit && now() - hit.at < ttlMs) return hit.addresses;
    const addresses = await inner(hostname);
    cache.delete(hostname);
    // Map iteration order is insertion order, so the first key is the oldest entry.
    if (cache.size >= maxEntries) cache.delete(cache.keys().next().value as string);
    cache.set(hostname, { at: now(), addresses });
    return addresses;
  };
}

const refuse = (reason: WebhookRefusal, message: string): WebhookCheck => ({
  ok: false,
  reason,
  message,
});

/**
 * Checks a webhook URL against the policy: scheme, credentials in the URL, allowlist, then every address
 * the host resolves to. Never opens a connection; the only traffic is name resolution.
 */
export async function checkWebhookUrl(
  rawUrl: string,
  policy: WebhookPolicy = {},
): Promise<WebhookCheck> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return refuse('invalid-url', 'webhook URL is not an absolute URL');
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !policy.requireHttps)) {
    const allowed = policy.requireHttps ? 'https' : 'http or https';
    return refuse(
      'scheme',
      `webhook URL scheme ${url.protocol.replace(':', '')} is not allowed (only ${allowed})`,
    );
  }
  if (url.username || url.password) {
    return refuse(
      'userinfo',
      "webhook URL must not embed credentials; use the config's authentication instead",
    );
  }
  const hostname = url.hostname
    .replace(/^\[|\]$/g, '')
    .toLowerCase()
    .replace(/\.$/, '');
  const allowlisted = hostMatches(hostname, policy.allowedHosts ?? []);
  if (policy.onlyAllowedHosts && !allowlisted) {
    return refuse('not-allowlisted', `webhook host ${hostname} is not in the operator's allowlist`);
  }
  // RFC 6761: these names are loopback whatever a resolver claims.
  if (
    (hostname === 'localhost' || hostname.endsWith('.localhost')) &&
    !allowlisted &&
    !policy.allowLoopback
  ) {
    return refuse(
      'loopback',
      `webhook host ${hostname} is a loopback name; loopback destinations are not allowed`,
    );
  }
  let addresses: ResolvedAddress[];
  const literal = isIP(hostname);
  if (literal) {
    addresses = [{ address: hostname, family: literal === 6 ? 6 : 4 }];
  } else {
    try {
      addresses = await (policy.resolve ?? systemResolve)(hostname);
    } catch (e) {
      const code = (e as { code?: string }).code ?? (e as Error).message;
      return refuse(
        'resolution-failed',
        `webhook host ${hostname} could not be resolved (${code})`,
      );
    }
    if (addresses.length === 0)
      return refuse('resolution-failed', `webhook host ${hostname} has no addresses`);
  }
  for (const { address } of addresses) {
    const found = classify(address);
    if (!found) continue;
    const { cls, embedded } = found;
    const permitted =
      cls !== 'metadata' &&
      (allowlisted ||
        (cls === 'loopback' && policy.allowLoopback) ||
        (cls === 'private' && policy.allowPrivate));
    if (!permitted) {
      const notes = [
        literal ? '' : `it resolves to ${address}`,
        embedded ? `it embeds ${embedded.address}, ${embedded.via}` : '',
      ];
      const via = notes.some(Boolean) ? ` (${notes.filter(Boolean).join('; ')})` : '';
      return refuse(
        cls,
        `webhook host ${hostname} is ${DESCRIPTIONS[cls]}${via}; such destinations are not allowed`,
      );
    }
  }
  return { ok: true, url, hostname, addresses };
}

/**
 * Config-creation check: throws an InvalidParams A2AError naming `field` when the URL is refused, so the
 * client learns why (e.g. "webhook host 10.0.0.1 is a private-network address").
 */
export async function assertWebhookUrl(
  rawUrl: string,
  policy: WebhookPolicy = {},
  field = 'url',
): Promise<URL> {
  const check = await checkWebhookUrl(rawUrl, policy);
  if (!check.ok) throw A2AError.invalidParams([{ field, description: check.message }]);
  return check.url;
}

/** A URL safe to log: no query string or fragment (they often carry secrets), no userinfo. */
export function redactUrl(rawUrl: string): string {
  try {
    const u = new URL(rawUrl);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return '(invalid URL)';
  }
}
