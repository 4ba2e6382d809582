/**
 * Credentials never reach the page: every header, URL and body the wire view shows passes through a
 * {@link Masker} first, and the `curl` command puts a shell variable where a secret was.
 */

/** What a masked secret looks like in the page. */
export const MASK = '••••••••';

/** Headers that carry credentials whatever the card says. */
const ALWAYS_SECRET = new Set([
  'authorization',
  'proxy-authorization',
  'cookie',
  'set-cookie',
  'x-api-key',
  'api-key',
]);

/** JSON members that hold a webhook's credentials (push configs): `"token": "…"`, `"credentials": "…"`. */
const SECRET_MEMBERS = /("(?:token|credentials)"\s*:\s*)"(?:[^"\\]|\\.)*"/g;

/** Where one agent's credentials go on the wire, so that exactly those places are masked. */
export interface MaskRules {
  /** The secrets themselves (tokens, API keys, `user:password` and its base64). */
  secrets: readonly string[];
  /** Header names (any case) that carry an API key for this agent. */
  headers: readonly string[];
  /** Query parameter names that carry an API key for this agent. */
  query: readonly string[];
}

/** Masks one agent's credentials in what the wire view records. */
export class Masker {
  constructor(private readonly rules: () => MaskRules) {}

  /** A header value as the page may see it (`Bearer ••••••••` keeps the scheme word). */
  header(name: string, value: string): string {
    const r = this.rules();
    const lower = name.toLowerCase();
    if (ALWAYS_SECRET.has(lower) || r.headers.some((h) => h.toLowerCase() === lower)) {
      const scheme = /^(Bearer|Basic|Digest|DPoP|Token)\s+/i.exec(value);
      return lower.includes('authorization') && scheme ? `${scheme[1]} ${MASK}` : MASK;
    }
    return this.text(value);
  }

  /** A URL with API keys in its query masked. */
  url(raw: string): string {
    let u: URL;
    try {
      u = new URL(raw);
    } catch {
      return this.text(raw);
    }
    for (const name of this.rules().query)
      if (u.searchParams.has(name)) u.searchParams.set(name, MASK);
    return this.text(u.toString().replaceAll(encodeURIComponent(MASK), MASK));
  }

  /** Any text with the known secrets and webhook credentials masked. */
  text(s: string): string {
    let out = s;
    for (const secret of this.rules().secrets)
      if (secret.length >= 4) out = out.split(secret).join(MASK);
    return out.replace(SECRET_MEMBERS, `$1"${MASK}"`);
  }
}

/** Builds the rules from the credentials held for an agent and the places its card says they go. */
export function maskRules(
  held: Readonly<Record<string, string | { username: string; password: string }>>,
  headers: string[],
  query: string[],
): MaskRules {
  const secrets: string[] = [];
  for (const v of Object.values(held)) {
    if (typeof v === 'string') secrets.push(v, encodeURIComponent(v));
    else {
      const pair = `${v.username}:${v.password}`;
      secrets.push(v.password, pair, Buffer.from(pair, 'utf8').toString('base64'));
    }
  }
  // Longest first, so a secret that contains another is masked whole.
  return { secrets: [...new Set(secrets)].sort((a, b) => b.length - a.length), headers, query };
}

/** Headers curl sets itself or that say nothing about the request. */
const CURL_SKIPS = new Set([
  'content-length',
  'host',
  'connection',
  'accept-encoding',
  'user-agent',
  'sec-fetch-mode',
  'accept-language',
]);

/** Single-quoted for the shell; a masked secret becomes `$A2A_CREDENTIAL` in double quotes. */
function shellQuote(s: string): string {
  if (!s.includes(MASK)) return `'${s.replaceAll("'", `'\\''`)}'`;
  const escaped = s.replace(/[\\"$`]/g, (c) => `\\${c}`);
  return `"${escaped.split(MASK).join('$A2A_CREDENTIAL')}"`;
}

/** What a `curl` command needs to know about a request (already masked). */
export interface CurlRequest {
  method: string;
  url: string;
  headers: ReadonlyArray<readonly [string, string]>;
  body?: string | undefined;
  /** A body too large to write out: the command reads it from this file (`--data-binary @file`). */
  bodyFile?: string | undefined;
  streaming?: boolean;
}

/**
 * The request as a `curl` command a person can paste: `-N` for streams, masked credentials as
 * `$A2A_CREDENTIAL` (set it first), one option per line.
 */
export function curlCommand(req: CurlRequest): string {
  const args: string[] = ['curl'];
  if (req.streaming) args.push('-N');
  if (req.method !== 'GET' || req.body !== undefined || req.bodyFile !== undefined)
    args.push('-X', req.method);
  args.push(shellQuote(req.url));
  for (const [k, v] of req.headers)
    if (!CURL_SKIPS.has(k.toLowerCase())) args.push('-H', shellQuote(`${k}: ${v}`));
  if (req.body !== undefined) args.push('--data-raw', shellQuote(req.body));
  else if (req.bodyFile !== undefined) args.push('--data-binary', shellQuote(`@${req.bodyFile}`));
  const lines: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a.startsWith('-') && i + 1 < args.length && !args[i + 1]!.startsWith('-')) {
      lines.push(`${a} ${args[++i]}`);
    } else lines.push(a);
  }
  // `curl -N 'url'` stays on the first line; each option after it gets its own.
  const head = lines.findIndex((l) => l.startsWith("'") || l.startsWith('"'));
  const first = lines.slice(0, head + 1).join(' ');
  return [first, ...lines.slice(head + 1)].join(' \\\n  ');
}

/** What a `grpcurl` command needs to know about a gRPC call (already masked). */
export interface GrpcurlRequest {
  /** `host:port` to dial. */
  target: string;
  /** Whether the interface URL asks for TLS (`https://`, `grpcs://`). */
  tls: boolean;
  /** `package.Service/Method`. */
  method: string;
  metadata: ReadonlyArray<readonly [string, string]>;
  /** The request message as ProtoJSON. */
  body: string;
}

/**
 * The call as a `grpcurl` command (`grpcurl` reads ProtoJSON with `-d`; the A2A proto file is given
 * with `-proto`), credentials as `$A2A_CREDENTIAL` like the curl commands.
 */
export function grpcurlCommand(req: GrpcurlRequest): string {
  const lines = [`grpcurl${req.tls ? '' : ' -plaintext'} -proto a2a.proto`];
  for (const [k, v] of req.metadata) lines.push(`-H ${shellQuote(`${k}: ${v}`)}`);
  lines.push(`-d ${shellQuote(req.body)}`);
  lines.push(`${shellQuote(req.target)} ${req.method}`);
  return lines.join(' \\\n  ');
}
