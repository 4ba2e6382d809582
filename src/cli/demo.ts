/**
 * `npm start`: the kit end to end. Starts the three agents, runs the planner on a sample change
 * (tests → review → deploy), prints the transcript, stops everything. Exit 0 when the change is
 * deployed, 1 when the pipeline stopped (e.g. `--project change-broken`), 2 on bad usage.
 * Planner flags pass through: --project, --target, --no-confirm, --verify-cards.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pino } from 'pino';
import { generateKeyPair, exportJWK } from 'jose';
import { startKitAgents } from '../kit/agents/start.js';
import { loadConfig, runPlanner } from '../kit/planner/index.js';

async function main(argv: string[]): Promise<number> {
  const root = process.cwd();
  const workDir = path.resolve(process.env.KIT_WORK_DIR ?? '.kit-work');
  const workspaceRoot = path.resolve(process.env.KIT_WORKSPACE ?? 'samples');
  const releasesDir = path.join(workDir, 'releases');
  await mkdir(releasesDir, { recursive: true });
  // The demo plays both sides, so it mints the deployer's token and hands it to the planner in memory.
  const deployerToken = process.env.DEPLOYER_TOKEN?.trim() || randomBytes(32).toString('base64url');
  const cfg = loadConfig(argv, { ...process.env, DEPLOYER_TOKEN: deployerToken }, root);

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
    signingKeys: [{ privateKey, kid, alg: 'ES256' }],
  });
  for (const a of Object.values(kit.agents)) out.write(`  ${a.name.padEnd(14)} ${a.cardUrl}\n`);
  try {
    const result = await runPlanner(
      { ...cfg, agents: Object.values(kit.agents).map((a) => a.baseUrl) },
      { out, workspaceRoot, trust: { keys: [{ kid, key: publicJwk }] } },
    );
    return result.ok ? 0 : 1;
  } finally {
    await kit.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`demo failed: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
