/**
 * `npm start`: the kit end to end. Starts the three agents, runs the planner on a sample change
 * (tests → review → deploy), prints the transcript, stops everything. Exit 0 when the change is
 * deployed, 1 when the pipeline stopped (e.g. `--project change-broken`), 2 on bad usage or when the kit cannot start.
 * Planner flags pass through: --project, --target, --no-confirm, --verify-cards, --agents, --config.
 * `--ui` also opens the inspector's kit view (the pipeline live in the browser) and keeps it, and the
 * agents, running after the run until Ctrl-C.
 * The agents listen on `--ports P1,P2,P3` (or KIT_PORTS; 0 picks a free port), else on the ports of the
 * planner's configured agents when those are on this machine (KIT_AGENTS, kit.config.json), else 41241–41243.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { generateKeyPair, exportJWK } from 'jose';
import { startKitAgents } from '../agents/start.js';
import type { KitAgentName } from '../agents/cards.js';
import { loadConfig, runPlanner } from '../planner/index.js';
import { kitUi } from '../ui/index.js';

const NAMES: KitAgentName[] = ['test-runner', 'code-reviewer', 'deployer'];

class UsageError extends Error {}

/** `--ports`/KIT_PORTS, else the configured agents' ports when all three are local, else the defaults. */
function agentPorts(flag: string | undefined, env: NodeJS.ProcessEnv, agents: string[]): Partial<Record<KitAgentName, number>> {
  const explicit = flag ?? env.KIT_PORTS;
  let ports: number[];
  if (explicit !== undefined) {
    ports = explicit.split(',').map((p) => (/^\s*\d+\s*$/.test(p) ? Number(p) : NaN));
    if (ports.length !== 3 || ports.some((n) => !(n >= 0 && n <= 65535))) {
      throw new UsageError(`${flag !== undefined ? '--ports' : 'KIT_PORTS'} expects three ports (test-runner,code-reviewer,deployer), got "${explicit}"`);
    }
  } else {
    const local = agents.map((a) => new URL(a)).filter((u) => ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) && u.port);
    if (agents.length !== 3 || local.length !== 3) return {};
    ports = local.map((u) => Number(u.port));
  }
  return Object.fromEntries(NAMES.map((n, i) => [n, ports[i]!]));
}

async function main(argv: string[]): Promise<number> {
  const ui = kitUi(argv); // --ui: the inspector's kit view, live (kit/src/ui); takes the flag out of argv
  const root = process.cwd();
  const workDir = path.resolve(process.env.KIT_WORK_DIR ?? '.kit-work');
  const workspaceRoot = path.resolve(process.env.KIT_WORKSPACE ?? 'samples');
  const releasesDir = path.join(workDir, 'releases');
  await mkdir(releasesDir, { recursive: true });
  // The demo plays both sides, so it mints the deployer's token and hands it to the planner in memory.
  const deployerToken = process.env.DEPLOYER_TOKEN?.trim() || randomBytes(32).toString('base64url');
  const p = argv.indexOf('--ports');
  if (p >= 0 && argv[p + 1] === undefined) throw new UsageError('--ports needs a value');
  const portsFlag = p >= 0 ? argv[p + 1] : undefined;
  const plannerArgs = p >= 0 ? [...argv.slice(0, p), ...argv.slice(p + 2)] : argv;
  let cfg;
  try {
    cfg = loadConfig(plannerArgs, { ...process.env, DEPLOYER_TOKEN: deployerToken }, root);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  const ports = agentPorts(portsFlag, process.env, cfg.agents);

  // The kit signs its cards with a key made for this run; the planner trusts exactly that key.
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `kit-demo-${randomBytes(4).toString('hex')}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };

  const logger = pino({ level: process.env.LOG_LEVEL ?? 'warn' }, pino.destination({ dest: 2, sync: true }));
  const out = process.stdout;
  out.write(`a2a-kit demo · A2A 1.0.1 · change "${cfg.project}" → ${cfg.target}\n`);
  out.write('starting test-runner, code-reviewer and deployer …\n');
  const kit = await startKitAgents({
    workspaceRoot,
    releasesDir,
    deployerToken,
    logger,
    ports,
    signingKeys: [{ privateKey, kid, alg: 'ES256' }],
  });
  for (const a of Object.values(kit.agents)) out.write(`  ${a.name.padEnd(14)} ${a.cardUrl}\n`);
  try {
    const result = await runPlanner(
      { ...cfg, agents: Object.values(kit.agents).map((a) => a.baseUrl) },
      { out, workspaceRoot, trust: { keys: [{ kid, key: publicJwk }] }, ...(await ui.attach(kit, { keys: [{ kid, key: publicJwk }] })) },
    );
    return result.ok ? 0 : 1;
  } finally {
    await ui.hold();
    await kit.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const usage = err instanceof UsageError;
    process.stderr.write(`${usage ? 'demo: bad usage' : 'demo failed'}: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
