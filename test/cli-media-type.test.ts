/**
 * `a2a send --file`: the media type of a file part comes from its extension (.ts is text/typescript,
 * a type the kit's code-reviewer lists, never video/mp2t) unless --media-type says otherwise. Read from
 * the request itself, in the --verbose wire log.
 */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, before, describe, it } from 'node:test';
import { a2a } from './cli-fixture.js';
import { startHostileAgent } from './cli-hostile-agent.js';

describe('a2a send --file / --media-type', () => {
  let agent: Awaited<ReturnType<typeof startHostileAgent>>;
  let dir: string;
  before(async () => {
    agent = await startHostileAgent();
    dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-media-'));
    writeFileSync(path.join(dir, 'x.ts'), 'export const n: number = 1;\n');
  });
  after(async () => {
    await agent.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('.ts goes as text/typescript; --media-type overrides; a malformed one is a usage error', async () => {
    const file = path.join(dir, 'x.ts');
    const plain = await a2a(['send', agent.url('poll'), '--file', file, '--verbose']);
    assert.equal(plain.code, 0, plain.stderr);
    assert.match(plain.stderr, /"filename":"x\.ts","mediaType":"text\/typescript"/);
    assert.doesNotMatch(plain.stderr, /video\/mp2t/);
    const forced = await a2a([
      'send',
      agent.url('poll'),
      '--file',
      file,
      '--media-type',
      'application/typescript',
      '--verbose',
    ]);
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stderr, /"mediaType":"application\/typescript"/);
    const bad = await a2a(['send', agent.url('poll'), '--file', file, '--media-type', 'ts']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--media-type expects TYPE\/SUBTYPE/);
  });
});
