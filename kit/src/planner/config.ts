/**
 * The planner starts from direct configuration (the seed's third discovery route): base URLs of
 * the agents from a config file, overridable by an environment variable and by flags.
 */
import { readFileSync } from 'node:fs';

export type VerifyMode = 'required' | 'if-signed' | 'off';

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
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`agent "${v}" is neither a port nor an http(s) URL`);
  return v.replace(/\/+$/, '');
}

/** Comma-separated ports or URLs; `from` names the source in errors. */
function agentList(value: string, from: string): string[] {
  const parts = value.split(',').map((p) => p.trim()).filter(Boolean);
  if (parts.length === 0) throw new Error(`${from} lists no agents`);
  return parts.map((p) => {
    try {
      return agentUrl(p);
    } catch (err) {
      throw new Error(`${from}: ${(err as Error).message}`, { cause: err });
    }
  });
}

const FLAGS: Record<string, keyof PlannerConfig> = {
  '--project': 'project',
  '--target': 'target',
  '--verify-cards': 'verifyCards',
  '--webhook-host': 'webhookHost',
  '--webhook-port': 'webhookPort',
  '--timeout': 'taskTimeoutMs',
};

const KEYS = new Set<string>(Object.keys(DEFAULT_CONFIG).concat('deployerToken'));

/**
 * Merge, lowest first: defaults, the config file (`kit.config.json` in `cwd`, optional, or `--config FILE`,
 * required), `KIT_AGENTS` (comma-separated ports or URLs) and `DEPLOYER_TOKEN`, then flags (`--agents
 * 41241,41242,41243`, `--project`, `--target`, `--no-confirm`, `--verify-cards`, `--webhook-host`,
 * `--webhook-port`, `--timeout` ms, `--versions 0.3,1.0`). Throws an error that names the bad value and where it came from.
 */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): PlannerConfig {
  const cfg: PlannerConfig = { ...DEFAULT_CONFIG };
  const fileFlag = argv.indexOf('--config');
  if (fileFlag >= 0 && (argv[fileFlag + 1] === undefined || argv[fileFlag + 1]!.startsWith('--'))) throw new Error('--config needs a file name');
  const file = fileFlag >= 0 ? argv[fileFlag + 1]! : `${cwd}/kit.config.json`;
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if (fileFlag >= 0) throw new Error(`cannot read config file ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (text !== undefined) Object.assign(cfg, fromFile(text, file));
  if (env.KIT_AGENTS !== undefined && env.KIT_AGENTS.trim() !== '') cfg.agents = agentList(env.KIT_AGENTS, 'KIT_AGENTS');
  if (env.DEPLOYER_TOKEN?.trim()) cfg.deployerToken = env.DEPLOYER_TOKEN.trim();
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--no-confirm') cfg.confirmProduction = false;
    else if (a === '--config') i++;
    else if (a === '--agents' || a === '--versions' || FLAGS[a]) {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      if (a === '--agents') cfg.agents = agentList(v, '--agents');
      else if (a === '--versions') cfg.versions = v.split(',').map((x) => x.trim()).filter(Boolean);
      else {
        const key = FLAGS[a]!;
        (cfg as unknown as Record<string, unknown>)[key] = typeof DEFAULT_CONFIG[key] === 'number' ? (/^\d+$/.test(v) ? Number(v) : v) : v;
      }
    } else throw new Error(`unknown argument "${a}"`);
  }
  return checked(cfg);
}

/** The `planner` section of a config file, checked for shape (values are checked with the rest). */
function fromFile(text: string, file: string): Partial<PlannerConfig> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    throw new Error(`config file ${file} is not valid JSON: ${(err as Error).message}`, { cause: err });
  }
  const planner = (json as { planner?: unknown } | null)?.planner;
  if (planner === undefined) return {};
  if (typeof planner !== 'object' || planner === null || Array.isArray(planner)) throw new Error(`${file}: "planner" must be an object`);
  const out = { ...(planner as Record<string, unknown>) };
  for (const k of Object.keys(out)) if (!KEYS.has(k)) throw new Error(`${file}: unknown setting planner.${k} (known: ${[...KEYS].join(', ')})`);
  if (out.agents !== undefined) {
    if (!Array.isArray(out.agents) || !out.agents.every((x) => typeof x === 'string' || typeof x === 'number')) {
      throw new Error(`${file}: planner.agents must be a list of ports or URLs`);
    }
    out.agents = agentList(out.agents.map(String).join(','), `${file} planner.agents`);
  }
  return out as Partial<PlannerConfig>;
}

function checked(cfg: PlannerConfig): PlannerConfig {
  const bad = (what: string, v: unknown): never => {
    throw new Error(`${what}, not ${JSON.stringify(v)}`);
  };
  if (cfg.target !== 'staging' && cfg.target !== 'production') bad('target must be staging or production', cfg.target);
  if (!['required', 'if-signed', 'off'].includes(cfg.verifyCards)) bad('verifyCards (--verify-cards) must be required, if-signed or off', cfg.verifyCards);
  if (typeof cfg.project !== 'string' || cfg.project.trim() === '') bad('project must be a directory name', cfg.project);
  if (typeof cfg.confirmProduction !== 'boolean') bad('confirmProduction must be true or false', cfg.confirmProduction);
  if (cfg.deployerToken !== undefined && (typeof cfg.deployerToken !== 'string' || cfg.deployerToken === '')) bad('deployerToken must be a string', cfg.deployerToken);
  if (typeof cfg.webhookHost !== 'string' || cfg.webhookHost === '') bad('webhookHost must be a host name or address', cfg.webhookHost);
  if (!Number.isInteger(cfg.webhookPort) || cfg.webhookPort < 0 || cfg.webhookPort > 65535) bad('webhookPort must be a port number (0 picks a free one)', cfg.webhookPort);
  if (!Number.isInteger(cfg.taskTimeoutMs) || cfg.taskTimeoutMs < 1) bad('taskTimeoutMs (--timeout) must be a positive number of milliseconds', cfg.taskTimeoutMs);
  if (!Array.isArray(cfg.agents) || cfg.agents.length === 0) throw new Error('no agents configured');
  if (!Array.isArray(cfg.versions) || cfg.versions.length === 0 || !cfg.versions.every((v) => v === '1.0' || v === '0.3')) {
    bad('versions (--versions) must list protocol versions the planner speaks: 1.0 and/or 0.3, e.g. 0.3,1.0', cfg.versions);
  }
  return cfg;
}
