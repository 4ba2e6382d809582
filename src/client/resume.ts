/**
 * Keeping a stream alive across dropped connections: when the connection breaks, or the agent
 * ends the stream, before the task reached a final state, reconnect with SubscribeToTask and
 * `Last-Event-ID` set to the last event id seen, so the agent can replay what was missed (spec
 * §3.5.2 allows a new stream per reconnect). A clean end counts too because a server may close a
 * stream whose client reads too slowly and expect exactly this resumption.
 */
import {
  isTerminalOrInterrupted,
  taskIdOf,
  type StreamResponse,
  type TaskState,
} from '../protocol/index.js';
import { isA2AClientError } from './errors.js';
import { backoffDelay, sleep } from './retry.js';
import type { StreamEvent } from './transport.js';

export interface ResumePolicy {
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

export const DEFAULT_RESUME_POLICY: Readonly<ResumePolicy> = {
  maxRetries: 5,
  baseDelayMs: 250,
  maxDelayMs: 5000,
};

export interface ResumableStream {
  /**
   * Opens one connection. The first call gets `taskId` undefined (the original operation);
   * reconnections get the task's id and must subscribe to it.
   */
  open(lastEventId: string | undefined, taskId: string | undefined): AsyncIterable<StreamEvent>;
  lastEventId?: string | undefined;
  taskId?: string | undefined;
  /** Undefined: never reconnect. */
  policy: ResumePolicy | undefined;
  signal?: AbortSignal | undefined;
  onEventId?: ((id: string) => void) | undefined;
  /** `error` is undefined when the agent ended the stream early rather than the connection breaking. */
  onResume?: (info: {
    attempt: number;
    lastEventId: string | undefined;
    taskId: string;
    error: unknown;
  }) => void;
}

/** Ids remembered to drop events replayed twice; old ones age out so memory stays bounded. */
const SEEN_LIMIT = 1024;

/** Yields the stream's events, reconnecting after drops as the policy allows. */
export async function* resumableStream(s: ResumableStream): AsyncGenerator<StreamResponse> {
  let lastEventId = s.lastEventId;
  let taskId = s.taskId;
  let final = false;
  const seen = new Set<string>();
  for (let attempt = 0; ; attempt++) {
    try {
      for await (const ev of s.open(lastEventId, attempt === 0 ? undefined : taskId)) {
        if (ev.id !== undefined && ev.id !== '') {
          if (seen.has(ev.id)) continue;
          seen.add(ev.id);
          if (seen.size > SEEN_LIMIT) seen.delete(seen.values().next().value as string);
          lastEventId = ev.id;
          s.onEventId?.(ev.id);
        }
        taskId ??= taskIdOf(ev.data);
        final = finalAfter(ev.data, final);
        yield ev.data;
      }
      // The agent ended the stream. Before a final state that means "come back" (or a server
      // that does not follow §3.1.2); either way a bounded resubscribe is the useful reaction.
      if (final || !s.policy || taskId === undefined || attempt >= s.policy.maxRetries) return;
      s.onResume?.({ attempt: attempt + 1, lastEventId, taskId, error: undefined });
    } catch (err) {
      const dropped =
        isA2AClientError(err) && (err.code === 'NETWORK' || err.code === 'UNAVAILABLE');
      // The agent had already said its last word; a connection lost afterwards loses nothing.
      if (dropped && final) return;
      if (!dropped || !s.policy || taskId === undefined || attempt >= s.policy.maxRetries)
        throw err;
      s.onResume?.({ attempt: attempt + 1, lastEventId, taskId, error: err });
    }
    await sleep(backoffDelay(attempt, { retries: s.policy.maxRetries, ...s.policy }), s.signal);
  }
}

/**
 * Whether the stream is complete after this event: a message, or a terminal or interrupted state.
 * Artifact updates carry no state and leave the answer as it was.
 */
export function finalAfter(ev: StreamResponse, before: boolean): boolean {
  if ('message' in ev) return true;
  const state: TaskState | undefined =
    'task' in ev
      ? ev.task.status?.state
      : 'statusUpdate' in ev
        ? ev.statusUpdate.status?.state
        : undefined;
  if (state === undefined) return before;
  return isTerminalOrInterrupted(state);
}
