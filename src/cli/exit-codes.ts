/**
 * The `a2a` command's exit codes, one per kind of outcome a script wants to branch on, and the
 * mapping from what went wrong (a usage mistake, a client-side failure, the agent's error, the
 * state a task ended in) to a code and a message that says what to do next.
 */
import { isA2AClientError, isA2AError } from 'a2a-kit/client';
import type { TaskState } from 'a2a-kit';

/** Exit codes by name. Stable: scripts rely on them. */
export const EXIT = {
  OK: 0,
  ERROR: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  BAD_AGENT: 4,
  AUTH: 5,
  TASK_FAILED: 6,
  TASK_CANCELED: 7,
  TASK_REJECTED: 8,
  INPUT_REQUIRED: 9,
  TIMEOUT: 10,
  TOO_LARGE: 11,
  IDLE: 12,
  PORT_IN_USE: 13,
  INTERRUPTED: 130,
} as const;

/** The table printed by `a2a --help` and copied in the README. */
export const EXIT_CODE_HELP: ReadonlyArray<readonly [number, string]> = [
  [EXIT.OK, 'done (the task completed, or the agent answered with a message)'],
  [
    EXIT.ERROR,
    'the agent answered with an error (task not found, invalid parameters, …), or an unexpected failure',
  ],
  [EXIT.USAGE, 'usage: unknown command or flag, missing or malformed argument'],
  [
    EXIT.UNREACHABLE,
    'the agent or its card could not be reached (connection refused, DNS, HTTP 429/5xx, no card)',
  ],
  [
    EXIT.BAD_AGENT,
    'the card or an answer is unusable: invalid card, rejected signature, no interface this client speaks',
  ],
  [
    EXIT.AUTH,
    'authentication: credentials missing or refused (401/403), or the task needs authentication',
  ],
  [EXIT.TASK_FAILED, 'the task ended FAILED'],
  [EXIT.TASK_CANCELED, 'the task ended CANCELED'],
  [EXIT.TASK_REJECTED, 'the task ended REJECTED'],
  [
    EXIT.INPUT_REQUIRED,
    'the task waits for input and none could be given (stdin is not a terminal, or --no-input)',
  ],
  [
    EXIT.TIMEOUT,
    'a call or the card fetch took longer than --timeout (default 30 s), or the whole command did',
  ],
  [
    EXIT.TOO_LARGE,
    'the card, an answer or a stream event is larger than --max-bytes (default 10 MiB)',
  ],
  [EXIT.IDLE, 'a stream (or a polled task) showed nothing new for --idle-timeout (default 5 min)'],
  [EXIT.PORT_IN_USE, 'the port to listen on is taken (push listen --port)'],
  [EXIT.INTERRUPTED, 'interrupted (Ctrl-C); the task goes on at the agent'],
];

/** A mistake in how the command was called: exit 2 with the message and the command's usage line. */
export class UsageError extends Error {
  override readonly name = 'UsageError';
}

/** A failure whose exit code and wording are already decided (e.g. input required without a terminal). */
export class CliExit extends Error {
  override readonly name = 'CliExit';
  /** The exit code. */
  readonly code: number;
  /** Lines that say what to do next, printed after the message. */
  readonly hints: readonly string[];
  /** `code` is one of {@link EXIT}; `hints` follow the message on stderr. */
  constructor(code: number, message: string, hints: readonly string[] = []) {
    super(message);
    this.code = code;
    this.hints = hints;
  }
}

/** The exit code for the state a task stopped in (0 for COMPLETED and for states that are not final). */
export function exitForState(state: TaskState | undefined): number {
  switch (state) {
    case 'TASK_STATE_FAILED':
      return EXIT.TASK_FAILED;
    case 'TASK_STATE_CANCELED':
      return EXIT.TASK_CANCELED;
    case 'TASK_STATE_REJECTED':
      return EXIT.TASK_REJECTED;
    case 'TASK_STATE_INPUT_REQUIRED':
      return EXIT.INPUT_REQUIRED;
    case 'TASK_STATE_AUTH_REQUIRED':
      return EXIT.AUTH;
    default:
      return EXIT.OK;
  }
}

/** What a failure means for the user: the exit code, one message, and hints. */
export interface Failure {
  /** One of {@link EXIT}. */
  code: number;
  /** What happened. */
  message: string;
  /** What to try. */
  hints: string[];
}

