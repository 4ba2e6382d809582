/**
 * The two objects an executor call receives: what it knows about the request ({@link RunContext}) and
 * its handle on the task ({@link RunUpdater}). Plain classes: one small
 * object each per call (closures built per state and per method used to cost ~2 KB per message).
 */
import {
  type JsonObject,
  type Message,
  type SendMessageRequest,
  type Task,
  type TaskState,
} from '../../protocol/index.js';
import type { Caller, CallContext } from '../dispatch/call-context.js';
import {
  agentMessage,
  textOf,
  type AgentMessageInit,
  type ArtifactInit,
  type RequestContext,
  type TaskUpdater,
} from '../agent/executor.js';
import { newId } from '../util/ids.js';
import type { TaskRun } from './run.js';

export class RunContext implements RequestContext {
  readonly text: string;
  readonly taskId: string;
  readonly contextId: string;
  readonly tenant: string;
  readonly task?: Task;
  readonly caller?: Caller;
  readonly configuration?: SendMessageRequest['configuration'];
  readonly metadata?: JsonObject;
  readonly requestedExtensions: readonly string[];
  readonly #run: TaskRun;
  readonly #cc: CallContext;

  constructor(
    run: TaskRun,
    readonly message: Message,
    req: SendMessageRequest,
    cc: CallContext,
  ) {
    this.#run = run;
    this.#cc = cc;
    this.text = textOf(message);
    this.taskId = run.taskId;
    this.contextId = run.contextId;
    this.tenant = run.scope.tenant;
    // Optional members are only set when present, so `'task' in ctx` and spreads see what was sent.
    if (run.task) this.task = structuredClone(run.task);
    if (cc.caller) this.caller = cc.caller;
    if (req.configuration) this.configuration = req.configuration;
    if (req.metadata) this.metadata = req.metadata;
    this.requestedExtensions = cc.requestedExtensions;
  }

  readonly activateExtension = (uri: string): void => void this.#cc.activatedExtensions.add(uri);

  get signal(): AbortSignal {
    return this.#run.calls.signal;
  }
}

/**
 * Its methods are arrow functions, not prototype methods: agents pass them around detached
 * (`promise.then(task.complete)`, wrappers that take `task.working`), and that must keep working.
 */
export class RunUpdater implements TaskUpdater {
  readonly #run: TaskRun;
  readonly #first: Message;

  constructor(run: TaskRun, first: Message) {
    this.#run = run;
    this.#first = first;
  }

  get taskId(): string {
    return this.#run.taskId;
  }

  get contextId(): string {
    return this.#run.contextId;
  }

  get signal(): AbortSignal {
    return this.#run.calls.signal;
  }

  readonly submit = (): void => void this.#run.create(this.#first);
  readonly working = (m?: AgentMessageInit): void => this.setStatus('TASK_STATE_WORKING', m);
  readonly inputRequired = (m?: AgentMessageInit): void =>
    this.setStatus('TASK_STATE_INPUT_REQUIRED', m);
  readonly authRequired = (m?: AgentMessageInit): void =>
    this.setStatus('TASK_STATE_AUTH_REQUIRED', m);
  readonly complete = (m?: AgentMessageInit): void => this.setStatus('TASK_STATE_COMPLETED', m);
  readonly fail = (m?: AgentMessageInit): void => this.setStatus('TASK_STATE_FAILED', m);
  readonly reject = (m?: AgentMessageInit): void => this.setStatus('TASK_STATE_REJECTED', m);
  readonly cancel = (m?: AgentMessageInit): void => this.setStatus('TASK_STATE_CANCELED', m);

  readonly setStatus = (state: TaskState, m?: AgentMessageInit, metadata?: JsonObject): void => {
    const run = this.#run;
    run.create(this.#first);
    run.setStatus(
      state,
      m === undefined ? undefined : agentMessage(m, run.taskId, run.contextId, newId()),
      metadata,
    );
  };

  readonly addArtifact = (
    artifact: ArtifactInit,
    options: { append?: boolean; lastChunk?: boolean; metadata?: JsonObject } = {},
  ): string => {
    this.#run.create(this.#first);
    return this.#run.addArtifact(artifact, options);
  };

  readonly reply = (m: AgentMessageInit): void => {
    const run = this.#run;
    run.answer(agentMessage(m, undefined, run.contextId, newId()));
  };
}
