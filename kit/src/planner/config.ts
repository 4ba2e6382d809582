/**
 * The planner starts from direct configuration (the seed's third discovery route): base URLs of
 * the agents from a config file, overridable by an environment variable and by flags.
 */
import { readFileSync } from 'node:fs';
import { didYouMean, parseFlags, type Flag, type FlagValues } from '../cli/flags.js';

export type VerifyMode = 'required' | 'if-signed' | 'off';

/** A binding the planner's client may speak (`protocolBinding` of a card entry). */
export type PlannerBinding = 'GRPC' | 'JSONRPC' | 'HTTP+JSON';

/** How bindings are written in flags and the config file. */
const BINDING_NAMES: Readonly<Record<string, PlannerBinding>> = {
  grpc: 'GRPC',
  jsonrpc: 'JSONRPC',
  'http+json': 'HTTP+JSON',
  rest: 'HTTP+JSON',
};

export interface PlannerConfig {
  /** Base URLs whose well-known cards are fetched. Order does not matter: skills decide roles. */
  agents: string[];
  /** Project directory (relative to the agents' workspace root) to take through the pipeline. */
  project: string;
  /** Deploy target. */
  target: 'staging' | 'production';
  /** Answer the deployer's confirmation question with yes. */
  confirmProduction: boolean;
  /** Card signature checking. */
  verifyCards: VerifyMode;
  /** Bearer token for the agent whose card requires one (the deployer). */
  deployerToken?: string;
  /** Where the planner's webhook listens for push notifications. */
  webhookHost: string;
  webhookPort: number;
  /** Give up on a task after this long (ms). */
  taskTimeoutMs: number;
  /** Protocol versions the planner may speak (Major.Minor). Default 1.0 only: a 0.3 entry is skipped, and says why. */
  versions: string[];
  /**
   * Bindings the planner's client accepts; the card's order decides among them (§8.3.2). Default
   * JSON-RPC and HTTP+JSON, the manual's client, which skips a GRPC entry.
   */
  bindings: PlannerBinding[];
}

export const DEFAULT_CONFIG: PlannerConfig = {
  agents: ['http://localhost:41241', 'http://localhost:41242', 'http://localhost:41243'],
  project: 'change-ok',
  target: 'production',
  confirmProduction: true,
  verifyCards: 'if-signed',
  webhookHost: '127.0.0.1',
  webhookPort: 0,
  taskTimeoutMs: 120_000,
  versions: ['1.0'],
  bindings: ['JSONRPC', 'HTTP+JSON'],
};

