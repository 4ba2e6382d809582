/**
 * Per-task bounds: how many messages a task's history may hold and roughly how big a task may grow
 * (history and artifacts). Without them one client can grow a task without end with follow-ups, and one
 * agent bug can fill the store.
 */
import { A2AError } from '../../protocol/index.js';

/** Bounds on one task; every limit has a default and can be raised or lowered per server. */
export interface TaskLimits {
  /** Messages in a task's history (the client's and the agent's). Default 1,000. */
  historyMessages?: number;
  /**
   * Size of a task's content — its messages and artifacts as serialized, every member counted
   * (metadata, file names, extensions, reference task ids…), in characters. Default 16 MiB.
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

// Sizes count every member of a message or artifact (serialized), see quota/sizes.ts.
export {
  artifactSize as sizeOfArtifact,
  messageSize as sizeOfMessage,
  taskContentSize as contentSize,
} from '../quota/sizes.js';

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
