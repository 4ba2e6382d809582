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
};

/** `41241` → `http://localhost:41241`; URLs pass through. */
export function agentUrl(value: string): string {
  const v = value.trim();
  if (/^\d+$/.test(v)) return `http://localhost:${v}`;
  if (!/^https?:\/\//.test(v)) throw new Error(`"${v}" is neither a port nor an http(s) URL`);
  return v.replace(/\/+$/, '');
}

const FLAGS: Record<string, keyof PlannerConfig> = {
  '--project': 'project',
  '--target': 'target',
  '--verify-cards': 'verifyCards',
  '--webhook-port': 'webhookPort',
  '--timeout': 'taskTimeoutMs',
};

/**
 * Merge, lowest first: defaults, the config file (`kit.config.json` or `--config FILE`),
 * `KIT_AGENTS` (comma-separated ports or URLs) and `DEPLOYER_TOKEN`, then flags
 * (`--agents 41241,41242,41243`, `--project`, `--target`, `--no-confirm`, `--verify-cards`).
 */
export function loadConfig(argv: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): PlannerConfig {
  const cfg: PlannerConfig = { ...DEFAULT_CONFIG };
  const fileFlag = argv.indexOf('--config');
  const file = fileFlag >= 0 ? argv[fileFlag + 1] : `${cwd}/kit.config.json`;
  let text: string | undefined;
  try {
    text = readFileSync(file!, 'utf8');
  } catch (err) {
    if (fileFlag >= 0) throw new Error(`cannot read config file ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (text !== undefined) {
    const json = JSON.parse(text) as { planner?: Partial<PlannerConfig> };
    Object.assign(cfg, json.planner ?? {});
    if (json.planner?.agents) cfg.agents = json.planner.agents.map(String).map(agentUrl);
  }
  if (env.KIT_AGENTS) cfg.agents = env.KIT_AGENTS.split(',').filter(Boolean).map(agentUrl);
  if (env.DEPLOYER_TOKEN) cfg.deployerToken = env.DEPLOYER_TOKEN;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--agents') cfg.agents = (argv[++i] ?? '').split(',').filter(Boolean).map(agentUrl);
    else if (a === '--no-confirm') cfg.confirmProduction = false;
    else if (a === '--config') i++;
    else if (FLAGS[a]) {
      const key = FLAGS[a]!;
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      (cfg as unknown as Record<string, unknown>)[key] = typeof DEFAULT_CONFIG[key] === 'number' ? Number(v) : v;
    }
  }
  if (cfg.target !== 'staging' && cfg.target !== 'production') throw new Error(`--target must be staging or production, not ${cfg.target}`);
  if (!['required', 'if-signed', 'off'].includes(cfg.verifyCards)) throw new Error(`--verify-cards must be required, if-signed or off`);
  if (cfg.agents.length === 0) throw new Error('no agents configured');
  return cfg;
}
