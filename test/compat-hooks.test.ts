/**
 * Operation hooks (and so traces and logs) see a 0.3 call as what it is: version `0.3` and the binding
 * it came through, not the 1.0 it was translated to. Only the compat layer can admit a call at 0.3: a
 * context that merely says `0.3` is refused as before (§3.6.2).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { OPERATIONS_BY_NAME, isA2AError } from '../src/protocol/index.js';
import { createAgentServer, type AgentServer, type OperationCall } from '../src/server/index.js';
import { callContext } from '../src/server/dispatch/call-context.js';
import { agent as executor, cardFor, message } from './rest-fixture.js';

const seen: Array<Pick<OperationCall, 'operation'> & { version?: string; binding?: string }> = [];
let server: AgentServer;
let origin: string;

before(async () => {
  server = createAgentServer({
    card: (o) => cardFor(o, 'full'),
    executor,
    compat: { v03: true },
    hooks: {
      before(call) {
        seen.push({
          operation: call.operation,
          version: call.context.version,
          binding: call.context.binding,
        });
      },
    },
  });
  origin = await server.listen(0);
});
after(() => server.close(1000));

const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${origin}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(5000),
  });

test('hooks see 0.3 calls at version 0.3 with their binding, 1.0 calls at 1.0', async () => {
  seen.length = 0;
  const v03Message = {
    kind: 'message',
    messageId: 'h-1',
    role: 'user',
    parts: [{ kind: 'text', text: 'echo' }],
  };
  const rpc = await post('/a2a/jsonrpc', {
    jsonrpc: '2.0',
    id: 1,
    method: 'message/send',
    params: { message: v03Message },
  });
  assert.equal(rpc.status, 200);
  assert.ok(((await rpc.json()) as { result?: unknown }).result);
  const rest = await post('/a2a/rest/v1/message:send', {
    message: { messageId: 'h-2', role: 'ROLE_USER', content: [{ text: 'echo' }] },
  });
  assert.equal(rest.status, 200, await rest.clone().text());
  const v10 = await post(
    '/a2a/jsonrpc',
    { jsonrpc: '2.0', id: 2, method: 'SendMessage', params: { message: message('echo') } },
    { 'a2a-version': '1.0' },
  );
  assert.equal(v10.status, 200);
  assert.deepEqual(seen, [
    { operation: 'SendMessage', version: '0.3', binding: 'JSONRPC' },
    { operation: 'SendMessage', version: '0.3', binding: 'HTTP+JSON' },
    { operation: 'SendMessage', version: '1.0', binding: 'JSONRPC' },
  ]);
});

test('§3.6.2 a context that only claims 0.3 is still refused by the dispatcher', async () => {
  await assert.rejects(
    server.service.call(OPERATIONS_BY_NAME.GetTask, { id: 'x' }, callContext({ version: '0.3' })),
    (e: unknown) => isA2AError(e) && e.kind === 'VersionNotSupported',
  );
});
