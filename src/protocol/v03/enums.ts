/** The enum spellings of A2A 0.3 next to 1.0's, and the few constants both directions share. */
import type { Role, TaskState } from '../task.js';
import type { Role03, TaskState03 } from './types.js';

/** The protocol version this folder speaks (Major.Minor, as an interface's `protocolVersion` says it). */
export const V03 = '0.3';

/** 1.0 state → 0.3 spelling. */
export const STATE_TO_V03: Readonly<Record<TaskState, TaskState03>> = {
  TASK_STATE_SUBMITTED: 'submitted',
  TASK_STATE_WORKING: 'working',
  TASK_STATE_COMPLETED: 'completed',
  TASK_STATE_FAILED: 'failed',
  TASK_STATE_CANCELED: 'canceled',
  TASK_STATE_INPUT_REQUIRED: 'input-required',
  TASK_STATE_REJECTED: 'rejected',
  TASK_STATE_AUTH_REQUIRED: 'auth-required',
};

/** 0.3 spelling → 1.0 state (`unknown` has no 1.0 state and is left out on purpose). */
export const V03_TO_STATE: ReadonlyMap<string, TaskState> = new Map(
  (Object.entries(STATE_TO_V03) as Array<[TaskState, TaskState03]>).map(([v10, v03]) => [v03, v10]),
);

/** The 0.3 states a request or answer may carry. */
export const V03_STATES: readonly string[] = [...V03_TO_STATE.keys()];

/** 1.0 role → 0.3 role. */
export const ROLE_TO_V03: Readonly<Record<Role, Role03>> = {
  ROLE_USER: 'user',
  ROLE_AGENT: 'agent',
};

/**
 * The metadata flag the 1.3 reference SDK sets on a 0.3 data part whose 1.0 value was not an object
 * (0.3 data parts hold objects only): the value travels as `{ value }`. We read and write it the same
 * way, so such parts survive a round trip through either implementation.
 */
export const DATA_PART_COMPAT_FLAG = 'data_part_compat';
