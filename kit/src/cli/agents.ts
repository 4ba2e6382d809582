/**
 * `npm run agents`: the kit's three agents in one foreground process, until Ctrl-C or SIGTERM. The flags
 * are in AGENTS_COMMAND (commands.ts); `--help` prints them.
 * Tasks are kept in SQLite files in the work dir (so a production deploy awaiting confirmation survives a
 * restart); --memory keeps them in memory instead. Ports, in order of precedence: --ports, KIT_PORTS, then
 * the planner's own settings (KIT_AGENTS, `planner.agents` of kit.config.json) so one edit moves both sides,
 * then 41241–41243. The deployer token: DEPLOYER_TOKEN, else the one kept in `<work dir>/deployer-token`
 * (made on first start, mode 0600, reused after; --new-token replaces it). Only its file is printed, never the token.
 */
import { readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { closeOnSignals } from 'a2a-kit/server';
import { sqliteUnavailable } from 'a2a-kit/server/sqlite';
import { startKitAgents, type RunningKit } from '../agents/start.js';
import { loadOrCreateSigningKey } from '../agents/signing-key.js';
import type { KitAgentName, KitBinding } from '../agents/cards.js';
import { AGENTS_COMMAND, PORT_IN_USE_EXIT, portInUseMessage } from './commands.js';
import { deployerToken } from './deployer-token.js';
import { UsageError, helpText, parseFlags, usageLine } from './flags.js';
import { ECHO_MS } from './interrupt.js';
import { chooseLogFormat, kitLogger } from './log-lines.js';

const NAMES: KitAgentName[] = ['test-runner', 'code-reviewer', 'deployer'];

/** Where a connection URL points, for the summary: its host, never its credentials. */
function hostOf(url: string): string {
  try {
    return new URL(url).host || 'a local socket';
  } catch {
    return 'the given URL';
  }
}

/** Three ports, or base URLs whose ports are taken, in the order test-runner, code-reviewer, deployer. */
function parsePorts(parts: string[], from: string): Partial<Record<KitAgentName, number>> {
  if (parts.length !== 3)
    throw new UsageError(
      `${from} expects three ports (test-runner,code-reviewer,deployer), got "${parts.join(',')}"`,
    );
  const out: Partial<Record<KitAgentName, number>> = {};
  parts.forEach((raw, i) => {
    const p = raw.trim();
    let n = Number(p);
    if (/^https?:\/\//.test(p)) {
      const u = new URL(p);
      n = Number(u.port || (u.protocol === 'https:' ? 443 : 80));
    }
    if (!Number.isInteger(n) || n < 0 || n > 65535)
      throw new UsageError(`${from}: "${p}" is not a port number`);
    out[NAMES[i]!] = n;
  });
  return out;
}

/** The port settings from the first source that has them. */
function configuredPorts(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
): Partial<Record<KitAgentName, number>> {
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
  return Array.isArray(agents) &&
    agents.every((a) => typeof a === 'string' || typeof a === 'number')
    ? parsePorts(agents.map(String), 'kit.config.json planner.agents')
    : {};
}

/**
 * `--store`: memory, `sqlite:DIR` (default: the work dir) or a PostgreSQL URL (shown with its password
 * masked). When SQLite cannot run here (better-sqlite3 missing, or a version that would crash this Node)
 * the default becomes memory and the note says why and what to install; `sqlite:DIR` asked for is an error.
 */
function storeChoice(
  raw: string | undefined,
  workDir: string,
): { options: { storeDir?: string; storeUrl?: string }; note: string } {
  if (raw === 'memory') return { options: {}, note: 'in memory' };
  if (raw === undefined || raw.startsWith('sqlite:')) {
    const unavailable = sqliteUnavailable();
    if (unavailable && raw === undefined)
      return { options: {}, note: `in memory, lost on restart (${unavailable})` };
    if (unavailable) throw new Error(unavailable);
    const dir = raw ? path.resolve(raw.slice('sqlite:'.length) || workDir) : workDir;
    return { options: { storeDir: dir }, note: `SQLite files in ${dir}` };
  }
  if (/^postgres(ql)?:\/\//.test(raw)) {
    return {
      options: { storeUrl: raw },
      note: `PostgreSQL at ${hostOf(raw)} (schemas kit_test_runner, kit_code_reviewer, kit_deployer)`,
    };
  }
  throw new UsageError(`--store expects memory, sqlite:DIR or postgres://…, got "${raw}"`);
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseFlags(AGENTS_COMMAND, argv);
  if (values.bool('help')) {
    process.stdout.write(helpText(AGENTS_COMMAND));
    return 0;
  }
  const env = process.env;
  const workDir = path.resolve(values.string('work-dir') ?? env.KIT_WORK_DIR ?? '.kit-work');
  const workspaceRoot = path.resolve(values.string('workspace') ?? env.KIT_WORKSPACE ?? 'samples');
  const releasesDir = path.resolve(
    values.string('releases') ?? env.KIT_RELEASES ?? path.join(workDir, 'releases'),
  );
  const timeout = values.string('test-timeout') ?? env.KIT_TEST_TIMEOUT;
  const testTimeoutMs = timeout !== undefined ? Number(timeout) * 1000 : undefined;
  if (testTimeoutMs !== undefined && !(testTimeoutMs > 0 && testTimeoutMs <= 3_600_000)) {
    throw new UsageError(
      `${values.has('test-timeout') ? '--test-timeout' : 'KIT_TEST_TIMEOUT'} expects seconds between 1 and 3600, got "${timeout}"`,
    );
  }
  const ports = configuredPorts(values.string('ports'), env);
  const grpcRaw = values.string('grpc-port') ?? env.A2A_KIT_GRPC_PORT;
  const grpcPort = grpcRaw === undefined ? undefined : grpcRaw === 'off' ? false : Number(grpcRaw);
  if (
    grpcPort !== undefined &&
    grpcPort !== false &&
    !(/^\d+$/.test(grpcRaw!) && grpcPort >= 0 && grpcPort <= 65535)
  )
    throw new UsageError(
      `${values.has('grpc-port') ? '--grpc-port' : 'A2A_KIT_GRPC_PORT'} expects a port (0–65535) or off, got "${grpcRaw}"`,
    );
  const store = storeChoice(
    values.bool('memory') ? 'memory' : (values.string('store') ?? env.KIT_STORE),
    workDir,
  );
  const bindings: KitBinding[] = values.bool('jsonrpc-only')
    ? ['JSONRPC']
    : ['JSONRPC', 'HTTP+JSON'];

  const logger = kitLogger(
    chooseLogFormat(values.string('log-format'), env, process.stderr.isTTY),
    env.LOG_LEVEL ?? 'info',
  );
  const token = await deployerToken(workDir, env, values.bool('new-token'));
  await mkdir(releasesDir, { recursive: true });
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  if (store.options.storeDir) await mkdir(store.options.storeDir, { recursive: true, mode: 0o700 });

  const signing = await loadOrCreateSigningKey(workDir);
  const kit: RunningKit = await startKitAgents({
    workspaceRoot,
    releasesDir,
    deployerToken: token.token,
    signingKeys: [signing.key],
    ports,
    ...(grpcPort !== undefined ? { grpcPort } : {}),
    bindings,
    logger,
    ...store.options,
    ...((values.string('events') ?? env.KIT_EVENTS)
      ? { events: (values.string('events') ?? env.KIT_EVENTS)! }
      : {}),
    ...((values.string('host') ?? env.KIT_HOST)
      ? { host: (values.string('host') ?? env.KIT_HOST)! }
      : {}),
    ...((values.string('public-host') ?? env.KIT_PUBLIC_HOST)
      ? { publicHost: (values.string('public-host') ?? env.KIT_PUBLIC_HOST)! }
      : {}),
    ...(testTimeoutMs !== undefined ? { testTimeoutMs } : {}),
  });

  const lines = ['a2a-kit agents are running:'];
  for (const name of NAMES) {
    const a = kit.agents[name];
    lines.push(`  ${name.padEnd(14)} ${a.cardUrl}  (listening on ${a.origin})`);
  }
  lines.push(`  workspace      ${workspaceRoot}`, `  releases       ${releasesDir}`);
  lines.push(`  cards signed   kid ${signing.key.kid}; planners trust ${signing.jwksFile}`);
  lines.push(`  tasks          ${store.note}`, `  deployer token ${token.note}`);
  const events = values.string('events') ?? env.KIT_EVENTS;
  if (events) lines.push(`  event bus      ${hostOf(events)} (several instances)`);
  lines.push('Press Ctrl-C to stop.');
  // The first Ctrl-C or SIGTERM drains the three agents (streams told to resubscribe, running tasks given
  // the drain deadline, queued pushes flushed); a second one exits at once. Listening before the lines
  // say "Press Ctrl-C": a signal sent as soon as they are read must find the handler in place.
  const closed = new Promise<number>((resolve) => {
    closeOnSignals(kit, {
      logger,
      echoMs: ECHO_MS,
      exit: false,
      onSignal: (signal) => logger.info({ signal }, 'stopping the agents'),
      onClosed: resolve,
    });
  });
  process.stdout.write(`${lines.join('\n')}\n`);
  return closed;
}

main(process.argv.slice(2)).then(
  // Exit explicitly once stopped: an idle keep-alive socket must not keep a stopped kit hanging.
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof UsageError) {
      process.stderr.write(usageLine(AGENTS_COMMAND, err));
      process.exit(2);
    }
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'EADDRINUSE') {
      process.stderr.write(
        portInUseMessage(
          'agents',
          e.message,
          'choose others with --ports, --grpc-port or KIT_PORTS',
        ),
      );
      process.exit(PORT_IN_USE_EXIT);
    }
    process.stderr.write(`agents: cannot start: ${e.message}\n`);
    process.exit(1);
  },
);
