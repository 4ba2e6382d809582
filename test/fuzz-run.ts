/**
 * Runs generated requests against a fuzz target and collects what went wrong: the world the requests
 * refer to, the send/judge loop (bounded concurrency, bounded time per request), crash detection for
 * a child-process target, and the issues already known (reported, but not failing the suite).
 */
import { Agent, request } from 'node:http';
import type { FuzzCase, FuzzWorld } from './fuzz-gen.js';
import { judge, send, type Observation, type Verdict } from './fuzz-oracle.js';
import { FUZZ_RPC_PATH } from './fuzz-server.js';

/** Upper bound for one request (or one stream) to be answered: past it, the server hangs. */
export const REQUEST_BOUND_MS = 15_000;

/** A fuzz finding already filed (issue 15) and being fixed elsewhere: reported, not failed on. */
export interface KnownIssue {
  id: string;
  what: string;
  /** It kills the process: never sent to the in-process target. */
  crash?: boolean;
  matches(c: FuzzCase, v: Verdict | undefined, seen: Seen): boolean;
}

/** What the run has sent so far, for issues whose symptom shows on a later request. */
export interface Seen {
  /** A SendMessage or SendStreamingMessage nested at least {@link DEEP} levels. */
  deepSend: boolean;
}

/** Deep enough that V8's recursive JSON.stringify runs out of stack (JSON.parse does not). */
export const DEEP = 1000;

/**
 * Findings that are filed and not yet fixed: reported, not failed on. Empty since issue 15's fixes (deep
 * nesting refused at the door, streams that end with an error event, proto field names accepted).
 */
export const KNOWN_ISSUES: KnownIssue[] = [];

/** One request the oracle found fault with. */
export interface Finding {
  c: FuzzCase;
  problems: string[];
  observation?: Observation;
  /** The known issue it belongs to, if any. */
  known?: string;
  /** The process died: the tail of its stderr. */
  crash?: string;
}

export interface RunResult {
  sent: number;
  findings: Finding[];
  /** Cases not sent (known crashers on a target that must not die), by known issue id. */
  skipped: Map<string, FuzzCase[]>;
  statuses: Map<string, number>;
}

/** Where to send: the origin may change when a crashed child target is restarted. */
export interface TargetRef {
  origin(): string;
  /** Child targets: whether the process still runs (checked after every case). */
  alive?(): Promise<boolean>;
  /** Child targets: replace a dead process and say what it printed before dying. */
  restart?(): Promise<string>;
}

export interface RunOptions {
  concurrency: number;
  /**
   * Known crashers are skipped unless the target can die (a child process); there they are sent until
   * one has crashed it, at most this many per issue.
   */
  crashersToSend: number;
  /** Stop after this many ms (the remaining cases are not sent). */
  budgetMs: number;
}

/** The known issue `c` (with its verdict) belongs to. */
export function knownIssueOf(
  c: FuzzCase,
  v: Verdict | undefined,
  seen: Seen,
): KnownIssue | undefined {
  return KNOWN_ISSUES.find((k) => k.matches(c, v, seen));
}

