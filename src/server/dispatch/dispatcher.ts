/**
 * All eleven operations, transport-agnostic. Order of checks for every call: protocol version,
 * capability (§3.3.4: before any lookup, so a push call to an agent without push fails the same way
 * for any task id), required extensions, input validation, then the operation itself.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  A2AError,
  CAPABILITY_ERROR,
  CancelTaskRequestSchema,
  CreatePushConfigRequestSchema,
  FAST_CHECKS,
  GetExtendedAgentCardRequestSchema,
  GetTaskRequestSchema,
  ListPushConfigsRequestSchema,
  ListTasksRequestSchema,
  PROTOCOL_VERSION,
  PushConfigRefSchema,
  requestedVersion,
  SendMessageRequestSchema,
  SubscribeToTaskRequestSchema,
  violationsOf,
  type AgentCard,
  type ListTasksResponse,
  type Operation,
  type OperationName,
  type SendMessageRequest,
  type SendMessageResponse,
  type Task,
  type TaskPushNotificationConfig,
} from '../../protocol/index.js';
import type { Caller, CallContext } from './call-context.js';
import type { AgentExecutor } from '../agent/executor.js';
import { silentLogger, type Logger } from '../logger.js';
import { InMemoryTaskStore } from '../store/memory.js';
import { isPushConfigStore, type PushConfigStore, type Scope, type StoredPushConfig, type TaskStore } from '../store/task-store.js';
import { TaskManager, type StoreErrorHook } from '../tasks/manager.js';
import type { TaskLimits } from '../tasks/limits.js';
import { viewTask } from '../tasks/view.js';
import { inputModeMatcher, unsupportedMediaType } from './media-types.js';
import { openRunStream, type EventStream } from '../tasks/event-stream.js';
import { PushSender } from '../push/sender.js';
import { PushDispatcher } from '../push/dispatcher.js';
import { assertWebhookUrl, type WebhookPolicy } from '../push/ssrf.js';
import type { PushSenderOptions } from '../push/options.js';
import type { PushWireFormat } from '../push/wire-format.js';
import type { TaskRun } from '../tasks/run.js';

/** Push-notification delivery settings (used when the card declares `pushNotifications`). */
export interface PushOptions {
  /** Which webhook addresses are allowed (SSRF guard, §13.2). Default: public addresses only. */
  policy?: WebhookPolicy;
  /** Retry, timeout, queue and signing settings of the sender, or a sender of your own. */
  sender?: Omit<PushSenderOptions, 'policy'> | PushSender;
}

/** The extended card: one for everyone, or one per authenticated caller. */
export type ExtendedCardSource = AgentCard | ((caller: Caller) => AgentCard | undefined | Promise<AgentCard | undefined>);

export interface DispatcherOptions {
  card: AgentCard;
  executor: AgentExecutor;
  /** Where tasks live. Default: an {@link InMemoryTaskStore}. */
  store?: TaskStore;
  /** Where push configs live. Default: `store` when it keeps them too (the built-in stores do), else in memory. */
  pushConfigStore?: PushConfigStore;
  logger?: Logger;
  extendedCard?: ExtendedCardSource;
  push?: PushOptions;
  /** Fail a task after this long (ms) without an event once its agent returned without finishing it. Default: no limit. */
  idleTimeoutMs?: number;
  /** Tasks a previous process left SUBMITTED or WORKING: `'fail'` them at start (default) or `'resume'` them. */
  recovery?: 'fail' | 'resume';
  /** Bounds on each task: messages in its history, size of its content (see {@link TaskLimits}). */
  limits?: TaskLimits;
  /** Told of every failed store write, besides the log (a failed save also fails the call). */
  onStoreError?: StoreErrorHook;
  /** Set by the 0.3 compatibility layer: webhooks registered over 0.3 get 0.3 bodies. */
  pushWireFormat?: PushWireFormat;
}

