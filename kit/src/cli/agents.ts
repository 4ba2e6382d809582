/**
 * `npm run agents`: the kit's three agents in one foreground process, until Ctrl-C or SIGTERM.
 * Usage: agents [--host 127.0.0.1] [--public-host localhost] [--ports 41241,41242,41243]
 *               [--workspace samples] [--work-dir .kit-work] [--releases DIR] [--test-timeout 60] [--jsonrpc-only] [--memory]
 * Tasks are kept in SQLite files in the work dir (so a production deploy awaiting confirmation survives a
 * restart); --memory keeps them in memory instead.
 * Environment: KIT_HOST, KIT_PUBLIC_HOST, KIT_PORTS, KIT_WORKSPACE, KIT_WORK_DIR, KIT_RELEASES, KIT_TEST_TIMEOUT,
 * DEPLOYER_TOKEN, LOG_LEVEL. Flags win over the environment. Ports, in order of precedence: --ports, KIT_PORTS,
 * then the planner's own settings (KIT_AGENTS, `planner.agents` of kit.config.json) so one edit moves both sides,
 * then 41241–41243.
 * Without DEPLOYER_TOKEN a fresh token is generated and written to `<work dir>/deployer-token` (mode 0600);
 * only that file's path is printed, never the token.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { chmod, mkdir, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pino } from 'pino';
import { startKitAgents, type RunningKit } from '../agents/start.js';
import { loadOrCreateSigningKey } from '../agents/signing-key.js';
import type { KitAgentName, KitBinding } from '../agents/cards.js';

const USAGE =
  'usage: agents [--host H] [--public-host H] [--ports P1,P2,P3] [--workspace DIR] [--work-dir DIR] [--releases DIR] ' +
  '[--test-timeout SECONDS] [--jsonrpc-only] [--memory]';

const NAMES: KitAgentName[] = ['test-runner', 'code-reviewer', 'deployer'];

class UsageError extends Error {}

/** Three ports, or base URLs whose ports are taken, in the order test-runner, code-reviewer, deployer. */
function parsePorts(parts: string[], from: string): Partial<Record<KitAgentName, number>> {
  if (parts.length !== 3) throw new UsageError(`${from} expects three ports (test-runner,code-reviewer,deployer), got "${parts.join(',')}"`);
  const out: Partial<Record<KitAgentName, number>> = {};
  parts.forEach((raw, i) => {
    const p = raw.trim();
    let n = Number(p);
    if (/^https?:\/\//.test(p)) {
      const u = new URL(p);
      n = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    }
    if (!Number.isInteger(n) || n < 0 || n > 65535) throw new UsageError(`${from}: "${p}" is not a port number`);
    out[NAMES[i]!] = n;
  });
  return out;
}

/** The port settings from the first source that has them. */
function configuredPorts(flag: string | undefined, env: NodeJS.ProcessEnv): Partial<Record<KitAgentName, number>> {
  if (flag !== undefined) return parsePorts(flag.split(','), '--ports');
  if (env.KIT_PORTS) return parsePorts(env.KIT_PORTS.split(','), 'KIT_PORTS');
  if (env.KIT_AGENTS) return parsePorts(env.KIT_AGENTS.split(','), 'KIT_AGENTS');
  let config: unknown;
  try {
    config = JSON.parse(readFileSync('kit.config.json', 'utf8'));
  } catch {
    return {};
  }
  const agents = (config as { planner?: { agents?: unknown } }).planner?.agents;
  return Array.isArray(agents) && agents.every((a) => typeof a === 'string' || typeof a === 'number')
    ? parsePorts(agents.map(String), 'kit.config.json planner.agents')
    : {};
}

