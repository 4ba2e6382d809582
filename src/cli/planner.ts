/**
 * `npm run planner`: the planner alone, against agents already running (`npm run agents`).
 * Configuration: kit.config.json (or --config FILE), then KIT_AGENTS / DEPLOYER_TOKEN, then flags
 * (--agents 41241,41242,41243, --project, --target, --no-confirm, --verify-cards, --workspace DIR,
 * --trust-jwks FILE). Exit 0 when deployed, 1 when the pipeline stopped, 2 on bad configuration.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { JSONWebKeySet } from 'jose';
import { loadConfig, runPlanner } from '../kit/planner/index.js';

function flag(argv: string[], name: string): string | undefined {
  const i = argv.indexOf(name);
  return i >= 0 ? argv[i + 1] : undefined;
}

async function main(argv: string[]): Promise<number> {
  const cfg = loadConfig(argv.filter((a, i) => !['--workspace', '--trust-jwks'].includes(a) && !['--workspace', '--trust-jwks'].includes(argv[i - 1]!)), process.env);
  const workspaceRoot = path.resolve(flag(argv, '--workspace') ?? process.env.KIT_WORKSPACE ?? 'samples');
  const jwksFile = flag(argv, '--trust-jwks') ?? process.env.KIT_TRUST_JWKS;
  const trust = jwksFile ? { jwks: JSON.parse(readFileSync(jwksFile, 'utf8')) as JSONWebKeySet } : undefined;
  if (!cfg.deployerToken) {
    try {
      cfg.deployerToken = readFileSync(path.resolve(process.env.KIT_WORK_DIR ?? '.kit-work', 'deployer-token'), 'utf8').trim();
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