const SCHEMAS: Record<OperationName, z.ZodType> = {
  SendMessage: SendMessageRequestSchema,
  SendStreamingMessage: SendMessageRequestSchema,
  GetTask: GetTaskRequestSchema,
  ListTasks: ListTasksRequestSchema,
  CancelTask: CancelTaskRequestSchema,
  SubscribeToTask: SubscribeToTaskRequestSchema,
  CreateTaskPushNotificationConfig: CreatePushConfigRequestSchema,
  GetTaskPushNotificationConfig: PushConfigRefSchema,
  ListTaskPushNotificationConfigs: ListPushConfigsRequestSchema,
  DeleteTaskPushNotificationConfig: PushConfigRefSchema,
  GetExtendedAgentCard: GetExtendedAgentCardRequestSchema,
};

export class OperationDispatcher {
  #card!: AgentCard;
  readonly store: TaskStore;
  readonly pushConfigs: PushConfigStore;
  readonly tasks: TaskManager;
  readonly logger: Logger;
  readonly #extendedCard: ExtendedCardSource | undefined;
  /** Delivers task events to webhooks. */
  readonly pushSender: PushSender;
  readonly #push: PushDispatcher;
  readonly #pushPolicy: WebhookPolicy;
  #requiredExtensions: string[] = [];
  #acceptsInput: ((mediaType: string) => boolean) | undefined;

