/**
 * `npm run planner`: the planner alone, against agents already running (`npm run agents`).
 * Configuration: kit.config.json (or --config FILE), then KIT_AGENTS / DEPLOYER_TOKEN, then flags
 * (--agents 41241,41242,41243, --project, --target, --no-confirm, --verify-cards, --versions 0.3,1.0, --workspace DIR,
 * --trust-jwks FILE). Exit 0 when deployed, 1 when the pipeline stopped, 2 on bad configuration.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { loadConfig, runPlanner } from '../planner/index.js';

/** Takes `--name VALUE` out of `argv` (the planner's own config ignores these two). */
function take(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  if (i < 0) return undefined;
  const v = argv[i + 1];
  if (v === undefined || v.startsWith('--')) throw new Error(`${name} needs a value`);
  argv.splice(i, 2);
  return v;
}

function readJwks(file: string): JSONWebKeySet {
  let jwks: unknown;
  try {
    jwks = JSON.parse(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read trusted keys from ${file}: ${(err as Error).message}`, { cause: err });
  }
  if (!Array.isArray((jwks as { keys?: unknown } | null)?.keys)) throw new Error(`${file} is not a JWKS (no "keys" list)`);
  return jwks as JSONWebKeySet;
}

async function main(argv: string[]): Promise<number> {
  const rest = [...argv];
  const workspaceFlag = take(rest, '--workspace');
  const jwksFlag = take(rest, '--trust-jwks');
  const cfg = loadConfig(rest, process.env);
  const workspaceRoot = path.resolve(workspaceFlag ?? process.env.KIT_WORKSPACE ?? 'samples');
  const workDir = path.resolve(process.env.KIT_WORK_DIR ?? '.kit-work');
  const kitJwks = path.join(workDir, 'card-signing-jwks.json');
  // By default trust the key the local kit signs its cards with (written by `npm run agents`).
  const jwksFile = jwksFlag ?? process.env.KIT_TRUST_JWKS ?? (existsSync(kitJwks) ? kitJwks : undefined);
  const trust = jwksFile ? { jwks: readJwks(jwksFile) } : undefined;
  if (!cfg.deployerToken) {
    try {
      cfg.deployerToken = readFileSync(path.join(workDir, 'deployer-token'), 'utf8').trim();
    } catch {
      // No token file: the planner says so when it meets the deployer's card.
    }
  }
  const result = await runPlanner(cfg, { workspaceRoot, ...(trust ? { trust } : {}) });
  return result.ok ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    process.stderr.write(`planner: ${(err as Error).message}\n`);
    process.exit(2);
  },
);
