/**
 * What the Python 0.3 server sends that is sloppy but harmless, read as what it means: a delete
 * answered without `result`, HTTP+JSON errors as `{"message": …}` with no code (the HTTP status names
 * the kind). Strict where it matters: a missing result elsewhere, or an answer that is not the agent's.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { AgentCard } from '../src/protocol/index.js';
import { A2AClient, isA2AError, isA2AClientError } from '../src/client/index.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;
let handle: Handler = (_req, _body, res) => void res.writeHead(500).end();
let base = '';
const server = createServer((req, res) => {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c: string) => (body += c));
  req.on('end', () => handle(req, body, res));
});
before(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

const client = (binding: 'JSONRPC' | 'HTTP+JSON'): A2AClient => {
  const card: AgentCard = {
    name: 'python 0.3',
    description: 'sloppy answers',
    version: '1',
    supportedInterfaces: [{ url: base, protocolBinding: binding, protocolVersion: '0.3' }],
    capabilities: { pushNotifications: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [],
  };
  return new A2AClient(card, { versions: ['0.3'], retry: false });
};
const json = (res: ServerResponse, status: number, value: unknown): void =>
  void res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));

test('a 0.3 JSON-RPC delete answered without result succeeds; a get without result does not', async () => {
  handle = (_req, body, res) => json(res, 200, { jsonrpc: '2.0', id: JSON.parse(body).id });
  await client('JSONRPC').deletePushNotificationConfig({ taskId: 't', id: 'c' });
  await assert.rejects(
    client('JSONRPC').getTask('t'),
    (e: unknown) => isA2AClientError(e) && e.code === 'BAD_RESPONSE',
  );
});

test('0.3 HTTP+JSON errors without a code take their kind from the HTTP status', async () => {
  const cases: Array<[number, () => Promise<unknown>, string]> = [
    [404, () => client('HTTP+JSON').getTask('t'), 'TaskNotFound'],
    [409, () => client('HTTP+JSON').cancelTask('t'), 'TaskNotCancelable'],
    [422, () => client('HTTP+JSON').getTask('t'), 'InvalidParams'],
    [
      501,
      () => client('HTTP+JSON').listPushNotificationConfigs({ taskId: 't' }),
      'PushNotificationNotSupported',
    ],
    [500, () => client('HTTP+JSON').getTask('t'), 'Internal'],
  ];
  for (const [status, run, kind] of cases) {
    handle = (_req, _body, res) => json(res, status, { message: `said with ${status}` });
    await assert.rejects(run(), (e: unknown) => {
      assert.ok(isA2AError(e), String(e));
      assert.equal(e.kind, kind);
      assert.equal(e.message, `said with ${status}`);
      return true;
    });
  }
});

test('a 404 that is not an A2A body is still "is this the interface URL?"', async () => {
  handle = (_req, _body, res) =>
    void res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>no</h1>');
  await assert.rejects(
    client('HTTP+JSON').getTask('t'),
    (e: unknown) =>
      isA2AClientError(e) && e.code === 'BAD_RESPONSE' && /interface URL/.test(e.message),
  );
});
