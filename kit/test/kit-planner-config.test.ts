/**
 * The planner's direct configuration: defaults, config file, KIT_AGENTS / DEPLOYER_TOKEN, flags — in
 * that order of precedence — and a clear error for every bad value. Real files in a temp dir.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DEFAULT_CONFIG, agentUrl, loadConfig } from '../src/planner/index.js';

describe('planner loadConfig', () => {
  let dir: string;
  let empty: string;
  const write = (name: string, body: unknown): string => {
    const file = path.join(dir, name);
    writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return file;
  };
  before(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'kit-planner-config-'));
    empty = mkdtempSync(path.join(os.tmpdir(), 'kit-planner-empty-'));
  });
  after(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(empty, { recursive: true, force: true });
  });

  it('defaults: the seed ports 41241–41243 on localhost, change-ok to production, if-signed', () => {
    const cfg = loadConfig([], {}, empty);
    assert.deepEqual(cfg.agents, [
      'http://localhost:41241',
      'http://localhost:41242',
      'http://localhost:41243',
    ]);
    assert.equal(cfg.project, 'change-ok');
    assert.equal(cfg.target, 'production');
    assert.equal(cfg.verifyCards, 'if-signed');
    assert.equal(cfg.confirmProduction, true);
    assert.equal(cfg.deployerToken, undefined);
  });

  it('bindings: JSON-RPC and HTTP+JSON by default (GRPC skipped); --bindings and the config file choose others', () => {
    assert.deepEqual(loadConfig([], {}, empty).bindings, ['JSONRPC', 'HTTP+JSON']);
    assert.deepEqual(loadConfig(['--bindings', 'grpc,jsonrpc'], {}, empty).bindings, [
      'GRPC',
      'JSONRPC',
    ]);
    const file = write('bindings.json', { planner: { bindings: ['GRPC', 'http+json'] } });
    assert.deepEqual(loadConfig(['--config', file], {}, empty).bindings, ['GRPC', 'HTTP+JSON']);
    assert.throws(
      () => loadConfig(['--bindings', 'grpc,soap'], {}, empty),
      /--bindings: unknown binding "soap" \(known: grpc, jsonrpc, http\+json\)/,
    );
  });

  it('kit.config.json in the working directory is read; ports and URLs both work', () => {
    const cwd = mkdtempSync(path.join(dir, 'cwd-'));
    writeFileSync(
      path.join(cwd, 'kit.config.json'),
      JSON.stringify({
        planner: {
          agents: [5001, 'http://127.0.0.1:5002/', '5003'],
          target: 'staging',
          verifyCards: 'required',
        },
      }),
    );
    const cfg = loadConfig([], {}, cwd);
    assert.deepEqual(cfg.agents, [
      'http://localhost:5001',
      'http://127.0.0.1:5002',
      'http://localhost:5003',
    ]);
    assert.equal(cfg.target, 'staging');
    assert.equal(cfg.verifyCards, 'required');
  });

  it('precedence: file < KIT_AGENTS / DEPLOYER_TOKEN < flags', () => {
    const file = write('prec.json', {
      planner: { agents: [1, 2, 3], project: 'from-file', deployerToken: 'file-token' },
    });
    const fromFile = loadConfig(['--config', file], {}, empty);
    assert.deepEqual(fromFile.agents, [
      'http://localhost:1',
      'http://localhost:2',
      'http://localhost:3',
    ]);
    assert.equal(fromFile.project, 'from-file');
    assert.equal(fromFile.deployerToken, 'file-token');

    const env = {
      KIT_AGENTS: '6001, https://agents.example:6002,6003',
      DEPLOYER_TOKEN: 'env-token',
    };
    const fromEnv = loadConfig(['--config', file], env, empty);
    assert.deepEqual(fromEnv.agents, [
      'http://localhost:6001',
      'https://agents.example:6002',
      'http://localhost:6003',
    ]);
    assert.equal(fromEnv.deployerToken, 'env-token');
    assert.equal(fromEnv.project, 'from-file');

    const flags = [
      '--config',
      file,
      '--agents',
      '7001,7002,7003',
      '--project',
      'change-broken',
      '--target',
      'staging',
      '--no-confirm',
      '--verify-cards',
      'off',
      '--timeout',
      '5000',
      '--webhook-port',
      '0',
    ];
    const fromFlags = loadConfig(flags, env, empty);
    assert.deepEqual(fromFlags.agents, [
      'http://localhost:7001',
      'http://localhost:7002',
      'http://localhost:7003',
    ]);
    assert.equal(fromFlags.project, 'change-broken');
    assert.equal(fromFlags.target, 'staging');
    assert.equal(fromFlags.confirmProduction, false);
    assert.equal(fromFlags.verifyCards, 'off');
    assert.equal(fromFlags.taskTimeoutMs, 5000);
    assert.equal(fromFlags.deployerToken, 'env-token');
  });

  it('an empty KIT_AGENTS or DEPLOYER_TOKEN does not override the file', () => {
    const file = write('keep.json', { planner: { agents: [8001], deployerToken: 'file-token' } });
    const cfg = loadConfig(['--config', file], { KIT_AGENTS: '', DEPLOYER_TOKEN: '  ' }, empty);
    assert.deepEqual(cfg.agents, ['http://localhost:8001']);
    assert.equal(cfg.deployerToken, 'file-token');
  });

  it('does not change the defaults object', () => {
    loadConfig(['--project', 'x', '--agents', '9001'], {}, empty);
    assert.equal(DEFAULT_CONFIG.project, 'change-ok');
    assert.equal(DEFAULT_CONFIG.agents.length, 3);
  });

  const bad: Array<[string, () => unknown, RegExp]> = [
    [
      'KIT_AGENTS with a word',
      () => loadConfig([], { KIT_AGENTS: '41241,banana' }, empty),
      /KIT_AGENTS: agent "banana" is neither a port nor an http\(s\) URL/,
    ],
    [
      'KIT_AGENTS with a port out of range',
      () => loadConfig([], { KIT_AGENTS: '99999' }, empty),
      /KIT_AGENTS: agent port 99999 is out of range/,
    ],
    [
      'KIT_AGENTS of only commas',
      () => loadConfig([], { KIT_AGENTS: ',,' }, empty),
      /KIT_AGENTS lists no agents/,
    ],
    [
      '--agents with an ftp URL',
      () => loadConfig(['--agents', 'ftp://x:1'], {}, empty),
      /--agents: agent "ftp:\/\/x:1"/,
    ],
    [
      '--agents without a value',
      () => loadConfig(['--agents'], {}, empty),
      /--agents needs a value/,
    ],
    [
      '--project followed by another flag',
      () => loadConfig(['--project', '--no-confirm'], {}, empty),
      /--project needs a value/,
    ],
    [
      '--target test',
      () => loadConfig(['--target', 'test'], {}, empty),
      /target must be staging or production, not "test"/,
    ],
    [
      '--verify-cards yes',
      () => loadConfig(['--verify-cards', 'yes'], {}, empty),
      /must be required, if-signed or off, not "yes"/,
    ],
    [
      '--timeout soon',
      () => loadConfig(['--timeout', 'soon'], {}, empty),
      /taskTimeoutMs \(--timeout\) must be a positive number of milliseconds, not "soon"/,
    ],
    [
      '--webhook-port 70000',
      () => loadConfig(['--webhook-port', '70000'], {}, empty),
      /webhookPort must be a port number/,
    ],
    [
      'a misspelt flag',
      () => loadConfig(['--projct', 'change-broken'], {}, empty),
      /unknown flag --projct \(did you mean --project\?\)/,
    ],
    [
      '--config of a missing file',
      () => loadConfig(['--config', path.join(dir, 'nope.json')], {}, empty),
      /cannot read config file .*nope\.json/,
    ],
    [
      '--config without a file',
      () => loadConfig(['--config'], {}, empty),
      /--config needs a value \(FILE\)/,
    ],
  ];
  for (const [name, fn, message] of bad)
    it(`bad value: ${name} → clear error`, () => assert.throws(fn, message));

  it('bad config files → errors that name the file and the setting', () => {
    assert.throws(
      () => loadConfig(['--config', write('broken.json', '{ planner: ')], {}, empty),
      /broken\.json is not valid JSON/,
    );
    assert.throws(
      () => loadConfig(['--config', write('arr.json', { planner: [] })], {}, empty),
      /arr\.json: "planner" must be an object/,
    );
    assert.throws(
      () => loadConfig(['--config', write('agents.json', { planner: { agents: 'x' } })], {}, empty),
      /planner\.agents must be a list of ports or URLs/,
    );
    assert.throws(
      () =>
        loadConfig(['--config', write('typo.json', { planner: { verifyCard: 'off' } })], {}, empty),
      /unknown setting planner\.verifyCard \(did you mean verifyCards\?\)/,
    );
    assert.throws(
      () =>
        loadConfig(
          ['--config', write('confirm.json', { planner: { confirmProduction: 'no' } })],
          {},
          empty,
        ),
      /confirmProduction must be true or false, not "no"/,
    );
    assert.throws(
      () =>
        loadConfig(
          ['--config', write('empty-agents.json', { planner: { agents: [] } })],
          {},
          empty,
        ),
      /planner\.agents lists no agents/,
    );
  });

  it('agentUrl: a port → http://localhost:PORT, URLs keep their host and lose a trailing slash', () => {
    assert.equal(agentUrl(' 41241 '), 'http://localhost:41241');
    assert.equal(agentUrl('https://a.example/base/'), 'https://a.example/base');
    assert.throws(() => agentUrl('0'), /out of range/);
  });
});
