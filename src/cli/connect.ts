/**
 * From the agent flags to a connected client: fetch the card (recording its HTTP response), check
 * its signature against `--trust-jwks`, apply `--tenant`, and build the client with the credentials,
 * headers, accepted bindings, timeout and `--verbose` interceptors. Only the public client is used.
 */
import { readFile } from 'node:fs/promises';
import {
  A2AClient,
  discoverAgentCard,
  type AgentCard,
  type CardTrust,
  type ConnectOptions,
} from 'a2a-kit/client';
import { grpcTransport } from 'a2a-kit/client/grpc';
import type { Args } from './args.js';
import {
  CLI_BINDINGS,
  DEFAULT_CALL_TIMEOUT_MS,
  DEFAULT_MAX_BYTES,
  parseHeader,
  parseSize,
  parseVersions,
} from './args.js';
import { UsageError } from './exit-codes.js';
import type { Terminal } from './terminal.js';
import { decisionLog, readUpTo, recordingFetch, wireLog, type CardResponse } from './verbose.js';

type Jwks = Extract<CardTrust['jwks'], { keys: unknown }>;

/** The bindings this client has a transport for, by the names a user may type. */
const BINDING_NAMES: Readonly<Record<string, string>> = {
  JSONRPC: 'JSONRPC',
  'JSON-RPC': 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  REST: 'HTTP+JSON',
  HTTP: 'HTTP+JSON',
  GRPC: 'GRPC',
};

/** One gRPC transport for the whole run: a command that talks to one agent twice shares its connection. */
const GRPC = { GRPC: grpcTransport() };

/** The agent flags, checked. */
export interface AgentSettings {
  /** `--token` or `$A2A_TOKEN`. */
  token: string | undefined;
  /** `--header`, by name. */
  headers: Record<string, string>;
  /** `--binding`, normalised; undefined = every binding this client speaks (the card's order decides). */
  bindings: string[] | undefined;
  /** `--tenant`. */
  tenant: string | undefined;
  /** `--trust-jwks` / `--require-signature`, undefined when neither was given. */
  trust: (() => Promise<CardTrust>) | undefined;
  /** `--timeout` in ms, else the default per call and card fetch (30 s). */
  timeoutMs: number;
  /** `--versions` or `$A2A_VERSIONS`; undefined = the client's default (1.0 only). */
  versions: string[] | undefined;
  /** `--max-bytes`, when given (the card, each answer and each stream event). */
  maxBytes: number | undefined;
  /** `--verbose`. */
  verbose: boolean;
}

/** A fetched card and what came with it. */
export interface DiscoveredAgent {
  /** The URL given on the command line. */
  url: string;
  /** The validated card. */
  card: AgentCard;
  /** Where it was fetched from. */
  cardUrl: string | undefined;
  /** The HTTP response that carried it. */
  response: CardResponse | undefined;
  /** The keys trusted to sign cards, when `--trust-jwks` was given. */
  trust: CardTrust | undefined;
}

/** A discovered agent with a client bound to its chosen interface. */
export interface AgentConnection extends DiscoveredAgent {
  /** The client. */
  client: A2AClient;
}

/** Reads the agent flags (and A2A_TOKEN); throws UsageError for a malformed one. */
export function agentSettings(
  args: Args,
  env: NodeJS.ProcessEnv,
  timeoutMs: number | undefined,
): AgentSettings {
  const bindings = args.list('binding', true).map((b) => {
    const name = BINDING_NAMES[b.toUpperCase()];
    if (!name)
      throw new UsageError(`--binding "${b}": this client speaks ${CLI_BINDINGS.join(', ')}`);
    return name;
  });
  const headers = Object.fromEntries(args.list('header').map(parseHeader));
  const jwks = args.str('trust-jwks');
  const requireSignature = args.flag('require-signature');
  const maxBytes = args.str('max-bytes');
  return {
    token: args.str('token') ?? (env.A2A_TOKEN?.trim() || undefined),
    headers,
    bindings: bindings.length ? [...new Set(bindings)] : undefined,
    tenant: args.str('tenant'),
    trust:
      jwks || requireSignature
        ? async () => ({
            ...(jwks ? { jwks: await loadJwks(jwks, timeoutMs) } : {}),
            requireSignature,
          })
        : undefined,
    timeoutMs: timeoutMs ?? DEFAULT_CALL_TIMEOUT_MS,
    versions:
      parseVersions(args.list('versions'), '--versions') ??
      parseVersions(env.A2A_VERSIONS ? [env.A2A_VERSIONS] : [], 'A2A_VERSIONS'),
    maxBytes: maxBytes === undefined ? undefined : parseSize(maxBytes, '--max-bytes'),
    verbose: args.flag('verbose'),
  };
}

