/**
 * Per-task bounds: how many messages a task's history may hold and roughly how big a task may grow
 * (history and artifacts). Without them one client can grow a task without end with follow-ups, and one
 * agent bug can fill the store.
 */
import { A2AError, type Message, type Part, type Task } from '../../protocol/index.js';

/** Bounds on one task; every limit has a default and can be raised or lowered per server. */
export interface TaskLimits {
  /** Messages in a task's history (the client's and the agent's). Default 1,000. */
  historyMessages?: number;
  /**
   * Approximate size of a task's content — message and artifact parts, counted as the characters of
   * their text, base64, URLs and JSON data. Default 16 MiB.
   */
  taskBytes?: number;
  /** Push-notification configs one task may have (each event is delivered to every one). Default 16. */
  pushConfigsPerTask?: number;
}

/** The defaults of {@link TaskLimits}. */
export const DEFAULT_TASK_LIMITS: Readonly<Required<TaskLimits>> = {
  historyMessages: 1_000,
  taskBytes: 16 * 1024 * 1024,
  pushConfigsPerTask: 16,
};

/** The approximate size of some parts, in characters; cheap for text, raw and url parts. */
export function sizeOfParts(parts: readonly Part[]): number {
  let n = 0;
  for (const p of parts) {
    if (p.text !== undefined) n += p.text.length;
    else if (p.raw !== undefined) n += p.raw.length;
    else if (p.url !== undefined) n += p.url.length;
    else if (p.data !== undefined) n += JSON.stringify(p.data)?.length ?? 0;
  }
  return n;
}

export function sizeOfMessage(m: Message): number {
  return sizeOfParts(m.parts);
}

/** A client's follow-up that would take a task past its limits is refused with what was exceeded. */
export function refuseFollowUp(
  taskId: string,
  historyLength: number,
  bytes: number,
  limits: Required<TaskLimits>,
): void {
  if (historyLength >= limits.historyMessages) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${taskId} holds ${historyLength} messages, the most this agent keeps per task; start a new task in the same context`,
    );
  }
  if (bytes > limits.taskBytes) throw tooBig(taskId, limits.taskBytes);
}

export function tooBig(taskId: string, limit: number): A2AError {
  return new A2AError(
    'UnsupportedOperation',
    `Task ${taskId} would exceed ${Math.round(limit / 1024)} KiB of content, the most this agent keeps per task`,
  );
}

/** The content size of a stored task, counted once when a follow-up first loads it. */
export function contentSize(task: Task): number {
  let n = 0;
  for (const m of task.history ?? []) n += sizeOfMessage(m);
  for (const a of task.artifacts ?? []) n += sizeOfParts(a.parts);
  return n;
}
