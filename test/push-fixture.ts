/** Real webhook servers on 127.0.0.1 for the push tests, and event builders. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamResponse } from '../src/protocol/index.js';
import type { PushLogger } from '../src/server/push/index.js';

export interface Hit {
  method: string;
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: string;
}

export interface Webhook {
  url: string;
  port: number;
  hits: Hit[];
  /** Resolves once at least `n` requests have arrived (the test's own timeout bounds the wait). */
  waitFor(n: number): Promise<void>;
  close(): Promise<void>;
}

/**
 * Upper bound for waiting on deliveries. Only reached when something is broken: it is a bound, not a
 * timing assertion, and generous because the CI machine may be heavily loaded.
 */
export const SETTLE = 100_000;

const open = new Set<{ close(): unknown }>();

/** Registers something to close after the current test, even when an assertion fails first. */
export function track<C extends { close(): unknown }>(c: C): C {
  open.add(c);
  return c;
}

/** Closes everything tracked (use as `afterEach(closeAll)`), so a failed test cannot leave the process hanging. */
export async function closeAll(): Promise<void> {
  const all = [...open];
  open.clear();
  await Promise.allSettled(all.map(async (c) => c.close()));
}

/** Starts a webhook; `respond` decides each answer (default 200). It may hold a request by awaiting. */
export async function startWebhook(
  respond: (hit: Hit, index: number) => Answer | Promise<Answer> = () => ({ status: 200 }),
): Promise<Webhook> {
  const hits: Hit[] = [];
  const waiters: { n: number; resolve: () => void }[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const hit: Hit = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
      };
      const index = hits.push(hit) - 1;
      for (const w of [...waiters]) {
        if (hits.length >= w.n) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve();
        }
      }
      void Promise.resolve(respond(hit, index)).then((a) => {
        if (!res.destroyed) res.writeHead(a.status, a.headers).end(a.body ?? '');
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return track<Webhook>({
    url: `http://127.0.0.1:${port}/hook`,
    port,
    hits,
    waitFor: (n) =>
      hits.length >= n
        ? Promise.resolve()
        : new Promise<void>((resolve) => waiters.push({ n, resolve })),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}

/** A promise with its resolve, for holding a webhook's answer until the test says so. */
export function gate(): { promise: Promise<void>; open: () => void } {
  let open!: () => void;
  const promise = new Promise<void>((r) => (open = r));
  return { promise, open };
}

/** A status-update event whose metadata carries a sequence number. */
export function statusEvent(
  taskId: string,
  seq: number,
  state = 'TASK_STATE_WORKING',
): StreamResponse {
  return {
    statusUpdate: {
      taskId,
      contextId: `ctx-${taskId}`,
      status: { state: state as 'TASK_STATE_WORKING', timestamp: '2026-01-01T00:00:00Z' },
      metadata: { seq },
    },
  };
}

export const seqOf = (hit: Hit): number =>
  (JSON.parse(hit.body) as { statusUpdate: { metadata: { seq: number } } }).statusUpdate.metadata
    .seq;

/** A logger that keeps every entry, to check what gets logged (and what never does). */
export function captureLogger(): PushLogger & {
  entries: { level: string; obj: object; msg?: string }[];
} {
  const entries: { level: string; obj: object; msg?: string }[] = [];
  const at = (level: string) => (obj: object, msg?: string) =>
    void entries.push({ level, obj, ...(msg ? { msg } : {}) });
  return { entries, debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}

/** Backoff waits recorded instead of slept, so retry tests are fast and assert on values, not time. */
export function recordingClock(nowMs = Date.parse('2026-01-01T00:00:00Z')): {
  now: () => number;
  sleep: (ms: number) => Promise<void>;
  waits: number[];
} {
  const waits: number[] = [];
  return { now: () => nowMs, sleep: async (ms) => void waits.push(ms), waits };
}