  constructor(options: DispatcherOptions) {
    this.card = options.card;
    this.store = options.store ?? new InMemoryTaskStore();
    this.pushConfigs = options.pushConfigStore ?? (isPushConfigStore(this.store) ? this.store : new InMemoryTaskStore());
    this.logger = options.logger ?? silentLogger;
    this.#extendedCard = options.extendedCard;
    this.tasks = new TaskManager({
      store: this.store,
      executor: options.executor,
      logger: this.logger,
      ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.recovery ? { recovery: options.recovery } : {}),
      ...(options.onStoreError ? { onStoreError: options.onStoreError } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
    });
    this.#pushPolicy = options.push?.policy ?? {};
    const sender = options.push?.sender;
    this.pushSender =
      sender instanceof PushSender ? sender : new PushSender({ logger: this.logger, ...sender, policy: this.#pushPolicy });
    this.#push = new PushDispatcher(this.pushSender, this.pushConfigs, this.logger, options.pushWireFormat);
    this.tasks.observe((scope, task, event) => {
      if (this.#card.capabilities.pushNotifications === true) this.#push.onEvent(scope, task, event);
    });
  }

  /** The public card: capability flags and required extensions are read from it on every call. */
  get card(): AgentCard {
    return this.#card;
  }

  set card(card: AgentCard) {
    this.#card = card;
    this.#requiredExtensions = (card.capabilities.extensions ?? []).filter((e) => e.required && e.uri).map((e) => e.uri!);
    this.#acceptsInput = inputModeMatcher(card);
  }

  /** Checks common to every operation; returns the validated request. */
  #admit<T>(op: Operation, params: unknown, cc: CallContext): T {
    const version = requestedVersion(cc.version);
    if (version !== PROTOCOL_VERSION) {
      throw new A2AError(
        'VersionNotSupported',
        `A2A-Version ${cc.version ? `"${cc.version}"` : 'missing (which means 0.3)'} is not supported; this interface speaks ${PROTOCOL_VERSION}`,
      );
    }
    if (op.capability && this.card.capabilities[op.capability] !== true) {
      const kind = CAPABILITY_ERROR[op.capability];
      throw new A2AError(kind, kind === 'PushNotificationNotSupported' ? undefined : `${op.name} is not supported: the agent card does not declare capabilities.${op.capability}`);
    }
    const missing = this.#requiredExtensions.filter((uri) => !cc.requestedExtensions.includes(uri));
    if (missing.length > 0) {
      throw new A2AError('ExtensionSupportRequired', `This agent requires the extension(s) ${missing.join(', ')}; declare them in A2A-Extensions`);
    }
    // The usual requests are checked by hand without a copy; anything else (and every error) goes to zod.
    let valid = FAST_CHECKS[op.name]?.(params);
    if (valid === undefined) {
      // Zod 4 leaves `input` off its issues unless asked; violationsOf needs it to tell a missing field from a wrong type.
      const parsed = SCHEMAS[op.name].safeParse(withoutNulls(params), { reportInput: true });
      if (!parsed.success) throw A2AError.invalidParams(violationsOf(parsed.error));
      valid = parsed.data as object;
    }
    if (this.#acceptsInput && (op.name === 'SendMessage' || op.name === 'SendStreamingMessage')) {
      const refused = unsupportedMediaType((valid as SendMessageRequest).message, this.#acceptsInput);
      if (refused) {
        throw new A2AError('ContentTypeNotSupported', `This agent does not accept ${refused} parts; its card lists the input modes it does`);
      }
    }
    return valid as T;
  }

  /** Run a unary operation; returns the response object in ProtoJSON form. */
  async call(op: Operation, params: unknown, cc: CallContext): Promise<unknown> {
    const req = this.#admit<Record<string, any>>(op, params, cc);
    const scope: Scope = { tenant: req.tenant ?? '', owner: cc.caller?.id ?? '' };
    switch (op.name) {
      case 'SendMessage':
        // Awaited, not returned: an async function that returns a promise takes two more turns of the
        // microtask queue (and their allocations) to adopt it than one that awaits it.
        return await this.#sendMessage(req as SendMessageRequest, scope, cc);
      case 'GetTask':
        return viewTask(await this.#task(scope, req.id), { historyLength: req.historyLength });
      case 'ListTasks':
        return this.#listTasks(req, scope);
      case 'CancelTask':
        return this.tasks.cancel(scope, req.id);
      case 'CreateTaskPushNotificationConfig':
        return this.#createPushConfig(req as TaskPushNotificationConfig & { taskId: string }, scope);
      case 'GetTaskPushNotificationConfig': {
        const cfg = await this.pushConfigs.getPushConfig(scope, req.taskId, req.id);
        if (!cfg) throw new A2AError('TaskNotFound', `No push notification config ${req.id} for task ${req.taskId}`);
        return cfg;
      }
      case 'ListTaskPushNotificationConfigs':
        await this.#task(scope, req.taskId);
        return { configs: await this.pushConfigs.listPushConfigs(scope, req.taskId), nextPageToken: '' };
      case 'DeleteTaskPushNotificationConfig':
        await this.#task(scope, req.taskId);
        await this.pushConfigs.deletePushConfig(scope, req.taskId, req.id);
        this.#push.remove(scope, req.taskId, req.id);
        return {};
      case 'GetExtendedAgentCard':
        return this.#extended(cc);
      default:
        throw new A2AError('UnsupportedOperation', `${op.name} answers with a stream`);
    }
  }

  /** Start a streaming operation. Errors before the first event are thrown (the binding answers normally). */
  async stream(op: Operation, params: unknown, cc: CallContext, lastEventId?: string): Promise<EventStream> {
    const req = this.#admit<Record<string, any>>(op, params, cc);
    const scope: Scope = { tenant: req.tenant ?? '', owner: cc.caller?.id ?? '' };
    if (op.name === 'SendStreamingMessage') return openRunStream.forMessage(this.tasks, req as SendMessageRequest, scope, cc);
    if (op.name === 'SubscribeToTask') {
      const task = await this.#task(scope, req.id);
      return openRunStream.forSubscription(this.tasks, task, scope, lastEventId);
    }
    throw new A2AError('UnsupportedOperation', `${op.name} does not stream`);
  }

  async #task(scope: Scope, id: string): Promise<Task> {
    const task = this.tasks.liveRun(scope, id)?.task ?? (await this.store.getTask(scope, id));
    if (!task) throw A2AError.taskNotFound(id);
    return task;
  }

  async #sendMessage(req: SendMessageRequest, scope: Scope, cc: CallContext): Promise<SendMessageResponse> {
    const cfg = req.configuration;
    const inline = cfg?.taskPushNotificationConfig ? await this.#inlinePushConfig(cfg.taskPushNotificationConfig, scope) : undefined;
    const started = this.tasks.send(req, scope, cc, undefined, inline);
    const exec = started instanceof Promise ? await started : started;
    // A synchronous agent has finished by now: no turn of the event loop is spent waiting for it.
    const immediate = cfg?.returnImmediately === true;
    if (!(immediate ? exec.answered : exec.finished)) await (immediate ? exec.first : exec.done);
    const { run } = exec;
    if (run.reply) return { message: run.reply };
    if (!run.task) throw run.error ?? new A2AError('Internal', 'The agent produced no answer');
    await this.tasks.flush(run);
    if (inline) await this.#savePushConfig(scope, run);
    return { task: viewTask(run.task, { historyLength: cfg?.historyLength }) };
  }

  async #listTasks(req: Record<string, any>, scope: Scope): Promise<ListTasksResponse> {
    const pageSize: number = req.pageSize ?? 50;
    const page = await this.store.listTasks(scope, {
      pageSize,
      ...(req.contextId !== undefined ? { contextId: req.contextId } : {}),
      ...(req.status !== undefined ? { status: req.status } : {}),
      ...(req.pageToken ? { pageToken: req.pageToken } : {}),
      ...(req.statusTimestampAfter ? { statusTimestampAfter: Date.parse(req.statusTimestampAfter) } : {}),
    });
    const opts = { historyLength: req.historyLength, includeArtifacts: req.includeArtifacts === true };
    return {
      tasks: page.tasks.map((t) => viewTask(t, opts)),
      nextPageToken: page.nextPageToken,
      pageSize,
      totalSize: page.totalSize,
    };
  }

  async #createPushConfig(req: TaskPushNotificationConfig & { taskId: string }, scope: Scope) {
    await this.#task(scope, req.taskId);
    await assertWebhookUrl(req.url, this.#pushPolicy, 'url');
    const config = { ...req, id: req.id || randomUUID(), ...(scope.tenant ? { tenant: scope.tenant } : {}) };
    await this.pushConfigs.savePushConfig(scope, config);
    this.#push.add(scope, req.taskId, config);
    return config;
  }

  /**
   * A config given with the message (§3.2.2): checked before the task exists, registered the moment it is
   * created so the very first event is delivered too, and stored once the task is.
   */
  async #inlinePushConfig(given: TaskPushNotificationConfig, scope: Scope): Promise<(run: TaskRun) => void> {
    if (this.card.capabilities.pushNotifications !== true) throw new A2AError('PushNotificationNotSupported');
    await assertWebhookUrl(given.url, this.#pushPolicy, 'configuration.taskPushNotificationConfig.url');
    return (run) => {
      const config = { ...given, id: given.id || randomUUID(), taskId: run.taskId, ...(scope.tenant ? { tenant: scope.tenant } : {}) };
      run.pushConfig = config;
      this.#push.add(scope, run.taskId, config);
    };
  }

  async #savePushConfig(scope: Scope, run: TaskRun): Promise<void> {
    const config = run.pushConfig;
    if (config) await this.pushConfigs.savePushConfig(scope, config as StoredPushConfig);
  }

  async #extended(cc: CallContext): Promise<AgentCard> {
    // §13.3: who is asking comes first, so an anonymous caller learns nothing about configuration.
    if (!cc.caller) throw new A2AError('Unauthenticated', 'The extended agent card is only served to authenticated callers');
    if (!this.#extendedCard) throw new A2AError('ExtendedAgentCardNotConfigured');
    const card = typeof this.#extendedCard === 'function' ? await this.#extendedCard(cc.caller) : this.#extendedCard;
    if (!card) throw new A2AError('ExtendedAgentCardNotConfigured', 'No extended agent card is configured for this caller');
    return card;
  }
}

/** ProtoJSON reads a `null` member as the field's default, i.e. unset (SDKs send `"pageSize": null`). */
function withoutNulls(params: unknown): unknown {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return params ?? {};
  if (!Object.values(params).includes(null)) return params; // the usual case: no copy on the hot path
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(params)) if (v !== null) out[k] = v;
  return out;
}
