/**
 * All eleven operations, transport-agnostic. Order of checks for every call: protocol version,
 * capability (§3.3.4: before any lookup, so a push call to an agent without push fails the same way
 * for any task id), required extensions, input validation, the operation hooks, then the operation itself.
 */
import {
  A2AError,
  CAPABILITY_ERROR,
  PROTOCOL_VERSION,
  requestedVersion,
  versionNotSupported,
  type AgentCard,
  type ListTasksRequest,
  type ListTasksResponse,
  type Operation,
  type OperationName,
  type OperationRequests,
  type OperationResults,
  type SendMessageRequest,
  type SendMessageResponse,
  type Task,
  type UnaryOperationName,
} from '../../protocol/index.js';
import { isTranslatedV03, type CallContext } from './call-context.js';
import { HookRunner } from './hooks.js';
import { stderrLogger, type Logger } from '../logger.js';
import { wholeNumber } from '../util/check-options.js';
import { idleBounded } from '../tasks/idle-stream.js';
import { InMemoryTaskStore } from '../store/memory.js';
import {
  isPushConfigStore,
  type PushConfigStore,
  type Scope,
  type TaskStore,
} from '../store/task-store.js';
import { TaskManager } from '../tasks/manager.js';
import { sharedSnapshot, viewTask } from '../tasks/view.js';
import { inputModeMatcher, unsupportedMediaType } from './media-types.js';
import { validateRequest } from './validate.js';
import { openRunStream, type EventStream, type InlinePush } from '../tasks/event-stream.js';
import { PushSender } from '../push/sender.js';
import { PushDispatcher } from '../push/dispatcher.js';
import { PushConfigOperations } from './push-config-ops.js';
import type { TaskRun } from '../tasks/run.js';
import { observedExecutor } from './telemetry.js';
import { CallerQuota, admitMessage } from '../quota/caller-quota.js';
import type { DispatcherOptions, ExtendedCardSource } from './options.js';

export type { DispatcherOptions, ExtendedCardSource, PushOptions } from './options.js';

/** The answer of a unary operation `N`; `never` for the two that stream. */
export type UnaryResult<N extends OperationName> = N extends UnaryOperationName
  ? OperationResults[N]
  : never;

/** Runs operation `N` on an admitted request. */
type Handler<N extends OperationName> = (
  d: OperationDispatcher,
  req: OperationRequests[N],
  scope: Scope,
  cc: CallContext,
) => Promise<UnaryResult<N>>;

/** Opens the stream of a streaming operation. */
type StreamOpener<N extends OperationName> = (
  d: OperationDispatcher,
  req: OperationRequests[N],
  scope: Scope,
  cc: CallContext,
  lastEventId: string | undefined,
) => EventStream | Promise<EventStream>;

