/**
 * A hostile A2A agent for the inspector's tests, written by hand on node:http (127.0.0.1, port 0) so
 * that it can do what no well-behaved library would: put HTML and terminal escapes in every string it
 * sends, serve a card without end, never answer, stream without end, or send one enormous event.
 * Every path is `/<mode>/…`; every loop it runs is bounded in count and stops when the client leaves.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** HTML that would run script if rendered as markup, then OSC title, clear screen, and a bidi override. */
export const EVIL =
  '<img src=x onerror="window.__owned=1"><b>bold</b>\u001b]0;owned\u0007\u001b[2J\u202eevil';

/** The card of `/<mode>`: every peer string hostile, links that are not http(s), skills without modes. */
export function evilCard(base: string): Record<string, unknown> {
  return {
    name: `Evil ${EVIL}`,
    description: `desc ${EVIL}`,
    version: `1 ${EVIL}`,
    provider: { organization: `org ${EVIL}`, url: 'javascript://x/%0Awindow.__owned=2' },
    documentationUrl: 'javascript://x/%0Awindow.__owned=3',
    supportedInterfaces: [
      { url: `${base}/rpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {
      streaming: true,
      extensions: [{ uri: `urn:${EVIL}`, description: EVIL }],
    },
    securitySchemes: {
      [`k${EVIL}`]: { apiKeySecurityScheme: { location: 'header', name: 'X-K' } },
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
        inputModes: [],
        outputModes: [],
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
        parts: [{ text: EVIL, filename: `f${EVIL}.txt`, mediaType: 'text/plain' }],
      },
    ],
  };
}

async function rpc(mode: string, req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = '';
  for await (const c of req) body += c;
  const call = JSON.parse(body) as { id: unknown; method: string };
  const answer = (result: unknown) => `${JSON.stringify({ jsonrpc: '2.0', id: call.id, result })}`;
  if (call.method === 'SendMessage') {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(answer({ task: task('t1', 'TASK_STATE_COMPLETED', `status ${EVIL}`) }));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  let open = true;
  res.on('close', () => (open = false));
  res.write(`data: ${answer({ task: task('t2', 'TASK_STATE_WORKING', EVIL) })}\n\n`);
  if (mode === 'bigevent') {
    // One event larger than the client's 4 MiB cap on an event.
    const text = 'x'.repeat(5 * 1024 * 1024);
    const update = {
      taskId: 't2',
      contextId: 'ctx-t2',
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: 'b', role: 'ROLE_AGENT', parts: [{ text }] },
      },
    };
    res.end(`data: ${answer({ statusUpdate: update })}\n\n`);
    return;
  }
  // Endless, as far as the client can tell: 1,200 updates, then it stops by itself.
  for (let i = 0; i < 1200 && open; i++) {
    const update = {
      taskId: 't2',
      contextId: 'ctx-t2',
      status: {
        state: 'TASK_STATE_WORKING',
        message: { messageId: `u${i}`, role: 'ROLE_AGENT', parts: [{ text: `step ${i} ${EVIL}` }] },
      },
    };
    res.write(`id: ${i}\ndata: ${answer({ statusUpdate: update })}\n\n`);
    if (i % 50 === 0) await pause(1);
  }
  res.end();
}

async function handle(req: IncomingMessage, res: ServerResponse, origin: string): Promise<void> {
  const [, mode = '', rest = ''] = /^\/([^/]+)(\/.*)?$/.exec(req.url ?? '/') ?? [];
  const base = `${origin}/${mode}`;
  if (rest === '/.well-known/agent-card.json') {
    if (mode === 'silent') return; // the answer never comes (the socket stays open)
    if (mode === 'hugecard') {
      // A card without end: 64 KiB chunks until the client hangs up (at most 200 MiB).
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(`{"name":"`);
      const chunk = 'a'.repeat(64 * 1024);
      let open = true;
      res.on('close', () => (open = false));
      for (let i = 0; i < 3200 && open; i++) {
        if (!res.write(chunk)) await new Promise((r) => res.once('drain', r));
      }
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(evilCard(base)));
    return;
  }
  if (rest === '/rpc' && req.method === 'POST') return rpc(mode, req, res);
  res.writeHead(404).end();
}

/** The hostile agent; `url(mode)` is an agent base URL: `evil`, `hugecard`, `silent`, `bigevent`. */
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