/** A token only the owner of the work dir can read; written beside and renamed so it is never half there. */
async function generatedToken(workDir: string): Promise<{ token: string; file: string }> {
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const file = path.join(workDir, 'deployer-token');
  const tmp = `${file}.${process.pid}.tmp`;
  const token = randomBytes(32).toString('base64url');
  await writeFile(tmp, `${token}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // the umask cannot widen it, but an old file's mode could linger on some systems
  await rename(tmp, file);
  return { token, file };
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      host: { type: 'string' },
      'public-host': { type: 'string' },
      ports: { type: 'string' },
      workspace: { type: 'string' },
      'work-dir': { type: 'string' },
      releases: { type: 'string' },
      'test-timeout': { type: 'string' },
      'jsonrpc-only': { type: 'boolean' },
      memory: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const env = process.env;
  const workDir = path.resolve(values['work-dir'] ?? env.KIT_WORK_DIR ?? '.kit-work');
  const workspaceRoot = path.resolve(values.workspace ?? env.KIT_WORKSPACE ?? 'samples');
  const releasesDir = path.resolve(values.releases ?? env.KIT_RELEASES ?? path.join(workDir, 'releases'));
  const timeout = values['test-timeout'] ?? env.KIT_TEST_TIMEOUT;
  const testTimeoutMs = timeout !== undefined ? Number(timeout) * 1000 : undefined;
  if (testTimeoutMs !== undefined && !(testTimeoutMs > 0 && testTimeoutMs <= 3_600_000)) {
    throw new UsageError(`--test-timeout expects seconds between 1 and 3600, got "${timeout}"`);
  }
  const ports = configuredPorts(values.ports, env);
  const bindings: KitBinding[] = values['jsonrpc-only'] ? ['JSONRPC'] : ['JSONRPC', 'HTTP+JSON'];

  const logger = pino({ level: env.LOG_LEVEL ?? 'info', base: { pid: process.pid } }, pino.destination({ dest: 2, sync: true }));
  let tokenNote: string;
  let deployerToken = env.DEPLOYER_TOKEN?.trim();
  if (deployerToken) {
    tokenNote = 'from DEPLOYER_TOKEN';
  } else {
    const g = await generatedToken(workDir);
    deployerToken = g.token;
    tokenNote = `generated, stored in ${g.file} (mode 0600); set DEPLOYER_TOKEN to choose your own`;
  }
  await mkdir(releasesDir, { recursive: true });
  await mkdir(workDir, { recursive: true, mode: 0o700 });

  const signing = await loadOrCreateSigningKey(workDir);
  const kit: RunningKit = await startKitAgents({
    workspaceRoot,
    releasesDir,
    deployerToken,
    signingKeys: [signing.key],
    ports,
    bindings,
    logger,
    ...(values.memory ? {} : { storeDir: workDir }),
    ...(values.host ?? env.KIT_HOST ? { host: (values.host ?? env.KIT_HOST)! } : {}),
    ...(values['public-host'] ?? env.KIT_PUBLIC_HOST ? { publicHost: (values['public-host'] ?? env.KIT_PUBLIC_HOST)! } : {}),
    ...(testTimeoutMs !== undefined ? { testTimeoutMs } : {}),
  });

  const lines = ['a2a-kit agents are running:'];
  for (const name of NAMES) {
    const a = kit.agents[name];
    lines.push(`  ${name.padEnd(14)} ${a.cardUrl}  (listening on ${a.origin})`);
  }
  lines.push(`  workspace      ${workspaceRoot}`, `  releases       ${releasesDir}`);
  lines.push(`  cards signed   kid ${signing.key.kid}; planners trust ${signing.jwksFile}`);
  lines.push(`  tasks          ${values.memory ? 'in memory' : `SQLite files in ${workDir}`}`, `  deployer token ${tokenNote}`);
  lines.push('Press Ctrl-C to stop.');
  process.stdout.write(`${lines.join('\n')}\n`);

  return new Promise<number>((resolve) => {
    let stopping = false;
    const stop = (signal: NodeJS.Signals): void => {
      if (stopping) {
        logger.warn({ signal }, 'second signal: exiting at once');
        process.exit(1);
      }
      stopping = true;
      logger.info({ signal }, 'stopping the agents');
      kit.close().then(
        () => resolve(0),
        (err: unknown) => {
          logger.error({ err }, 'error while stopping');
          resolve(1);
        },
      );
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
}

main(process.argv.slice(2)).then(
  // Exit explicitly once stopped: an idle keep-alive socket must not keep a stopped kit hanging.
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError || (err as { code?: string }).code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
      process.stderr.write(`${(err as Error).message}\n${USAGE}\n`);
      process.exitCode = 2;
      return;
    }
    const e = err as NodeJS.ErrnoException;
    process.stderr.write(
      e.code === 'EADDRINUSE'
        ? `cannot start: a port is already in use (${e.message}); choose others with --ports or KIT_PORTS\n`
        : `cannot start the agents: ${e.message}\n`,
    );
    process.exitCode = 1;
  },
);