export async function runCases(
  target: TargetRef,
  cases: Iterable<FuzzCase>,
  o: RunOptions,
): Promise<RunResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: o.concurrency });
  const result: RunResult = { sent: 0, findings: [], skipped: new Map(), statuses: new Map() };
  const crashersSent = new Map<string, number>();
  const seen: Seen = { deepSend: false };
  const deadline = Date.now() + o.budgetMs;
  const iterator = cases[Symbol.iterator]();
  const worker = async (): Promise<void> => {
    for (let next = iterator.next(); !next.done && Date.now() < deadline; next = iterator.next()) {
      const c = next.value;
      const crasher = KNOWN_ISSUES.find((k) => k.crash && k.matches(c, undefined, seen));
      if (crasher) {
        const sentSoFar = crashersSent.get(crasher.id) ?? 0;
        const crashed = result.findings.some(
          (f) => f.crash !== undefined && f.known === crasher.id,
        );
        if (!target.alive || crashed || sentSoFar >= o.crashersToSend) {
          result.skipped.set(crasher.id, [...(result.skipped.get(crasher.id) ?? []), c]);
          continue;
        }
        crashersSent.set(crasher.id, sentSoFar + 1);
      }
      if (c.op.startsWith('Send') && c.depth >= DEEP) seen.deepSend = true;
      const observation = await send(target.origin(), c, agent, REQUEST_BOUND_MS);
      result.sent++;
      const key = observation.status !== undefined ? String(observation.status) : observation.end;
      result.statuses.set(key, (result.statuses.get(key) ?? 0) + 1);
      const verdict = judge(c, observation);
      if (target.alive && !(await target.alive())) {
        const stderr = await target.restart!();
        result.findings.push({
          c,
          problems: ['the server process died', ...verdict.problems],
          observation,
          crash: stderr,
          ...known(c, verdict, seen),
        });
        continue;
      }
      if (verdict.problems.length > 0)
        result.findings.push({
          c,
          problems: verdict.problems,
          observation,
          ...known(c, verdict, seen),
        });
    }
  };
  try {
    await Promise.all(Array.from({ length: o.concurrency }, worker));
  } finally {
    agent.destroy();
  }
  return result;
}

const known = (c: FuzzCase, v: Verdict, seen: Seen): { known?: string } => {
  const k = knownIssueOf(c, v, seen);
  return k ? { known: k.id } : {};
};

/** One JSON-RPC call used to build the world (not fuzzed): the parsed `result`. */
export async function rpcCall(origin: string, method: string, params: unknown): Promise<any> {
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method, params });
  const text = await new Promise<string>((resolve, reject) => {
    const req = request(`${origin}${FUZZ_RPC_PATH}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'a2a-version': '1.0' },
      timeout: REQUEST_BOUND_MS,
    });
    req.on('timeout', () => req.destroy(new Error(`${method} timed out`)));
    req.on('error', reject);
    req.on('response', (res) => {
      let s = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (s += d));
      res.on('end', () => resolve(s));
    });
    req.end(body);
  });
  const answer = JSON.parse(text) as { result?: unknown; error?: unknown };
  if (answer.error) throw new Error(`${method} failed while building the fuzz world: ${text}`);
  return answer.result;
}

/** Tasks and push configs for valid requests to refer to. */
export async function buildWorld(origin: string, hook: string): Promise<FuzzWorld> {
  const send = (text: string) =>
    rpcCall(origin, 'SendMessage', {
      message: {
        messageId: `world-${text}-${Math.random()}`,
        role: 'ROLE_USER',
        parts: [{ text }],
      },
    });
  const done = await Promise.all(['echo one', 'echo two'].map(async (t) => (await send(t)).task));
  const waiting = await Promise.all(
    ['ask', 'ask', 'ask', 'ask'].map(async (t) => (await send(t)).task),
  );
  const configs = ['cfg-1', 'cfg-2'];
  for (const id of configs)
    await rpcCall(origin, 'CreateTaskPushNotificationConfig', {
      taskId: done[0].id,
      id,
      url: hook,
      token: 't',
    });
  return {
    hook,
    done: done.map((t) => t.id),
    waiting: waiting.map((t) => t.id),
    contexts: [...done, ...waiting].map((t) => t.contextId),
    configs,
  };
}

/** A finding as a short, reproducible report. */
export function describe(f: Finding): string {
  const c = f.c;
  const body = c.body
    ? c.body.subarray(0, 300).toString('utf8') +
      (c.body.length > 300 ? `… (${c.body.length} bytes)` : '')
    : '(no body)';
  return [
    `#${c.n} ${c.binding} ${c.op}: ${f.problems.join('; ')}${f.known ? ` [known: ${f.known}]` : ''}`,
    `  mutations: ${c.mutations.join(' | ') || '(none)'}`,
    `  ${c.verb} ${c.path.slice(0, 200)}  ${JSON.stringify(c.headers)}`,
    `  body: ${body}`,
    ...(f.crash ? [`  stderr: ${f.crash.trim().split('\n').slice(-25).join('\n          ')}`] : []),
  ].join('\n');
}
