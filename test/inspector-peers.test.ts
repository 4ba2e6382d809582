/**
 * The inspector speaks what the library speaks (issue 29.3, 29.4), checked through its own API as the
 * page calls it: an @a2a-js/sdk 0.3.14 agent (its 0.3 card shown, send and stream over 0.3), an agent
 * with gRPC first (the wire view shows the method, the metadata and the decoded messages), custom
 * headers and message metadata reaching the agent, and the card checked with every finding listed.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { startInspector, type Inspector } from 'a2a-kit/inspector';
import { PageClient } from './inspector-page-client.js';
import { startCardPeer, startGrpcPeer, startSdk03Peer, type Peer } from './inspector-peers.js';

describe('inspector and its peers', () => {
  let inspector: Inspector;
  const peers: Peer[] = [];

  before(async () => {
    inspector = await startInspector({ port: 0, agents: [] });
  });
  after(async () => {
    await inspector?.close();
    for (const p of peers) await p.close();
  });

  it('shows an @a2a-js/sdk 0.3.14 card and talks to its agent over 0.3', async () => {
    const peer = await startSdk03Peer();
    peers.push(peer);
    const page = new PageClient(inspector.url);
    const card = await page.call('/api/card', { agent: peer.origin });
    assert.equal(card.status, 200, JSON.stringify(card.json));
    assert.deepEqual(
      card.json.interfaces.map((i: any) => [i.binding, i.version, i.chosen]),
      [['JSONRPC', '0.3', true]],
    );
    assert.ok(card.json.findings.some((f: any) => f.level === 'info' && f.section === '3.6.3'));

    const sent = await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'send',
      parts: [{ text: 'ping' }],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
    const task = sent.json.result.task;
    assert.equal(task.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(task.artifacts[0].parts[0].text, '0.3 heard ping');

    const state = await page.call('/api/state');
    const started = await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'stream',
      parts: [{ text: 'stream me' }],
      streamId: 's03',
    });
    assert.equal(started.status, 200, JSON.stringify(started.json));
    const events = await page.events(
      String(state.json.after),
      (type, d) => type === 'talk-end' && d.streamId === 's03',
    );
    const talk = events.filter((e) => e.type === 'talk').map((e) => e.data.event);
    assert.ok('task' in talk[0], 'the stream starts with the task, in the 1.0 model');
    assert.equal(talk.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(events.at(-1)!.data.error, undefined);

    const wire = (await page.call<any[]>('/api/wire')).json;
    const stream = wire.find((w) => w.operation === 'SendStreamingMessage');
    assert.match(stream.requestBody, /"method":"message\/stream"/, 'sent as 0.3 JSON-RPC');
  });

  it('talks gRPC through the library’s client; the wire view shows method and decoded messages', async () => {
    const peer = await startGrpcPeer();
    peers.push(peer);
    const page = new PageClient(inspector.url);
    const card = await page.call('/api/card', { agent: peer.origin });
    assert.equal(card.json.interfaces[0].binding, 'GRPC');
    assert.equal(card.json.interfaces[0].chosen, true, card.json.selection.reason);

    const sent = await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'send',
      parts: [{ text: 'over h2' }],
    });
    assert.equal(sent.status, 200, JSON.stringify(sent.json));
    assert.equal(sent.json.result.task.artifacts[0].parts[0].text, 'grpc heard over h2');

    const state = await page.call('/api/state');
    await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'stream',
      parts: [{ text: 'stream' }],
      streamId: 'g1',
    });
    const events = await page.events(
      String(state.json.after),
      (type, d) => type === 'talk-end' && d.streamId === 'g1',
    );
    assert.ok(events.filter((e) => e.type === 'talk').length >= 3);

    const missing = await page.call('/api/tasks/get', { agent: peer.origin, id: 'no-such-task' });
    assert.equal(missing.status, 502);
    assert.equal(missing.json.error.kind, 'TaskNotFound');

    const wire = (await page.call<any[]>('/api/wire')).json.filter((w) => w.binding === 'GRPC');
    const unary = wire.find((w) => w.operation === 'SendMessage');
    assert.equal(unary.method, 'gRPC');
    assert.match(unary.url, / \/lf\.a2a\.v1\.A2AService\/SendMessage$/);
    assert.equal(unary.grpcStatus, 'OK');
    assert.equal(unary.state, 'done');
    assert.deepEqual(unary.requestHeaders[0], ['a2a-version', '1.0']);
    assert.equal(JSON.parse(unary.requestBody).message.parts[0].text, 'over h2');
    assert.equal(JSON.parse(unary.responseBody).task.status.state, 'TASK_STATE_COMPLETED');
    assert.match(unary.curl, /^grpcurl -plaintext -proto a2a\.proto/);
    assert.ok(
      unary.requestHeaders.every(([k]: [string]) => k !== 'x-a2a-inspector-exchange'),
      'the join tag is never sent',
    );
    const stream = wire.find((w) => w.operation === 'SendStreamingMessage');
    const lines = stream.responseBody
      .trim()
      .split('\n')
      .map((l: string) => JSON.parse(l));
    assert.ok('task' in lines[0]);
    assert.equal(lines.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    assert.equal(stream.grpcStatus, 'OK');
    const get = wire.find((w) => w.operation === 'GetTask');
    assert.equal(get.grpcStatus, 'NOT_FOUND');
    assert.equal(get.state, 'failed');
  });

  it('sends custom headers (gRPC: metadata) and message metadata; secret headers stay on the server', async () => {
    const peer = await startGrpcPeer();
    peers.push(peer);
    const page = new PageClient(inspector.url);
    await page.call('/api/card', { agent: peer.origin });
    const set = await page.call('/api/headers', {
      agent: peer.origin,
      headers: [
        { name: 'X-Tenant', value: 'acme' },
        { name: 'X-Gateway-Key', value: 'gw-secret-7731' },
      ],
    });
    assert.equal(set.status, 200, JSON.stringify(set.json));
    assert.deepEqual(set.json.headers, [
      { name: 'x-tenant', value: 'acme', secret: false },
      { name: 'x-gateway-key', secret: true },
    ]);
    await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'send',
      parts: [{ text: 'hi' }],
      metadata: { trace: 'abc', nested: { n: 1 } },
    });
    assert.equal(peer.seen.tenant.at(-1), 'acme');
    assert.deepEqual(peer.seen.metadata.at(-1), { trace: 'abc', nested: { n: 1 } });
    // The mask sent back keeps the secret; the page never had it.
    const kept = await page.call('/api/headers', {
      agent: peer.origin,
      headers: [{ name: 'x-gateway-key', value: '••••••••' }],
    });
    assert.equal(kept.status, 200);
    const facts = await page.call('/api/card', { agent: peer.origin });
    const everything = JSON.stringify([facts.json, (await page.call('/api/wire')).json]);
    assert.ok(!everything.includes('gw-secret-7731'), 'the secret header is masked everywhere');
    assert.match(everything, /x-gateway-key: \$A2A_CREDENTIAL/);

    for (const [headers, why] of [
      [[{ name: 'Host', value: 'x' }], /set by the client or by HTTP itself/],
      [[{ name: 'X-A', value: 'a\r\nX-B: b' }], /printable ASCII/],
      [[{ name: 'bad name', value: 'x' }], /not a header name/],
      [
        [
          { name: 'x-a', value: '1' },
          { name: 'X-A', value: '2' },
        ],
        /given twice/,
      ],
    ] as const) {
      const r = await page.call('/api/headers', { agent: peer.origin, headers });
      assert.equal(r.status, 400);
      assert.match(r.json.error.message, why);
    }
    const meta = await page.call('/api/talk', {
      agent: peer.origin,
      mode: 'send',
      parts: [{ text: 'x' }],
      metadata: [1, 2],
    });
    assert.equal(meta.status, 400);
    assert.match(meta.json.error.message, /metadata must be a JSON object/);
  });

  it('lists every finding of a card clients refuse, not the first ten', async () => {
    const skills = Array.from({ length: 14 }, (_, i) => ({ id: '', name: `s${i}`, tags: [] }));
    const peer = await startCardPeer({ name: 'broken', version: '1', skills });
    peers.push(peer);
    const page = new PageClient(inspector.url);
    const r = await page.call('/api/card', { agent: peer.origin });
    assert.equal(r.status, 502);
    assert.equal(r.json.error.code, 'CARD_INVALID');
    const where = r.json.error.findings.map((f: any) => f.where);
    // Members a ProtoJSON writer may leave out when empty (description, the modes) are not findings.
    for (const w of ['supportedInterfaces', 'capabilities', 'skills[0].id', 'skills[13].id'])
      assert.ok(where.includes(w), `${w} in ${where}`);
    assert.ok(r.json.error.findings.length >= 16, `${where}`);
    assert.ok(r.json.error.findings.every((f: any) => f.level === 'error'));
  });

  it('§5.7 warns of what the library accepts but the spec asks otherwise', async () => {
    const peer = await startCardPeer({
      name: 'lenient',
      description: '',
      version: '1',
      supportedInterfaces: [
        {
          url: 'http://agents.example.com/rpc',
          protocolBinding: 'JSONRPC',
          protocolVersion: '1.0',
        },
      ],
      capabilities: {},
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [
        { id: 'a', name: 'A', description: '', tags: [], inputModes: [], outputModes: [] },
        { id: 'a', name: 'B', description: '', tags: ['t'] },
      ],
    });
    peers.push(peer);
    const page = new PageClient(inspector.url);
    const r = await page.call('/api/card', { agent: peer.origin });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    const found = r.json.findings.map((f: any) => `${f.level} ${f.where} §${f.section ?? '-'}`);
    for (const f of [
      'warning defaultInputModes §5.7',
      'warning defaultOutputModes §5.7',
      'warning skills[0].tags §5.7',
      'warning skills[1].id §-',
      'warning supportedInterfaces[0].url §7.1',
      'info signatures §8.4',
    ])
      assert.ok(found.includes(f), `${f} in ${found.join(', ')}`);
  });
});