/** A JWKS from a file or an http(s) URL. */
async function loadJwks(source: string, timeoutMs: number | undefined): Promise<Jwks> {
  let text: string;
  try {
    if (/^https?:\/\//i.test(source)) {
      const res = await fetch(source, { signal: AbortSignal.timeout(timeoutMs ?? 10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const body = await readUpTo(res, 1024 * 1024);
      if (body === undefined) throw new Error('larger than 1 MiB');
      text = body;
    } else text = await readFile(source, 'utf8');
  } catch (err) {
    throw new UsageError(`--trust-jwks ${source}: could not read it (${(err as Error).message})`);
  }
  let set: unknown;
  try {
    set = JSON.parse(text);
  } catch {
    throw new UsageError(`--trust-jwks ${source}: not JSON`);
  }
  if (typeof set !== 'object' || set === null || !Array.isArray((set as { keys?: unknown }).keys)) {
    throw new UsageError(`--trust-jwks ${source}: not a JWKS (an object with a "keys" array)`);
  }
  return set as Jwks;
}

/** Fetches and validates the card; with `verify`, a signature that fails `--trust-jwks` is an error. */
export async function discoverAgent(
  url: string,
  s: AgentSettings,
  term: Terminal,
  signal: AbortSignal,
  verify: boolean,
): Promise<DiscoveredAgent> {
  let response: CardResponse | undefined;
  const trust = s.trust ? await s.trust() : undefined;
  term.waiting(`fetching the card of ${url}`);
  try {
    const found = await discoverAgentCard(url, {
      fetch: recordingFetch(
        term,
        s.verbose,
        (r) => (response = r),
        s.maxBytes ?? DEFAULT_MAX_BYTES,
      ),
      cache: false,
      signal,
      headers: s.headers,
      timeoutMs: s.timeoutMs,
      ...(s.maxBytes !== undefined ? { maxResponseBytes: s.maxBytes } : {}),
      ...(verify && trust ? { trust } : {}),
    });
    return { url, card: found.card, cardUrl: found.cardUrl, response, trust };
  } finally {
    term.done();
  }
}

/** The client for a discovered agent; throws NO_COMPATIBLE_INTERFACE when the card offers nothing this client speaks. */
export function clientFor(
  agent: DiscoveredAgent,
  s: AgentSettings,
  term: Terminal,
): AgentConnection {
  // --tenant overrides the interface's tenant; the client copies the chosen interface's tenant into every request.
  const card =
    s.tenant === undefined
      ? agent.card
      : {
          ...agent.card,
          supportedInterfaces: agent.card.supportedInterfaces.map((i) => ({
            ...i,
            tenant: s.tenant,
          })),
        };
  const options: ConnectOptions = {
    headers: s.headers,
    transports: GRPC,
    ...(s.token
      ? {
          credentials: {
            bearer: s.token,
            apiKey: s.token,
            oauth2: s.token,
            openIdConnect: s.token,
          },
        }
      : {}),
    ...(s.bindings ? { bindings: s.bindings } : {}),
    timeoutMs: s.timeoutMs,
    ...(s.versions ? { versions: s.versions } : {}),
    ...(s.maxBytes !== undefined
      ? { maxResponseBytes: s.maxBytes, maxEventBytes: s.maxBytes }
      : {}),
    ...(agent.trust ? { trust: agent.trust } : {}),
    ...(s.verbose ? { interceptors: [wireLog(term)], logger: decisionLog(term) } : {}),
  };
  return { ...agent, client: new A2AClient(card, options) };
}
