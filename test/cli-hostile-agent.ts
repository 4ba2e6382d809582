/**
 * A hostile A2A agent for the `a2a` command's tests, by hand on node:http (127.0.0.1, port 0): terminal
 * escapes and bidi overrides in every string it sends (card, statuses, artifacts, errors), a card
 * without end, answers without end, streams without end, and silence. Every path is `/<mode>/…`;
 * every loop it runs is bounded in count and stops when the client leaves.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** OSC window title, clear screen, cursor home, a carriage return, a C1 CSI, DEL, and a bidi override. */
export const EVIL = 'x\u001b]0;owned\u0007\u001b[2J\u001b[H\rfake\u009b31m\u007f\u202eevil\u2066y';

/** Every character of {@link EVIL} that must never reach a terminal raw. */
// eslint-disable-next-line no-control-regex
export const RAW = /[\u001b\u0007\r\u009b\u007f\u202e\u2066]/;

function card(base: string, mode: string): Record<string, unknown> {
  return {
    name: `Evil ${EVIL}`,
    description: `desc ${EVIL}`,
    version: `1 ${EVIL}`,
    provider: { organization: `org ${EVIL}`, url: `https://example.com/${EVIL}` },
    documentationUrl: `https://example.com/${EVIL}`,
    supportedInterfaces: [
      { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {
      streaming: !mode.startsWith('poll'),
      pushNotifications: true,
      extensions: [{ uri: `urn:${EVIL}`, description: EVIL }],
    },
    securitySchemes: {
      [`k${EVIL}`]: {
        apiKeySecurityScheme: { location: 'header', name: 'X-K', description: EVIL },
      },
    },
    defaultInputModes: [`text/${EVIL}`],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: `s${EVIL}`,
        name: `Skill ${EVIL}`,
        description: EVIL,
        tags: [EVIL],
        examples: [`try ${EVIL}`],
      },
    ],
  };
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function task(id: string, state: string, text: string): Record<string, unknown> {
  return {
    id,
    contextId: `ctx-${id}`,
    status: {
      state,
      message: { messageId: `m-${id}`, role: 'ROLE_AGENT', parts: [{ text }] },
    },
    artifacts: [
      {
        artifactId: 'a1',
        name: `art ${EVIL}`,
        parts: [{ text: `${EVIL}\n${EVIL}` }],
      },
    ],
    history: [{ messageId: 'h1', role: 'ROLE_AGENT', parts: [{ text: `hist ${EVIL}` }] }],
  };
}

const update = (i: number, state: string) => ({
  statusUpdate: {
    taskId: 't1',
    contextId: 'ctx-t1',
    status: {
      state,
      message: { messageId: `u${i}`, role: 'ROLE_AGENT', parts: [{ text: `step ${i} ${EVIL}` }] },
    },
  },
});

/** Writes until the client leaves or `max` chunks were written, waiting for the socket to drain. */
async function flood(res: ServerResponse, chunk: string, max: number): Promise<void> {
  let open = true;
  res.on('close', () => (open = false));
  for (let i = 0; i < max && open; i++)
    if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
  res.end();
}

async function rpc(mode: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = '';
  for await (const c of req) if ((body += c).length > 1e6) return void res.destroy();
  const call = JSON.parse(body) as { id: unknown; method: string };
  const frame = (result: unknown) => JSON.stringify({ jsonrpc: '2.0', id: call.id, result });
  const streaming = call.method === 'SendStreamingMessage' || call.method === 'SubscribeToTask';
  if (mode === 'silent' && !streaming) return; // never answers; the socket stays open
  if (mode === 'hugeanswer' && !streaming) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write(`{"jsonrpc":"2.0","id":${JSON.stringify(call.id)},"result":{"task":{"id":"`);
    return flood(res, 'a'.repeat(64 * 1024), 3200);
  }
  if (call.method === 'CancelTask') {
    res.writeHead(200, { 'content-type': 'application/json' });
    const error = { code: -32002, message: `cannot cancel ${EVIL}`, data: [{ why: EVIL }] };
    return void res.end(JSON.stringify({ jsonrpc: '2.0', id: call.id, error }));
  }
  if (!streaming) {
    const state = mode.endsWith('endless') ? 'TASK_STATE_WORKING' : 'TASK_STATE_COMPLETED';
    const t = task('t1', state, `status ${EVIL}`);
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(frame(call.method === 'GetTask' ? t : { task: t }));
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let open = true;
  res.on('close', () => (open = false));
  if (mode === 'silent') {
    // Keep-alive comments only, never an event (at most 10 minutes of them).
    for (let i = 0; i < 6000 && open; i++) {
      res.write(': keep-alive\n\n');
      await pause(100);
    }
    return void res.end();
  }
  res.write(`data: ${frame({ task: task('t1', 'TASK_STATE_WORKING', EVIL) })}\n\n`);
  if (mode === 'hugeanswer') {
    res.write('data: {"jsonrpc":"2.0","result":{"statusUpdate":{"taskId":"');
    return flood(res, 'a'.repeat(64 * 1024), 3200);
  }
  if (mode === 'endless') {
    // Endless as far as the client can tell: up to 100,000 updates, 1 ms apart, until it hangs up.
    for (let i = 0; i < 100_000 && open; i++) {
      res.write(`id: ${i}\ndata: ${frame(update(i, 'TASK_STATE_WORKING'))}\n\n`);
      await pause(1);
    }
    return void res.end();
  }
  res.write(`data: ${frame(update(1, 'TASK_STATE_WORKING'))}\n\n`);
  const art = { taskId: 't1', contextId: 'ctx-t1', artifact: task('t1', '', '').artifacts };
  const artifact = (art.artifact as unknown[])[0];
  res.write(`data: ${frame({ artifactUpdate: { ...art, artifact } })}\n\n`);
  res.end(`data: ${frame(update(2, 'TASK_STATE_COMPLETED'))}\n\n`);
}

async function handle(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const [, mode = '', rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(req.url ?? '/') ?? [];
  const base = `${origin}/${mode}`;
  if (rest === '/.well-known/agent-card.json') {
    if (mode === 'silentcard') return; // the answer never comes
    if (mode === 'hugecard') {
      // A card without end: 64 KiB chunks until the client hangs up (at most 200 MiB).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"name":"`);
      return flood(res, 'a'.repeat(64 * 1024), 3200);
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    return void res.end(JSON.stringify(card(base, mode)));
  }
  if (rest === '/rpc' && req.method === 'POST') return rpc(mode, req, res);
  res.writeHead(404).end();
}

/**
 * The hostile agent; `url(mode)` is an agent base URL. Modes: `evil` (escapes everywhere, streams),
 * `poll` (the same without streaming), `pollendless` (a task that never changes), `hugecard`, `silentcard`, `hugeanswer` (answers and stream
 * events without end), `silent` (calls never answered, streams only keep-alives), `endless`.
 */
export async function startHostileAgent(): Promise<{
  url(mode: string): string;
  close(): Promise<void>;
}> {
  let origin = '';
  const server = createServer((req, res) => {
    handle(req, res, origin).catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: (mode) => `${origin}/${mode}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
