/**
 * `--versions` and A2A_VERSIONS against a peer we did not write: an agent of @a2a-js/sdk 0.3.14
 * (`a2a-sdk-03`, a 0.3 card over JSON-RPC). Without 0.3 allowed the CLI refuses it and names the flag
 * (§3.6.3: no silent fallback); with it, card, send and get work.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { a2a } from './cli-fixture.js';
import { startSdk03Peer, type Peer } from './inspector-peers.js';

describe('a2a --versions against an @a2a-js/sdk 0.3 agent', () => {
  let peer: Peer;
  before(async () => {
    peer = await startSdk03Peer();
  });
  after(() => peer.close());

  it('§3.6.3 without 0.3 allowed, send is refused (exit 4) and the error names --versions', async () => {
    const r = await a2a(['send', peer.origin, 'hi']);
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /--versions 1\.0,0\.3/);
    assert.match(r.stderr, /A2A_VERSIONS=1\.0,0\.3/);
    const card = await a2a(['card', peer.origin]);
    assert.equal(card.code, 0, card.stderr);
    assert.match(card.stdout, /allow A2A 0\.3 with --versions 1\.0,0\.3/);
  });

  it('card, send and get with --versions 0.3,1.0', async () => {
    const card = await a2a(['card', peer.origin, '--versions', '0.3,1.0']);
    assert.equal(card.code, 0, card.stderr);
    assert.match(card.stdout, /→ \[0\] JSONRPC 0\.3/);
    const sent = await a2a(['send', peer.origin, 'hello', '--versions', '0.3,1.0']);
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /0\.3 heard hello/);
    assert.match(sent.stdout, /COMPLETED/);
    const id = /task (\S+) \(context/.exec(sent.stdout)?.[1];
    assert.ok(id, sent.stdout);
    const got = await a2a(['get', peer.origin, id, '--versions', '1.0', '--versions', '0.3']);
    assert.equal(got.code, 0, got.stderr);
    assert.match(got.stdout, /COMPLETED/);
  });

  it('A2A_VERSIONS does the same; the flag wins over it; an unknown version is a usage error', async () => {
    const env = { A2A_VERSIONS: '1.0,0.3' };
    const sent = await a2a(['send', peer.origin, 'env', '--json'], { env });
    assert.equal(sent.code, 0, sent.stderr);
    assert.match(sent.stdout, /0\.3 heard env/);
    const only10 = await a2a(['send', peer.origin, 'x', '--versions', '1.0'], { env });
    assert.equal(only10.code, 4, only10.stderr);
    const bad = await a2a(['card', peer.origin, '--versions', '2.0']);
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /--versions "2\.0": this client speaks 1\.0, 0\.3/);
  });
});