/** Why the command's own signal fired, if it did. */
export type StopReason = 'timeout' | 'interrupted' | 'idle' | undefined;

/** The texts of the limits a failure message names: `--timeout 30s`, `--idle-timeout 5m`. */
export interface LimitTexts {
  /** `--timeout` as given, when it was. */
  timeout?: string | undefined;
  /** `--idle-timeout` as given, or its default. */
  idle?: string | undefined;
}

/** Maps anything thrown by a command to its exit code and wording. */
export function describeFailure(
  err: unknown,
  stopped: StopReason,
  limits: LimitTexts | string | undefined,
): Failure {
  const { timeout: timeoutText, idle } =
    typeof limits === 'string' ? { timeout: limits, idle: undefined } : (limits ?? {});
  if (stopped === 'interrupted')
    return { code: EXIT.INTERRUPTED, message: 'interrupted', hints: [] };
  if (stopped === 'timeout')
    return {
      code: EXIT.TIMEOUT,
      message: `timed out after ${timeoutText ?? 'the time limit'} (--timeout)`,
      hints: [],
    };
  if (stopped === 'idle')
    return {
      code: EXIT.IDLE,
      message: `nothing new from the agent for ${idle ?? 'the idle limit'} (--idle-timeout); stopped waiting`,
      hints: ['wait longer with --idle-timeout, e.g. --idle-timeout 30m'],
    };
  if (err instanceof CliExit)
    return { code: err.code, message: err.message, hints: [...err.hints] };
  if (err instanceof UsageError) return { code: EXIT.USAGE, message: err.message, hints: [] };
  if (isA2AError(err)) {
    if (err.kind === 'Unauthenticated' || err.kind === 'PermissionDenied') {
      const hints =
        err.kind === 'Unauthenticated'
          ? [
              'pass a token with --token (or set A2A_TOKEN); `a2a card URL` shows the schemes the agent accepts',
            ]
          : [];
      return {
        code: EXIT.AUTH,
        message: `the agent refused the call: ${err.message} (${err.kind})`,
        hints,
      };
    }
    if (err.kind === 'Unavailable') {
      return {
        code: EXIT.UNREACHABLE,
        message: `the agent is temporarily unavailable: ${err.message}`,
        hints: ['try again in a moment'],
      };
    }
    return {
      code: EXIT.ERROR,
      message: `the agent answered with an error: ${err.message} (${err.kind}, ${err.spec.jsonRpcCode})`,
      hints: [],
    };
  }
  if (isA2AClientError(err)) {
    switch (err.code) {
      case 'NETWORK':
      case 'UNAVAILABLE':
      case 'CARD_FETCH_FAILED':
        if (err.status === 401 || err.status === 403)
          return { code: EXIT.AUTH, message: err.message, hints: [] };
        return { code: EXIT.UNREACHABLE, message: err.message, hints: [] };
      case 'TIMEOUT':
        return {
          code: EXIT.TIMEOUT,
          message: err.message,
          hints: ['raise the limit with --timeout, e.g. --timeout 2m'],
        };
      case 'INVALID_ARGUMENT':
        return { code: EXIT.USAGE, message: err.message, hints: [] };
      case 'RESPONSE_TOO_LARGE':
        return {
          code: EXIT.TOO_LARGE,
          message: err.message.replace(/ \(raise max\w+ if this is expected\)/, ''),
          hints: ['if the agent is trusted and this is expected, raise the limit with --max-bytes'],
        };
      case 'NO_COMPATIBLE_INTERFACE':
        return {
          code: EXIT.BAD_AGENT,
          message: err.message.replace(
            /; to talk to it, allow that version: \{[^}]*\} in the client options/,
            '',
          ),
          hints: /A2A 0\.3 only/.test(err.message)
            ? [
                'to talk to it, allow A2A 0.3: --versions 1.0,0.3 (or A2A_VERSIONS=1.0,0.3 in the environment)',
              ]
            : [
                '`--binding` limits the bindings this client accepts; drop it to accept every binding this client speaks (JSONRPC, HTTP+JSON, GRPC)',
              ],
        };
      default:
        return { code: EXIT.BAD_AGENT, message: err.message, hints: [] };
    }
  }
  const message = err instanceof Error ? err.message : String(err);
  return { code: EXIT.ERROR, message, hints: [] };
}