/** `41241` → `http://localhost:41241`; http(s) URLs pass through (without a trailing slash). */
export function agentUrl(value: string): string {
  const v = value.trim();
  if (/^\d+$/.test(v)) {
    const port = Number(v);
    if (port < 1 || port > 65535) throw new Error(`agent port ${v} is out of range (1-65535)`);
    return `http://localhost:${port}`;
  }
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw new Error(`agent "${v}" is neither a port nor an http(s) URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new Error(`agent "${v}" is neither a port nor an http(s) URL`);
  return v.replace(/\/+$/, '');
}

/** Comma-separated ports or URLs; `from` names the source in errors. */
function agentList(value: string, from: string): string[] {
  const parts = value
    .split(',')
    .map((p) => p.trim())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`${from} lists no agents`);
  return parts.map((p) => {
    try {
      return agentUrl(p);
    } catch (err) {
      throw new Error(`${from}: ${(err as Error).message}`, { cause: err });
    }
  });
}

/** `grpc,jsonrpc` → `['GRPC', 'JSONRPC']`; `from` names the source in errors. */
function bindingList(value: string, from: string): PlannerBinding[] {
  const parts = value
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean);
  if (parts.length === 0) throw new Error(`${from} lists no bindings`);
  const out: PlannerBinding[] = [];
  for (const p of parts) {
    const b = BINDING_NAMES[p];
    if (!b) throw new Error(`${from}: unknown binding "${p}" (known: grpc, jsonrpc, http+json)`);
    if (!out.includes(b)) out.push(b);
  }
  return out;
}

/** A planner flag; `setting` is the configuration key it sets (absent for the flags handled apart). */
export interface PlannerFlag extends Flag {
  readonly setting?: keyof PlannerConfig;
}

/**
 * The planner's own flags. `npm run planner` and `npm start` both take them (each adds its own lines), and
 * `--help` and the README's flag tables are made from this list.
 */
export const PLANNER_FLAGS: readonly PlannerFlag[] = [
  {
    name: 'config',
    value: 'FILE',
    default: 'kit.config.json',
    help: 'read the "planner" section of this file (when given, it must exist)',
  },
  {
    name: 'agents',
    value: 'LIST',
    env: 'KIT_AGENTS',
    default: '41241,41242,41243',
    help: "the agents' ports or base URLs, comma-separated, in any order (skills decide roles)",
  },
  {
    name: 'project',
    value: 'DIR',
    setting: 'project',
    default: DEFAULT_CONFIG.project,
    help: 'the change to take through the pipeline, relative to the workspace',
  },
  {
    name: 'target',
    value: 'staging|production',
    setting: 'target',
    default: DEFAULT_CONFIG.target,
    help: 'where to deploy',
  },
  {
    name: 'no-confirm',
    help: 'when the deployer asks to confirm a production deploy, cancel it instead',
  },
  {
    name: 'versions',
    value: 'LIST',
    default: '1.0',
    help: "protocol versions the planner speaks, e.g. 0.3,1.0 (each card's order still decides which entry is taken)",
  },
  {
    name: 'verify-cards',
    value: 'required|if-signed|off',
    setting: 'verifyCards',
    default: DEFAULT_CONFIG.verifyCards,
    help: 'how strictly card signatures are checked',
  },
  {
    name: 'webhook-host',
    value: 'HOST',
    setting: 'webhookHost',
    default: DEFAULT_CONFIG.webhookHost,
    help: "where the planner's push-notification webhook listens",
  },
  {
    name: 'webhook-port',
    value: 'PORT',
    setting: 'webhookPort',
    default: '0 (a free port)',
    help: "the webhook's port",
  },
  {
    name: 'bindings',
    value: 'LIST',
    default: 'jsonrpc,http+json',
    help: 'bindings the planner speaks (grpc, jsonrpc, http+json); grpc,jsonrpc takes the test-runner over gRPC',
  },
  {
    name: 'timeout',
    value: 'MS',
    setting: 'taskTimeoutMs',
    default: String(DEFAULT_CONFIG.taskTimeoutMs),
    help: 'give up on a task after this many milliseconds',
  },
];

const KEYS = new Set<string>(Object.keys(DEFAULT_CONFIG).concat('deployerToken'));

/**
 * Merge, lowest first: defaults, the config file (`kit.config.json` in `cwd`, optional, or `--config FILE`,
 * required), `KIT_AGENTS` (comma-separated ports or URLs) and `DEPLOYER_TOKEN`, then the flags of
 * {@link PLANNER_FLAGS}. Throws an error that names the bad value and where it came from (a
 * {@link UsageError} for a flag that does not exist or lacks its value).
 */
export function loadConfig(
  argv: string[],
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): PlannerConfig {
  return configFrom(parseFlags({ name: 'planner', flags: PLANNER_FLAGS }, argv).values, env, cwd);
}

/** {@link loadConfig} from flags already parsed by a command whose table includes {@link PLANNER_FLAGS}. */
export function configFrom(
  flags: FlagValues,
  env: NodeJS.ProcessEnv,
  cwd = process.cwd(),
): PlannerConfig {
  const cfg: PlannerConfig = { ...DEFAULT_CONFIG };
  const fileFlag = flags.string('config');
  const file = fileFlag ?? `${cwd}/kit.config.json`;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (fileFlag !== undefined)
      throw new Error(`cannot read config file ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (text !== undefined) Object.assign(cfg, fromFile(text, file));
  if (env.KIT_AGENTS !== undefined && env.KIT_AGENTS.trim() !== '')
    cfg.agents = agentList(env.KIT_AGENTS, 'KIT_AGENTS');
  if (env.DEPLOYER_TOKEN?.trim()) cfg.deployerToken = env.DEPLOYER_TOKEN.trim();
  const agents = flags.string('agents');
  if (agents !== undefined) cfg.agents = agentList(agents, '--agents');
  if (flags.bool('no-confirm')) cfg.confirmProduction = false;
  const versions = flags.string('versions');
  if (versions !== undefined)
    cfg.versions = versions
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const bindings = flags.string('bindings');
  if (bindings !== undefined) cfg.bindings = bindingList(bindings, '--bindings');
  for (const f of PLANNER_FLAGS) {
    const v = f.setting ? flags.string(f.name) : undefined;
    if (v === undefined) continue;
    // Numbers stay text when they do not parse, so the check below can show what was given.
    (cfg as unknown as Record<string, unknown>)[f.setting!] =
      typeof DEFAULT_CONFIG[f.setting!] === 'number' && /^\d+$/.test(v) ? Number(v) : v;
  }
  return checked(cfg);
}

/** The `planner` section of a config file, checked for shape (values are checked with the rest). */
function fromFile(text: string, file: string): Partial<PlannerConfig> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`config file ${file} is not valid JSON: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const planner = (json as { planner?: unknown } | null)?.planner;
  if (planner === undefined) return {};
  if (typeof planner !== 'object' || planner === null || Array.isArray(planner))
    throw new Error(`${file}: "planner" must be an object`);
  const out = { ...(planner as Record<string, unknown>) };
  for (const k of Object.keys(out)) {
    if (KEYS.has(k)) continue;
    const near = didYouMean(k, [...KEYS]);
    throw new Error(
      `${file}: unknown setting planner.${k}${near ? ` (did you mean ${near}?)` : ''} (known: ${[...KEYS].join(', ')})`,
    );
  }
  if (out.agents !== undefined) {
    if (
      !Array.isArray(out.agents) ||
      !out.agents.every((x) => typeof x === 'string' || typeof x === 'number')
    ) {
      throw new Error(`${file}: planner.agents must be a list of ports or URLs`);
    }
    out.agents = agentList(out.agents.map(String).join(','), `${file} planner.agents`);
  }
  if (out.bindings !== undefined) {
    const b = out.bindings;
    if (!(typeof b === 'string' || (Array.isArray(b) && b.every((x) => typeof x === 'string'))))
      throw new Error(`${file}: planner.bindings must be a list of bindings`);
    out.bindings = bindingList(Array.isArray(b) ? b.join(',') : b, `${file} planner.bindings`);
  }
  return out;
}

function checked(cfg: PlannerConfig): PlannerConfig {
  const bad = (what: string, v: unknown): never => {
    throw new Error(`${what}, not ${JSON.stringify(v)}`);
  };
  if (cfg.target !== 'staging' && cfg.target !== 'production')
    bad('target must be staging or production', cfg.target);
  if (!['required', 'if-signed', 'off'].includes(cfg.verifyCards))
    bad('verifyCards (--verify-cards) must be required, if-signed or off', cfg.verifyCards);
  if (typeof cfg.project !== 'string' || cfg.project.trim() === '')
    bad('project must be a directory name', cfg.project);
  if (typeof cfg.confirmProduction !== 'boolean')
    bad('confirmProduction must be true or false', cfg.confirmProduction);
  if (
    cfg.deployerToken !== undefined &&
    (typeof cfg.deployerToken !== 'string' || cfg.deployerToken === '')
  )
    bad('deployerToken must be a string', cfg.deployerToken);
  if (typeof cfg.webhookHost !== 'string' || cfg.webhookHost === '')
    bad('webhookHost must be a host name or address', cfg.webhookHost);
  if (!Number.isInteger(cfg.webhookPort) || cfg.webhookPort < 0 || cfg.webhookPort > 65535)
    bad('webhookPort must be a port number (0 picks a free one)', cfg.webhookPort);
  if (!Number.isInteger(cfg.taskTimeoutMs) || cfg.taskTimeoutMs < 1)
    bad('taskTimeoutMs (--timeout) must be a positive number of milliseconds', cfg.taskTimeoutMs);
  if (!Array.isArray(cfg.agents) || cfg.agents.length === 0)
    throw new Error('no agents configured');
  if (
    !Array.isArray(cfg.versions) ||
    cfg.versions.length === 0 ||
    !cfg.versions.every((v) => v === '1.0' || v === '0.3')
  ) {
    bad(
      'versions (--versions) must list protocol versions the planner speaks: 1.0 and/or 0.3, e.g. 0.3,1.0',
      cfg.versions,
    );
  }
  return cfg;
}
