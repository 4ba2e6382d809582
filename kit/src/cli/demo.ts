/**
 * `npm start`: the kit end to end. Starts the three agents, runs the planner on a sample change
 * (tests → review → deploy), prints the transcript and a summary (where the release went, time per stage,
 * what to try next), stops everything. Exit 0 when the change is deployed, 1 when the pipeline stopped
 * (e.g. `--project change-broken`), 2 on bad usage or when the kit cannot start, 130 on Ctrl-C (after the
 * running task is canceled). Flags are in DEMO_COMMAND (commands.ts): the planner's, plus `--ports`.
 * `--ui` also opens the inspector's kit view (the pipeline live in the browser) and keeps it, and the
 * agents, running after the run until Ctrl-C.
 * The agents listen on `--ports P1,P2,P3` (or KIT_PORTS; 0 picks a free port), else on the ports of the
 * planner's configured agents when those are on this machine (KIT_AGENTS, kit.config.json), else 41241–41243.
 */
import { randomBytes } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { generateKeyPair, exportJWK } from 'jose';
import { startKitAgents } from '../agents/start.js';
import type { KitAgentName } from '../agents/cards.js';
import {
  configFrom,
  elapsed,
  runPlanner,
  type PipelineResult,
  type PlannerConfig,
} from '../planner/index.js';
import { DEMO_COMMAND, PORT_IN_USE_EXIT, portInUseMessage } from './commands.js';
import { UsageError, helpText, parseFlags, usageLine } from './flags.js';
import { INTERRUPTED_EXIT, onInterrupt } from './interrupt.js';
import { chooseLogFormat, kitLogger } from './log-lines.js';
import { kitUi } from '../ui/index.js';
import { startKitTrace } from '../trace/index.js';

const NAMES: KitAgentName[] = ['test-runner', 'code-reviewer', 'deployer'];

/** `--ports`/KIT_PORTS, else the configured agents' ports when all three are local, else the defaults. */
function agentPorts(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  agents: string[],
): Partial<Record<KitAgentName, number>> {
  const explicit = flag ?? env.KIT_PORTS;
  let ports: number[];
  if (explicit !== undefined) {
    ports = explicit.split(',').map((p) => (/^\s*\d+\s*$/.test(p) ? Number(p) : NaN));
    if (ports.length !== 3 || ports.some((n) => !(n >= 0 && n <= 65535))) {
      throw new UsageError(
        `${flag !== undefined ? '--ports' : 'KIT_PORTS'} expects three ports (test-runner,code-reviewer,deployer), got "${explicit}"`,
      );
    }
  } else {
    const local = agents
      .map((a) => new URL(a))
      .filter((u) => ['localhost', '127.0.0.1', '[::1]'].includes(u.hostname) && u.port);
    if (agents.length !== 3 || local.length !== 3) return {};
    ports = local.map((u) => Number(u.port));
  }
  return Object.fromEntries(NAMES.map((n, i) => [n, ports[i]!]));
}

/** What to try after this run, skipping what was just done. */
function nextSteps(r: PipelineResult, cfg: PlannerConfig): Array<[string, string]> {
  if (r.interrupted) return [['npm start', 'the whole run again']];
  const rows: Array<[string, string]> = [];
  if (!r.ok && cfg.project !== 'change-ok')
    rows.push(['npm start', 'the same pipeline on change-ok, whose tests pass']);
  if (cfg.project !== 'change-broken')
    rows.push([
      'npm run demo:broken',
      'a change whose tests fail: the pipeline stops before deploy',
    ]);
  if (r.ok && cfg.target === 'production' && cfg.confirmProduction) {
    rows.push([
      'npm start -- --no-confirm',
      'decline the production confirmation: the deploy is canceled',
    ]);
  }
  rows.push([
    'npm run agents',
    'the agents alone, for npm run planner, npm run replay -- http/*.http or your editor',
  ]);
  rows.push(['npm start -- --help', 'every flag']);
  return rows;
}

