/** The task lifecycle as a state machine (spec §4.1.3, life-of-a-task guide). */
import { TERMINAL_STATES, type TaskState } from '../../protocol/index.js';

const ACTIVE_TARGETS: TaskState[] = [
  'TASK_STATE_WORKING',
  'TASK_STATE_INPUT_REQUIRED',
  'TASK_STATE_AUTH_REQUIRED',
  'TASK_STATE_COMPLETED',
  'TASK_STATE_FAILED',
  'TASK_STATE_CANCELED',
  'TASK_STATE_REJECTED',
];

/**
 * Legal transitions. A task starts SUBMITTED; terminal states have no way out; an interrupted task
 * resumes to WORKING when the client answers. WORKING → WORKING is a progress update.
 */
const TRANSITIONS: Readonly<Record<TaskState, ReadonlySet<TaskState>>> = {
  TASK_STATE_SUBMITTED: new Set(ACTIVE_TARGETS),
  TASK_STATE_WORKING: new Set(ACTIVE_TARGETS),
  TASK_STATE_INPUT_REQUIRED: new Set(ACTIVE_TARGETS),
  TASK_STATE_AUTH_REQUIRED: new Set(ACTIVE_TARGETS),
  TASK_STATE_COMPLETED: new Set(),
  TASK_STATE_FAILED: new Set(),
  TASK_STATE_CANCELED: new Set(),
  TASK_STATE_REJECTED: new Set(),
};

/** Whether a task in `from` may move to `to`. */
export function canTransition(from: TaskState, to: TaskState): boolean {
  return TRANSITIONS[from].has(to);
}

/** Thrown to the agent author when an executor asks for an impossible transition. */
export class IllegalTransitionError extends Error {
  override readonly name = 'IllegalTransitionError';
  constructor(
    readonly from: TaskState,
    readonly to: TaskState,
  ) {
    super(
      TERMINAL_STATES.has(from)
        ? `task is already ${from} (terminal) and cannot move to ${to}`
        : `a task cannot move from ${from} to ${to}`,
    );
  }
}