/** Where the data flow enters: every operation of every binding passes through {@link OperationDispatcher.call} or {@link OperationDispatcher.stream}. */
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
  readonly #pushOps: PushConfigOperations;
  #requiredExtensions: string[] = [];
  #acceptsInput: ((mediaType: string) => boolean) | undefined;
  readonly #hooks: HookRunner | undefined;
  readonly #quota: CallerQuota | undefined;
  readonly #streamIdleMs: number;
  /**
   * Set while the server drains: calls that would start work or open a stream (SendMessage,
   * SendStreamingMessage, SubscribeToTask) are refused as `Unavailable` with this text; reads and
   * cancels are still answered.
   */
  refusingNewWork: string | undefined;

  constructor(options: DispatcherOptions) {
    this.card = options.card;
    const telemetry = options.telemetry;
    const store = options.store ?? new InMemoryTaskStore();
    this.store = telemetry?.store ? telemetry.store(store) : store;
    this.pushConfigs =
      options.pushConfigStore ??
      (isPushConfigStore(this.store) ? this.store : new InMemoryTaskStore());
    // Loud by default: an agent's bugs must show without setup (silentLogger is one option away).
    this.logger = options.logger ?? stderrLogger();
    this.#extendedCard = options.extendedCard;
    this.tasks = new TaskManager({
      store: this.store,
      executor: observedExecutor(telemetry, options.executor),
      logger: this.logger,
      unfinishedWarningMs:
        wholeNumber('unfinishedTaskWarningMs', options.unfinishedTaskWarningMs, 0) ?? 30_000,
      ...(options.idleTimeoutMs ? { idleTimeoutMs: options.idleTimeoutMs } : {}),
      ...(options.recovery ? { recovery: options.recovery } : {}),
      ...(options.onStoreError ? { onStoreError: options.onStoreError } : {}),
      ...(options.limits ? { limits: options.limits } : {}),
      ...(options.events ? { bus: options.events } : {}),
    });
    const policy = options.push?.policy ?? {};
    const sender = options.push?.sender;
    this.pushSender =
      sender instanceof PushSender
        ? sender
        : new PushSender({
            logger: this.logger,
            ...(telemetry?.push ? { tracer: telemetry.push } : {}),
            ...sender,
            policy,
          });
    this.#push = new PushDispatcher(
      this.pushSender,
      this.pushConfigs,
      this.logger,
      options.pushWireFormat,
      options.events?.pushQueue?.(this.pushSender),
    );
    this.#pushOps = new PushConfigOperations(
      this.pushConfigs,
      this.#push,
      policy,
      (scope, id) => this.#task(scope, id),
      this.tasks.limits.pushConfigsPerTask,
    );
    this.#streamIdleMs = wholeNumber('streamIdleTimeoutMs', options.streamIdleTimeoutMs, 0) ?? 0;
    this.#hooks = HookRunner.of(
      telemetry?.hooks ? [telemetry.hooks, ...[options.hooks ?? []].flat()] : options.hooks,
      this.logger,
    );
    if (telemetry?.taskEvent) this.tasks.observe(telemetry.taskEvent);
    const quota = options.quota === false ? undefined : new CallerQuota(options.quota);
    if (quota) this.tasks.observe((scope, task, event) => quota.observe(scope, task, event));
    this.#quota = quota;
    this.tasks.observe((scope, task, event) => {
      if (this.#card.capabilities.pushNotifications === true)
        this.#push.onEvent(scope, task, event);
    });
  }

  /** The public card: capability flags and required extensions are read from it on every call. */
  get card(): AgentCard {
    return this.#card;
  }

  set card(card: AgentCard) {
    this.#card = card;
    this.#requiredExtensions = (card.capabilities.extensions ?? [])
      .filter((e) => e.required && e.uri)
      .map((e) => e.uri!);
    this.#acceptsInput = inputModeMatcher(card);
  }

  /**
   * Checks common to every operation; returns the validated request (a promise of it only while the
   * request schemas load, for a request the fast checks leave to them).
   */
  #admit<N extends OperationName>(
    op: Operation<N>,
    params: unknown,
    cc: CallContext,
  ): OperationRequests[N] | Promise<OperationRequests[N]> {
    if (this.refusingNewWork !== undefined && (op.streaming || op.name === 'SendMessage'))
      throw new A2AError('Unavailable', this.refusingNewWork);
    const version = requestedVersion(cc.version);
    // A 0.3 call reaches here only translated by the compat layer, which marks its context.
    if (version !== PROTOCOL_VERSION && !(version === '0.3' && isTranslatedV03(cc)))
      throw versionNotSupported(cc.version);
    if (op.capability && this.card.capabilities[op.capability] !== true) {
      const kind = CAPABILITY_ERROR[op.capability];
      throw new A2AError(
        kind,
        kind === 'PushNotificationNotSupported'
          ? undefined
          : `${op.name} is not supported: the agent card does not declare capabilities.${op.capability}`,
      );
    }
    if (this.#requiredExtensions.length > 0) {
      const missing = this.#requiredExtensions.filter(
        (uri) => !cc.requestedExtensions.includes(uri),
      );
      if (missing.length > 0) {
        throw new A2AError(
          'ExtensionSupportRequired',
          `This agent requires the extension(s) ${missing.join(', ')}; declare them in A2A-Extensions`,
        );
      }
    }
    // The usual requests are checked by hand without a copy; anything else (and every error) goes to zod.
    const valid = validateRequest(op.name, params);
    return valid instanceof Promise
      ? valid.then((v) => this.#acceptedContent(op, v))
      : this.#acceptedContent(op, valid);
  }

  /** The request, unless its message carries a part of a media type the card's input modes refuse. */
  #acceptedContent<N extends OperationName>(
    op: Operation<N>,
    valid: OperationRequests[N],
  ): OperationRequests[N] {
    if (this.#acceptsInput && (op.name === 'SendMessage' || op.name === 'SendStreamingMessage')) {
      const refused = unsupportedMediaType(
        (valid as SendMessageRequest).message,
        this.#acceptsInput,
      );
      if (refused) {
        throw new A2AError(
          'ContentTypeNotSupported',
          `This agent does not accept ${refused} parts; its card lists the input modes it does`,
        );
      }
    }
    return valid;
  }

  /**
   * Run a unary operation; resolves to its answer in ProtoJSON form (a streaming operation is refused).
   * Not `async`: the operation's own promise is handed back, without a wrapper to adopt it.
   */
  call<N extends OperationName>(
    op: Operation<N>,
    params: unknown,
    cc: CallContext,
  ): Promise<UnaryResult<N>> {
    try {
      const req = this.#admit(op, params, cc);
      if (req instanceof Promise) return req.then((r) => this.#callAdmitted(op, r, cc));
      return this.#callAdmitted(op, req, cc);
    } catch (err) {
      return Promise.reject(err);
    }
  }

  #callAdmitted<N extends OperationName>(
    op: Operation<N>,
    req: OperationRequests[N],
    cc: CallContext,
  ): Promise<UnaryResult<N>> {
    const scope: Scope = { tenant: req.tenant ?? '', owner: cc.caller?.id ?? '' };
    if (this.#hooks !== undefined) return this.#hookedCall(op.name, req, scope, cc, this.#hooks);
    return OperationDispatcher.#unary[op.name](this, req, scope, cc);
  }

  async #hookedCall<N extends OperationName>(
    name: N,
    req: OperationRequests[N],
    scope: Scope,
    cc: CallContext,
    hooks: HookRunner,
  ): Promise<UnaryResult<N>> {
    const call = hooks.call(name, req, cc, scope.tenant);
    try {
      const pending = hooks.before(call);
      if (pending) await pending;
      const result = await hooks.run(call, () =>
        OperationDispatcher.#unary[name](this, req, scope, cc),
      );
      hooks.after(call, result);
      return result;
    } catch (err) {
      hooks.error(call, err);
      throw err;
    }
  }

  /** Start a streaming operation. Errors before the first event are thrown (the binding answers normally). */
  async stream<N extends OperationName>(
    op: Operation<N>,
    params: unknown,
    cc: CallContext,
    lastEventId?: string,
  ): Promise<EventStream> {
    const admitted = this.#admit(op, params, cc);
    const req = admitted instanceof Promise ? await admitted : admitted;
    const scope: Scope = { tenant: req.tenant ?? '', owner: cc.caller?.id ?? '' };
    const open = OperationDispatcher.#streams[op.name];
    if (!open) throw new A2AError('UnsupportedOperation', `${op.name} does not stream`);
    const hooks = this.#hooks;
    const idleMs = this.#streamIdleMs;
    if (hooks === undefined)
      return idleBounded(await open(this, req, scope, cc, lastEventId), idleMs);
    const call = hooks.call(op.name, req, cc, scope.tenant);
    try {
      const pending = hooks.before(call);
      if (pending) await pending;
      const opened = await hooks.run(call, () => open(this, req, scope, cc, lastEventId));
      return idleBounded(hooks.stream(call, opened), idleMs);
    } catch (err) {
      hooks.error(call, err);
      throw err;
    }
  }

  static readonly #unary: { readonly [N in OperationName]: Handler<N> } = {
    SendMessage: (d, req, scope, cc) => d.#sendMessage(req, scope, cc),
    GetTask: async (d, req, scope) => {
      // A live task is answered as a shared snapshot: many readers of one large task encode it once.
      const live = d.tasks.liveRun(scope, req.id)?.task;
      const task = live ? sharedSnapshot(live) : await d.#task(scope, req.id);
      return viewTask(task, { historyLength: req.historyLength });
    },
    ListTasks: (d, req, scope) => d.#listTasks(req, scope),
    CancelTask: (d, req, scope) => d.tasks.cancel(scope, req.id),
    CreateTaskPushNotificationConfig: (d, req, scope) => d.#pushOps.create(req, scope),
    GetTaskPushNotificationConfig: (d, req, scope) => d.#pushOps.get(req, scope),
    ListTaskPushNotificationConfigs: (d, req, scope) => d.#pushOps.list(req, scope),
    DeleteTaskPushNotificationConfig: (d, req, scope) => d.#pushOps.delete(req, scope),
    GetExtendedAgentCard: (d, _req, _scope, cc) => d.#extended(cc),
    SendStreamingMessage: streamsOnly('SendStreamingMessage'),
    SubscribeToTask: streamsOnly('SubscribeToTask'),
  };

  static readonly #streams: { readonly [N in OperationName]?: StreamOpener<N> } = {
    SendStreamingMessage: async (d, req, scope, cc) => {
      admitMessage(req.message, scope, d.tasks.limits.taskBytes, d.#quota);
      // A push config given with a streamed message works exactly as with SendMessage (§3.2.2).
      const inline = await d.#inlinePush(req, scope);
      return openRunStream.forMessage(d.tasks, req, scope, cc, inline);
    },
    SubscribeToTask: async (d, req, scope, _cc, lastEventId) =>
      openRunStream.forSubscription(d.tasks, await d.#task(scope, req.id), scope, lastEventId),
  };

  async #task(scope: Scope, id: string): Promise<Task> {
    const task = this.tasks.liveRun(scope, id)?.task ?? (await this.store.getTask(scope, id));
    if (!task) throw A2AError.taskNotFound(id);
    return task;
  }

  async #sendMessage(
    req: SendMessageRequest,
    scope: Scope,
    cc: CallContext,
  ): Promise<SendMessageResponse> {
    const cfg = req.configuration;
    admitMessage(req.message, scope, this.tasks.limits.taskBytes, this.#quota);
    const inline = cfg?.taskPushNotificationConfig ? await this.#inlinePush(req, scope) : undefined;
    const started = this.tasks.send(req, scope, cc, undefined, inline?.onCreated);
    const exec = started instanceof Promise ? await started : started;
    // A synchronous agent has finished by now: no turn of the event loop is spent waiting for it.
    const immediate = cfg?.returnImmediately === true;
    if (!(immediate ? exec.answered : exec.finished)) await (immediate ? exec.first : exec.done);
    const { run } = exec;
    if (run.reply) return { message: run.reply };
    if (!run.task) throw run.error ?? new A2AError('Internal', 'The agent produced no answer');
    if (exec.failure) throw exec.failure;
    await this.tasks.flush(run);
    if (inline) await inline.stored();
    return { task: viewTask(run.task, { historyLength: cfg?.historyLength }) };
  }

  /** The push config given with a message, checked and ready to register when its task is created. */
  async #inlinePush(req: SendMessageRequest, scope: Scope): Promise<InlinePush | undefined> {
    const given = req.configuration?.taskPushNotificationConfig;
    if (!given) return undefined;
    if (this.card.capabilities.pushNotifications !== true)
      throw new A2AError('PushNotificationNotSupported');
    return this.#pushOps.inline(given, scope, this.#flush, req.message.taskId || undefined);
  }

  readonly #flush = (run: TaskRun): Promise<void> => this.tasks.flush(run);

  async #listTasks(req: ListTasksRequest, scope: Scope): Promise<ListTasksResponse> {
    const pageSize = req.pageSize ?? 50;
    const page = await this.store.listTasks(scope, {
      pageSize,
      ...(req.contextId !== undefined ? { contextId: req.contextId } : {}),
      ...(req.status !== undefined ? { status: req.status } : {}),
      ...(req.pageToken ? { pageToken: req.pageToken } : {}),
      ...(req.statusTimestampAfter
        ? { statusTimestampAfter: Date.parse(req.statusTimestampAfter) }
        : {}),
    });
    const opts = {
      historyLength: req.historyLength,
      includeArtifacts: req.includeArtifacts === true,
    };
    return {
      tasks: page.tasks.map((t) => viewTask(t, opts)),
      nextPageToken: page.nextPageToken,
      pageSize,
      totalSize: page.totalSize,
    };
  }

  async #extended(cc: CallContext): Promise<AgentCard> {
    // §13.3: who is asking comes first, so an anonymous caller learns nothing about configuration.
    if (!cc.caller)
      throw new A2AError(
        'Unauthenticated',
        'The extended agent card is only served to authenticated callers',
      );
    if (!this.#extendedCard) throw new A2AError('ExtendedAgentCardNotConfigured');
    const card =
      typeof this.#extendedCard === 'function'
        ? await this.#extendedCard(cc.caller)
        : this.#extendedCard;
    if (!card)
      throw new A2AError(
        'ExtendedAgentCardNotConfigured',
        'No extended agent card is configured for this caller',
      );
    return card;
  }
}

/** The handler of a streaming operation called as a unary one. */
function streamsOnly(name: OperationName): () => Promise<never> {
  return () =>
    Promise.reject(new A2AError('UnsupportedOperation', `${name} answers with a stream`));
}