async function main(argv: string[]): Promise<number> {
  const ui = kitUi(argv); // --ui: the inspector's kit view, live (kit/src/ui); takes the flag out of argv
  const { values } = parseFlags(DEMO_COMMAND, argv);
  if (values.bool('help')) {
    process.stdout.write(helpText(DEMO_COMMAND));
    return 0;
  }
  const workDir = path.resolve(
    values.string('work-dir') ?? process.env.KIT_WORK_DIR ?? '.kit-work',
  );
  const workspaceRoot = path.resolve(
    values.string('workspace') ?? process.env.KIT_WORKSPACE ?? 'samples',
  );
  const releasesDir = path.join(workDir, 'releases');
  // The demo plays both sides, so it mints the deployer's token and hands it to the planner in memory.
  const deployerToken = process.env.DEPLOYER_TOKEN?.trim() || randomBytes(32).toString('base64url');
  let cfg: PlannerConfig;
  try {
    cfg = configFrom(values, { ...process.env, DEPLOYER_TOKEN: deployerToken });
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  const ports = agentPorts(values.string('ports'), process.env, cfg.agents);
  await mkdir(releasesDir, { recursive: true });

  // The kit signs its cards with a key made for this run; the planner trusts exactly that key.
  const { publicKey, privateKey } = await generateKeyPair('ES256', { extractable: true });
  const kid = `kit-demo-${randomBytes(4).toString('hex')}`;
  const publicJwk = { ...(await exportJWK(publicKey)), kid, alg: 'ES256', use: 'sig' };

  // --trace: an in-memory OpenTelemetry SDK, registered before any server or client exists.
  const tracing = values.bool('trace') ? await startKitTrace() : undefined;
  const logger = kitLogger(
    chooseLogFormat(undefined, process.env, process.stderr.isTTY),
    process.env.LOG_LEVEL ?? 'warn',
  );
  const out = process.stdout;
  out.write(`a2a-kit demo · A2A 1.0.1 · change "${cfg.project}" → ${cfg.target}\n`);
  out.write('starting test-runner, code-reviewer and deployer … ');
  const started = performance.now();
  const kit = await startKitAgents({
    workspaceRoot,
    releasesDir,
    deployerToken,
    logger,
    ports,
    signingKeys: [{ privateKey, kid, alg: 'ES256' }],
    ...(tracing ? { telemetry: tracing.telemetry } : {}),
  });
  const startMs = performance.now() - started;
  // The card URLs follow in the discovery section; here only that the agents are up, and where.
  out.write(
    `listening on ports ${NAMES.map((n) => new URL(kit.agents[n].baseUrl).port).join(', ')} (${elapsed(startMs)})\n`,
  );
  const interrupt = onInterrupt(out);
  try {
    const attached = await ui.attach(kit, { keys: [{ kid, key: publicJwk }] });
    const plan = () =>
      runPlanner(
        { ...cfg, agents: NAMES.map((n) => kit.agents[n].baseUrl) },
        {
          ...(tracing ? { interceptors: tracing.interceptors } : {}),
          out,
          workspaceRoot,
          trust: { keys: [{ kid, key: publicJwk }] },
          signal: interrupt.signal,
          before: [{ stage: 'start', ms: startMs }],
          next: (r) => nextSteps(r, cfg),
          ...attached,
        },
      );
    const result = tracing
      ? await tracing.run(`planner ${cfg.project} → ${cfg.target}`, plan)
      : await plan();
    return result.interrupted ? INTERRUPTED_EXIT : result.ok ? 0 : 1;
  } finally {
    await ui.hold();
    await kit.close();
    interrupt.off();
    if (tracing) {
      // After close: the last push deliveries have ended their spans by then.
      out.write(`\ntrace (OpenTelemetry, in memory)\n${tracing.tree()}`);
      await tracing.shutdown();
    }
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      process.stderr.write(
        portInUseMessage('demo', (err as Error).message, 'choose others with --ports or KIT_PORTS'),
      );
      process.exit(PORT_IN_USE_EXIT);
    }
    process.stderr.write(
      err instanceof UsageError
        ? usageLine(DEMO_COMMAND, err)
        : `demo failed: ${(err as Error).message}\n`,
    );
    process.exit(2);
  },
);
