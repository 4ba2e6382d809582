import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { mustHave } from './service-fixture.js';

// bench/soak-attack.mjs runs the kit's built agents; without a kit build there is nothing to soak.
const noKitBuild =
  !existsSync('kit/dist/cli/agents.js') && mustHave('kit/dist is not built (npm run build:kit)');
const soak = (args: string[], timeout = 20_000) =>
  spawnSync(process.execPath, ['bench/soak-attack.mjs', ...args], {
    encoding: 'utf8',
    timeout,
    env: { ...process.env, BENCH_NICE: '0' },
  });

test('bench/soak-attack.mjs: --help exits 0; an unknown option or attack exits 2 before anything starts', () => {
  const help = soak(['--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /^usage: node bench\/soak-attack\.mjs .*--minutes.*--quick/);
  const unknown = soak(['--minuets', '3']);
  assert.equal(unknown.status, 2);
  assert.match(unknown.stderr, /--minuets[\s\S]*--minutes/);
  const attack = soak(['--attack', 'idleConections=5']);
  assert.equal(attack.status, 2);
  assert.match(attack.stderr, /unknown "idleConections" \(one of idleConnections,/);
});

test(
  'bench/soak-attack.mjs: a few seconds of soak write the report: cards, memory, every attack answered',
  { skip: noKitBuild, timeout: 150_000 },
  () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-soak-'));
    try {
      const out = path.join(dir, 'report.md');
      // Every attack on, each small: the point is that each runs and is answered, not the load.
      const sizes = [
        'idleConnections=10',
        'unfinishedGrpc=2',
        'unfinishedHttp=2',
        'subscribers=1',
        'artifactLines=200',
        'followUps=2',
        'oversizedBytes=5000000',
        'metadataKeys=100',
        'amplification=2',
        'emptyParts=1000',
        'textScale=1',
        'forgedJwts=3',
        'unauthBodies=2',
        'unauthBytes=100000',
        'grpcBodies=1',
        'grpcBytes=5000000',
      ].join(',');
      // A tolerance below zero: any RSS at all is growth past it, so the verdict must be a failure.
      const args = ['--seconds', '8', '--attack', sizes, '--rss-tolerance=-1', '--out', out];
      const r = soak(args, 140_000);
      assert.equal(r.status, 1, r.stderr);
      assert.match(r.stdout, /^FAILED: .*RSS grew ×[\d.]+ \(tolerance ×0\.00\)/m);
      const report = readFileSync(out, 'utf8');
      for (const agent of ['test-runner', 'code-reviewer', 'deployer'])
        assert.match(report, new RegExp(`^\\| ${agent} \\| \\d+ \\| [\\d.]+ \\| [\\d.]+ \\|`, 'm'));
      assert.match(report, /RSS, first third → last third: [\d.]+ MB → [\d.]+ MB/);
      // The defences, as the report shows them: forged tokens and credential-less bodies are refused,
      // bodies over the limit get 413, gRPC messages over the limit RESOURCE_EXHAUSTED (8).
      assert.match(
        report,
        /\| forged HS256 \/ alg-none JWTs to the deployer \| HTTP 401 error -32010/,
      );
      assert.match(report, /\| large bodies without credentials to the deployer \| [^|]*HTTP 401/);
      assert.match(report, /oversized: HTTP 413/);
      assert.match(report, /\| large gRPC bodies without credentials \| grpc-status 8/);
      for (const attack of [
        'idle gRPC connections',
        'unfinished gRPC bodies',
        'unfinished HTTP/1 bodies',
        'subscribers that never read',
        'amplification',
        'adversarial parser text',
      ])
        assert.match(
          report,
          new RegExp(`^\\| ${attack.replace(/[()/]/g, '\\$&')}[^|]* \\| \\w`, 'm'),
        );
      assert.match(report, /^\| tests \| [1-9]\d* \| /m);
      assert.match(report, /^\*\*FAILED: .*RSS grew/m);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
