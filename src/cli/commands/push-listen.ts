/**
 * `a2a push listen`: a local webhook that receives an agent's push notifications (createPushReceiver),
 * checks each one (token, Authorization or signature) and prints it; refused requests are printed too.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isTerminal, type StreamResponse } from 'a2a-kit';
import {
  createPushReceiver,
  type PushEventMeta,
  type PushReceiverOptions,
} from 'a2a-kit/client/push-receiver';
import type { Command, CommandContext } from '../command.js';
import { CliExit, EXIT, exitForState, UsageError } from '../exit-codes.js';
import { eventLine } from '../render.js';

/** The `push listen` command. */
export const pushListen: Command = {
  name: 'push listen',
  summary:
    'run a local webhook that prints the push notifications an agent delivers, once verified',
  usage: '',
  positionals: { min: 0, max: 0 },
  agent: false,
  options: {
    port: {
      type: 'string',
      value: 'PORT',
      help: 'port to listen on (default: a free one, printed at start)',
    },
    host: { type: 'string', value: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
    'push-token': {
      type: 'string',
      value: 'TOKEN',
      help: 'the X-A2A-Notification-Token to require (default: a generated one, printed at start)',
    },
    authorization: {
      type: 'string',
      value: 'VALUE',
      help: 'require this whole Authorization header instead, e.g. "Bearer abc"',
    },
    jwks: {
      type: 'string',
      value: 'URL|FILE',
      help: 'require a notification signature by one of these keys, e.g. http://agent/.well-known/a2a-push-jwks.json',
    },
    count: { type: 'string', value: 'N', help: 'stop after N notifications' },
    'until-done': {
      type: 'boolean',
      help: "stop at the first notification with a final state; exit with that state's code",
    },
  },
  details: [
    'Prints where it listens and the token on stderr, then one line per accepted notification on stdout ' +
      '(with --json: one JSON object per line with taskId, kind, notificationId, signature and the event).',
    'Register it with a task: a2a send <agent> "…" --push-url <the printed URL> --push-token <the printed token>.',
    'Runs until Ctrl-C (exit 0), --count, --until-done or --timeout.',
  ],
  examples: [
    'a2a push listen --port 8090',
    'a2a push listen --jwks http://localhost:41241/.well-known/a2a-push-jwks.json --until-done',
  ],
  run: runListen,
};

async function keysFrom(source: string): Promise<NonNullable<PushReceiverOptions['verifyKeys']>> {
  if (/^https?:\/\//i.test(source)) return new URL(source);
  try {
    return JSON.parse(await readFile(source, 'utf8')) as { keys: [] };
  } catch (err) {
    throw new UsageError(`--jwks ${source}: could not read a JWKS (${(err as Error).message})`);
  }
}

async function runListen(ctx: CommandContext): Promise<number> {
  const a = ctx.args;
  const port = a.int('port', 0, 65535) ?? 0;
  const host = a.str('host') ?? '127.0.0.1';
  const count = a.int('count', 1, 1_000_000);
  const untilDone = a.flag('until-done');
  const jwks = a.str('jwks');
  const authorization = a.str('authorization');
  // The spec asks receivers to authenticate; with nothing else configured, a fresh token does it. Hex:
  // a base64url token starts with "-" one time in 64, and `--push-token -…` then reads as a flag.
  const token =
    a.str('push-token') ?? (jwks || authorization ? undefined : randomBytes(24).toString('hex'));
  let received = 0;
  let finalCode: number | undefined;
  const stop = new AbortController();
  const p = ctx.term.out;

  const onEvent = (event: StreamResponse, meta: PushEventMeta) => {
    if (stop.signal.aborted) throw new Error('stopping');
    received++;
    const how = meta.signature
      ? `signature ${meta.signature.alg}${meta.signature.kid ? ` kid ${meta.signature.kid}` : ''}`
      : token
        ? 'token'
        : 'authorization';
    if (ctx.json) {
      ctx.term.ndjson({
        taskId: meta.taskId,
        kind: meta.kind,
        notificationId: meta.notificationId ?? null,
        verifiedBy: how,
        event,
      });
    } else {
      const head = 'task' in event ? '' : `${meta.taskId}  `;
      ctx.term.line(`${p.dim('push')} ${head}${eventLine(p, event)}  ${p.dim(`(${how})`)}`);
    }
    const state =
      'task' in event
        ? event.task.status.state
        : 'statusUpdate' in event
          ? event.statusUpdate.status.state
          : undefined;
    if (untilDone && state && isTerminal(state)) {
      finalCode = exitForState(state);
      stop.abort();
    }
    if (count !== undefined && received >= count) stop.abort();
  };
  const receiver = createPushReceiver({
    onEvent,
    ...(token ? { token } : {}),
    ...(authorization ? { authorization } : {}),
    ...(jwks ? { verifyKeys: await keysFrom(jwks) } : {}),
  });
  // A sender that trickles or never sends its delivery is cut off; past 128 connections new ones are closed.
  const server = createServer(
    { headersTimeout: 10_000, requestTimeout: 30_000, keepAliveTimeout: 5_000 },
    (req, res) => {
      // Once the listener has what it waited for, later deliveries are turned away for good (410: do not retry).
      if (stop.signal.aborted || ctx.signal.aborted)
        return void res.writeHead(410, { connection: 'close' }).end();
      res.on('finish', () => {
        if (res.statusCode >= 300)
          ctx.term.note(
            ctx.term.err.yellow(
              `refused ${req.method} ${req.url} from ${req.socket.remoteAddress}: HTTP ${res.statusCode}`,
            ),
          );
      });
      receiver.listener(req, res);
    },
  );
  server.maxConnections = 128;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (err: NodeJS.ErrnoException) =>
      reject(
        err.code === 'EADDRINUSE'
          ? new CliExit(
              EXIT.PORT_IN_USE,
              `cannot listen, the port is already in use (${host}:${port}); choose another with --port`,
            )
          : new UsageError(`cannot listen on ${host}:${port}: ${err.message}`),
      ),
    );
    server.listen(port, host, resolve);
  });
  const address = server.address() as AddressInfo;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${address.port}/`;
  ctx.term.note(`listening for push notifications at ${url}`);
  if (token) ctx.term.note(`token: ${token}`);
  ctx.term.note(
    ctx.term.err.dim(
      `register it: a2a send <agent-url> "…" --push-url ${url}${token ? ` --push-token ${token}` : ''}`,
    ),
  );

  await new Promise<void>((resolve) => {
    const done = () => resolve();
    stop.signal.addEventListener('abort', done, { once: true });
    ctx.signal.addEventListener('abort', done, { once: true });
    if (ctx.signal.aborted) resolve();
  });
  // The last notification's 204 may still be on its way: stop accepting, let it finish, then cut what is left.
  const closed = new Promise<void>((resolve) => server.close(() => resolve()));
  server.closeIdleConnections();
  const force = setTimeout(() => server.closeAllConnections(), 2000);
  await closed;
  clearTimeout(force);
  if (stop.signal.aborted) return finalCode ?? EXIT.OK;
  // Ctrl-C is how a plain listener ends; a listener that was waiting for something did not get it.
  if (count === undefined && !untilDone) return EXIT.OK;
  throw ctx.signal.reason;
}
