/**
 * The ceiling: plain node:http answering with bytes shaped like an A2A echo answer, with no A2A logic.
 * It reads the request body (as every real server must) but does not parse it; all answers are fixed
 * strings built once at start, so what remains is the cost of HTTP itself on this machine.
 */
import { createServer } from 'node:http';
import { createHash } from 'node:crypto';
import { report, extraUpdates } from './harness.mjs';

const TASK_ID = '694a9cc2-3a25-41dd-acd1-30eb9d5cacc5';
const CTX_ID = '3ad71e54-dfdf-4ed7-919d-226cc189d7a6';
const TS = '2026-01-01T00:00:00.000Z';
const task = (state, withArtifact) => ({
  id: TASK_ID,
  contextId: CTX_ID,
  status: { state, timestamp: TS },
  history: [
    {
      messageId: 'm1',
      role: 'ROLE_USER',
      parts: [{ text: 'hello' }],
      taskId: TASK_ID,
      contextId: CTX_ID,
    },
  ],
  ...(withArtifact
    ? {
        artifacts: [
          {
            name: 'echo',
            parts: [{ text: 'hello' }],
            artifactId: 'f17e9905-0228-4ce8-8997-39edb6648319',
          },
        ],
      }
    : {}),
});
const rpc = (result) => JSON.stringify({ jsonrpc: '2.0', id: 1, result });
const SEND_RPC = rpc({ task: task('TASK_STATE_COMPLETED', true) });
const GET_RPC = rpc(task('TASK_STATE_COMPLETED', true));
const SEND_REST = JSON.stringify({ task: task('TASK_STATE_COMPLETED', true) });
const status = (state) =>
  rpc({ statusUpdate: { taskId: TASK_ID, contextId: CTX_ID, status: { state, timestamp: TS } } });
const SSE_TASK = `data: ${rpc({ task: task('TASK_STATE_SUBMITTED', false) })}\n\n`;
const SSE_WORKING = `data: ${status('TASK_STATE_WORKING')}\n\n`;
const SSE_ARTIFACT = `data: ${rpc({ artifactUpdate: { taskId: TASK_ID, contextId: CTX_ID, artifact: { name: 'echo', parts: [{ text: 'stream' }], artifactId: 'a1' } } })}\n\n`;
const SSE_DONE = `data: ${status('TASK_STATE_COMPLETED')}\n\n`;

let CARD = '';
let ETAG = '';
const json = { 'content-type': 'application/json' };
// Answers carry content-length, as ours do (a chunked answer is not "the same bytes").
const sized = (body) => ({ ...json, 'content-length': String(Buffer.byteLength(body)) });
const SEND_RPC_HEAD = sized(SEND_RPC);
const GET_RPC_HEAD = sized(GET_RPC);
const SEND_REST_HEAD = sized(SEND_REST);

function onBody(req, cb) {
  let body = '';
  req.setEncoding('utf8');
  req.on('data', (c) => (body += c));
  req.on('end', () => cb(body));
}

const server = createServer({ keepAliveTimeout: 5000 }, (req, res) => {
  const url = req.url ?? '/';
  if (url === '/.well-known/agent-card.json') {
    if (req.headers['if-none-match'] === ETAG) return void res.writeHead(304, { etag: ETAG }).end();
    return void res
      .writeHead(200, { ...sized(CARD), etag: ETAG, 'cache-control': 'public, max-age=300' })
      .end(CARD);
  }
  if (req.method !== 'POST' && !url.startsWith('/a2a/rest/tasks/'))
    return void res.writeHead(404).end();
  onBody(req, (body) => {
    if (url === '/a2a/jsonrpc') {
      // The one concession to content: which method was called picks which fixed answer is sent.
      if (body.includes('"SendStreamingMessage"')) {
        const k = extraUpdates(/"text":"([^"]*)"/.exec(body)?.[1] ?? '');
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        res.write(SSE_TASK);
        for (let i = 0; i <= k; i++) res.write(SSE_WORKING);
        res.write(SSE_ARTIFACT);
        return void res.end(SSE_DONE);
      }
      const get = body.includes('"GetTask"');
      return void res
        .writeHead(200, get ? GET_RPC_HEAD : SEND_RPC_HEAD)
        .end(get ? GET_RPC : SEND_RPC);
    }
    if (url === '/a2a/rest/message:send')
      return void res.writeHead(200, SEND_REST_HEAD).end(SEND_REST);
    if (url.startsWith('/a2a/rest/tasks/'))
      return void res.writeHead(200, json).end(JSON.stringify(task('TASK_STATE_COMPLETED', true)));
    res.writeHead(404).end();
  });
});

server.listen(Number(process.env.PORT ?? 0), '127.0.0.1', async () => {
  const origin = `http://127.0.0.1:${server.address().port}`;
  CARD = JSON.stringify({
    name: 'echo',
    description: 'Echoes what you send',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'echo', name: 'Echo', description: 'Repeats the text', tags: ['demo'] }],
  });
  ETAG = `"${createHash('sha256').update(CARD).digest('base64url')}"`;
  const grpc = process.env.BENCH_GRPC
    ? await (await import('./bare-grpc.mjs')).startBareGrpc()
    : undefined;
  report(origin, { rest: true, ...(grpc ? { grpc } : {}) });
});
