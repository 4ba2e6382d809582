/**
 * Helpers of the planner tests: an observing proxy in front of one kit agent (it records every request
 * the agent receives — method, path, headers, body — and can serve a changed card), a transcript sink,
 * a planner config for agents on port 0, and the built commands run as a user runs them. Everything is
 * real HTTP on 127.0.0.1.
 */
import { spawn } from 'node:child_process';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import { PassThrough } from 'node:stream';
import { DEFAULT_CONFIG, type PlannerConfig } from '../src/planner/index.js';
import type { RunningAgent } from '../src/agents/start.js';

export interface SeenRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
  /** The JSON-RPC method, when the body is a JSON-RPC request. */
  rpc?: string;
}

export interface ObservingProxy {
  /** Base URL the planner is configured with, e.g. `http://127.0.0.1:PORT`. */
  base: string;
  /** Requests forwarded to the agent (card fetches included, with path `/.well-known/agent-card.json`). */
  seen: SeenRequest[];
  /** Requests other than card fetches. */
  calls(): SeenRequest[];
  close(): Promise<void>;
}

export type CardEdit = (card: any, proxyBase: string) => any;

/**
 * A proxy in front of `agent`. The card it serves has every interface URL moved to the proxy (so all
 * traffic passes through it) and then goes through `edit`. A signed card's signature no longer matches
 * after that, which is the point of the tampering test; other tests run with signatures off or unsigned agents.
 */
export interface ProxyOptions {
  /** Keep the card's interface URLs (traffic then goes straight to the agent). Default: move them to the proxy. */
  moveUrls?: boolean;
  /** Answer a request here instead of forwarding it (e.g. a failing agent). */
  intercept?: (r: SeenRequest) => { status: number; body: string } | undefined;
  /** Never answer a request (until the proxy closes): a caller left waiting, e.g. for Ctrl-C. */
  hold?: (r: SeenRequest) => boolean;
}

export async function observingProxy(
  agent: RunningAgent,
  edit: CardEdit = (c) => c,
  opts: ProxyOptions = {},
): Promise<ObservingProxy> {
  const seen: SeenRequest[] = [];
  const upstream = new URL(agent.origin);
  let base = '';
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const path = req.url ?? '/';
      const entry: SeenRequest = { method: req.method ?? '', path, headers: req.headers, body };
      try {
        const m = (JSON.parse(body) as { method?: unknown }).method;
        if (typeof m === 'string') entry.rpc = m;
      } catch {
        // not JSON: a GET, or a REST call without a body
      }
      seen.push(entry);
      if (path.split('?')[0] === '/.well-known/agent-card.json') {
        let card = structuredClone(agent.card) as any;
        if (opts.moveUrls !== false) {
          card.supportedInterfaces = card.supportedInterfaces.map((i: any) => ({
            ...i,
            url: i.url.replace(agent.baseUrl, base),
          }));
        }
        card = edit(card, base);
        res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(card));
        return;
      }
      if (opts.hold?.(entry)) return;
      const own = opts.intercept?.(entry);
      if (own) {
        res.writeHead(own.status, { 'content-type': 'application/json' }).end(own.body);
        return;
      }
      const fwd = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path,
          headers: { ...req.headers, host: upstream.host },
        },
        (up) => {
          res.writeHead(up.statusCode ?? 502, up.headers);
          up.pipe(res);
        },
      );
      fwd.on('error', (err) => {
        if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
        res.end(String(err));
      });
      fwd.end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const addr = server.address();
  base = `http://127.0.0.1:${typeof addr === 'object' && addr ? addr.port : 0}`;
  return {
    base,
    seen,
    calls: () => seen.filter((r) => !r.path.startsWith('/.well-known/')),
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A writable that keeps everything written to it, for reading the planner's transcript. */
export function transcriptSink(): { out: PassThrough; text(): string } {
  const out = new PassThrough();
  let text = '';
  out.on('data', (c: Buffer) => (text += c.toString('utf8')));
  return { out, text: () => text };
}

/** A planner config for agents at `agents`, with a bounded task time. */
export function plannerConfig(agents: string[], extra: Partial<PlannerConfig> = {}): PlannerConfig {
  return { ...DEFAULT_CONFIG, agents, taskTimeoutMs: 60_000, ...extra };
}

/** How long one run of a built kit command may take (the demo starts three agents and runs the pipeline). */
export const CLI_BOUND_MS = 180_000;

/** What a finished command printed, and how it exited. */
export interface Ran {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Run a built kit command (the demo by default) in a child process, without colours or logs, to its end
 * within {@link CLI_BOUND_MS}.
 */
export function runBuilt(
  args: string[],
  env: Record<string, string>,
  script = 'kit/dist/cli/demo.js',
): Promise<Ran> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, ...args], {
      env: { ...process.env, NO_COLOR: '1', LOG_LEVEL: 'silent', ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `${script} ${args.join(' ')} did not finish in ${CLI_BOUND_MS} ms\n${stdout}\n${stderr}`,
        ),
      );
    }, CLI_BOUND_MS);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
