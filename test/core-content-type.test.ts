/** §3.1.1 ContentTypeNotSupportedError: a part whose media type the card's input modes do not list. */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createAgentServer, type AgentServer } from '../src/server/index.js';

let server: AgentServer;
let url = '';
before(async () => {
  server = createAgentServer({
    executor: (ctx, task) => {
      task.addArtifact({ parts: [{ text: `got ${ctx.message.parts.length} part(s)` }] });
      task.complete();
    },
    card: (origin) => ({
      name: 'picky',
      description: 'accepts text and images only',
      version: '1.0.0',
      supportedInterfaces: [
        { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      ],
      capabilities: {},
      defaultInputModes: ['text/plain'],
      defaultOutputModes: ['text/plain'],
      skills: [
        {
          id: 'look',
          name: 'Look',
          description: 'looks at images',
          tags: ['t'],
          inputModes: ['image/*'],
        },
      ],
    }),
  });
  url = `${await server.listen(0)}/a2a/jsonrpc`;
});
after(() => server.close(1000));

async function send(parts: unknown[]) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'SendMessage',
      params: { message: { messageId: 'm', role: 'ROLE_USER', parts } },
    }),
  });
  assert.equal(res.status, 200);
  return (await res.json()) as {
    result?: { task: { status: { state: string } } };
    error?: { code: number; message: string; data: Array<{ reason?: string }> };
  };
}

test('§3.1.1 a part in a media type the card does not list → -32005 ContentTypeNotSupported', async () => {
  const r = await send([
    { text: 'hi' },
    { raw: 'AAAA', mediaType: 'application/pdf', filename: 'x.pdf' },
  ]);
  assert.equal(r.error?.code, -32005);
  assert.match(r.error.message, /application\/pdf/);
  assert.equal(r.error.data[0]!.reason, 'CONTENT_TYPE_NOT_SUPPORTED');
});

test('§3.1.1 listed modes pass: default modes, a skill family (image/*), parameters ignored, parts without a media type', async () => {
  for (const parts of [
    [{ text: 'a', mediaType: 'text/plain; charset=utf-8' }],
    [{ raw: 'AAAA', mediaType: 'image/png' }],
    [{ text: 'plain' }],
  ]) {
    const r = await send(parts);
    assert.equal(r.result?.task.status.state, 'TASK_STATE_COMPLETED', JSON.stringify(r));
  }
});

test('§9.1 a JSON-RPC request whose Content-Type is not JSON → HTTP 415 with a JSON-RPC error; none at all is tolerated', async () => {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'GetTask', params: { id: 'x' } });
  const wrong = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'text/plain', 'a2a-version': '1.0' },
    body,
  });
  assert.equal(wrong.status, 415);
  const err = (await wrong.json()) as { error: { code: number; message: string } };
  assert.equal(err.error.code, -32600);
  assert.match(err.error.message, /text\/plain/);
  const bare = await fetch(url, {
    method: 'POST',
    headers: { 'a2a-version': '1.0' },
    body: new Blob([body]),
  });
  assert.equal(bare.status, 200);
  assert.equal(((await bare.json()) as { error: { code: number } }).error.code, -32001);
});
