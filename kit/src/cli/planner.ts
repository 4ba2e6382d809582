/**
 * `npm run planner`: the planner alone, against agents already running (`npm run agents`). Flags are in
 * PLANNER_COMMAND (commands.ts); `--help` prints them. Configuration: kit.config.json (or --config FILE),
 * then KIT_AGENTS / DEPLOYER_TOKEN, then flags. Exit 0 when deployed, 1 when the pipeline stopped, 2 on bad
 * usage or configuration, 130 when interrupted: Ctrl-C cancels the task being waited on first.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { configFrom, runPlanner } from '../planner/index.js';
import { PLANNER_COMMAND } from './commands.js';
import { UsageError, helpText, parseFlags, usageLine } from './flags.js';
import { INTERRUPTED_EXIT, onInterrupt } from './interrupt.js';

function readJwks(file: string): JSONWebKeySet {
  let jwks: unknown;
  try {
    jwks = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new UsageError(`cannot read trusted keys from ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!Array.isArray((jwks as { keys?: unknown } | null)?.keys))
    throw new UsageError(`${file} is not a JWKS (no "keys" list)`);
  return jwks as JSONWebKeySet;
}

async function main(argv: string[]): Promise<number> {
  const { values } = parseFlags(PLANNER_COMMAND, argv);
  if (values.bool('help')) {
    process.stdout.write(helpText(PLANNER_COMMAND));
    return 0;
  }
  let cfg;
  try {
    cfg = configFrom(values, process.env);
  } catch (err) {
    throw new UsageError((err as Error).message, { cause: err });
  }
  const workspaceRoot = path.resolve(
    values.string('workspace') ?? process.env.KIT_WORKSPACE ?? 'samples',
  );
  const workDir = path.resolve(
    values.string('work-dir') ?? process.env.KIT_WORK_DIR ?? '.kit-work',
  );
  const kitJwks = path.join(workDir, 'card-signing-jwks.json');
  // By default trust the key the local kit signs its cards with (written by `npm run agents`).
  const jwksFile =
    values.string('trust-jwks') ??
    process.env.KIT_TRUST_JWKS ??
    (existsSync(kitJwks) ? kitJwks : undefined);
  const trust = jwksFile ? { jwks: readJwks(jwksFile) } : undefined;
  if (!cfg.deployerToken) {
    try {
      cfg.deployerToken = readFileSync(path.join(workDir, 'deployer-token'), 'utf8').trim();
    } catch {
      // No token file: the planner says so when it meets the deployer's card.
    }
  }
  const interrupt = onInterrupt(process.stdout);
  try {
    const result = await runPlanner(cfg, {
      workspaceRoot,
      signal: interrupt.signal,
      ...(trust ? { trust } : {}),
    });
    return result.interrupted ? INTERRUPTED_EXIT : result.ok ? 0 : 1;
  } finally {
    interrupt.off();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(
      err instanceof UsageError
        ? usageLine(PLANNER_COMMAND, err)
        : `planner: ${(err as Error).message}\n`,
    );
    process.exit(2);
  },
);
