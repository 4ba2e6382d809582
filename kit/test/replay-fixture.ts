/** A small real HTTP server standing in for a kit agent in the replay tests. */
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export const TASK_ID = '11111111-2222-4333-8444-555555555555';
export const STREAM_TASK_ID = '66666666-7777-4888-8999-000000000000';

export interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: string;
}

export interface Fixture {
  readonly port: number;
  readonly seen: Seen[];
  close(): Promise<void>;
}

function json(
  res: ServerResponse,
  status: number,
  value: unknown,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, { 'Content-Type': 'application/json; charset=utf-8', ...headers });
  res.end(JSON.stringify(value));
}

function sse(res: ServerResponse, events: unknown[], end: boolean): void {
  res.writeHead(200, { 'Content-Type': 'text/event-stream', 'Cache-Control': 'no-store' });
  for (const e of events) res.write(`data: ${JSON.stringify(e)}\n\n`);
  if (end) res.end();
}

/** Starts the stand-in on 127.0.0.1, port 0. GetTask reports COMPLETED from its third call on. */
export async function startFixture(): Promise<Fixture> {
  const seen: Seen[] = [];
  let polls = 0;
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      const route = `${req.method} ${req.url}`;
      if (route === 'GET /.well-known/agent-card.json') {
        const etag = '"card-v1"';
        if (req.headers['if-none-match'] === etag) {
          res.writeHead(304, { ETag: etag });
          res.end();
          return;
        }
        json(
          res,
          200,
          { name: 'code-reviewer', capabilities: { streaming: true } },
          { ETag: etag, 'Cache-Control': 'max-age=60' },
        );
      } else if (route === 'POST /a2a/jsonrpc') {
        const rpc = JSON.parse(body) as {
          id: unknown;
          method: string;
          params?: Record<string, unknown>;
        };
        const reply = (r: object): void => json(res, 200, { jsonrpc: '2.0', id: rpc.id, ...r });
        if (rpc.method === 'SendMessage') {
          reply({ result: { task: { id: TASK_ID, status: { state: 'TASK_STATE_WORKING' } } } });
        } else if (rpc.method === 'GetTask') {
          polls += 1;
          reply({
            result: {
              id: rpc.params?.id,
              status: { state: polls >= 3 ? 'TASK_STATE_COMPLETED' : 'TASK_STATE_WORKING' },
            },
          });
        } else if (rpc.method === 'CreateTaskPushNotificationConfig') {
          reply({
            error: {
              code: -32003,
              message: 'Push notifications are not supported',
              data: [
                {
                  '@type': 'type.googleapis.com/google.rpc.ErrorInfo',
                  reason: 'PUSH_NOTIFICATION_NOT_SUPPORTED',
                  domain: 'a2a-protocol.org',
                },
              ],
            },
          });
        } else if (rpc.method === 'SendStreamingMessage') {
          const status = (state: string): object => ({
            jsonrpc: '2.0',
            id: rpc.id,
            result: { statusUpdate: { taskId: STREAM_TASK_ID, status: { state } } },
          });
          sse(
            res,
            [
              {
                jsonrpc: '2.0',
                id: rpc.id,
                result: { task: { id: STREAM_TASK_ID, status: { state: 'TASK_STATE_SUBMITTED' } } },
              },
              status('TASK_STATE_WORKING'),
              status('TASK_STATE_COMPLETED'),
            ],
            true,
          );
        } else {
          reply({ error: { code: -32601, message: 'Method not found' } });
        }
      } else if (route === 'GET /open-stream') {
        sse(res, [{ n: 1 }, { n: 2 }], false); // stays open until the client leaves
      } else if (route === 'GET /redirect') {
        res.writeHead(302, { Location: 'http://example.com/' });
        res.end();
      } else if (route === 'GET /big') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('x'.repeat(5000));
      } else {
        json(res, 404, { error: 'not found' });
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
