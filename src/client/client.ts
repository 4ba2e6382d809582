/**
 * The A2A client: one method per operation (spec §3.1). Before any request it checks the card's
 * capabilities (§3.3.4) and throws the error the agent would have sent, without a round trip;
 * it copies the chosen interface's tenant into every request (§8.3.2), applies credentials,
 * retries only what is safe to repeat, and resumes dropped streams.
 */
import {
  type AgentCapabilities,
  type AgentCard,
  type CancelTaskRequest,
  type DeleteTaskPushNotificationConfigRequest,
  type GetTaskPushNotificationConfigRequest,
  type GetTaskRequest,
  type ListTaskPushNotificationConfigsRequest,
  type ListTaskPushNotificationConfigsResponse,
  type ListTasksRequest,
  type ListTasksResponse,
  type OperationName,
  type SendMessageRequest,
  type SendMessageResponse,
  type StreamResponse,
  type SubscribeToTaskRequest,
  type Task,
  type TaskPushNotificationConfig,
} from '../protocol/index.js';
import { assertCapable } from './capabilities.js';
import { discoverAgentCard, type CardSource } from './discovery.js';
import { neverReachedAgent } from './errors.js';
import { assertAgentCardVerified, type CardTrust } from './card-verify.js';
import type { StreamEvent } from './transport.js';
import { DEFAULT_RETRY_POLICY, SAFE_OPERATIONS, withRetry, type RetryPolicy } from './retry.js';
import { DEFAULT_RESUME_POLICY, resumableStream, type ResumePolicy } from './resume.js';
import {
  DEFAULT_BINDINGS,
  compatibleInterfaces,
  selectInterface,
  type SelectedInterface,
} from './select-interface.js';
import { Invoker, transportsSpeak } from './invoker.js';
import type { A2AClientOptions, CallOptions, ConnectOptions, StreamOptions } from './options.js';

/**
 * A client for one agent, bound to the interface chosen from its card: one method per A2A
 * operation. Errors the agent answers with are thrown as `A2AError` (branch on `kind`); failures
 * on this side of the wire (unreachable, timeout, bad answer) as `A2AClientError` (branch on `code`).
 *
 * @example
 * ```ts
 * import { A2AClient, isA2AError, userMessage } from 'a2a-kit/client';
 *
 * const client = await A2AClient.connect('http://localhost:41241', { credentials: { bearer: 'my-token' } });
 * try {
 *   const res = await client.sendMessage({ message: userMessage('summarise the report') });
 *   if ('task' in res) process.stdout.write(`${res.task.id} ${res.task.status.state}\n`);
 *   else process.stdout.write(`${JSON.stringify(res.message.parts)}\n`);
 * } catch (err) {
 *   if (isA2AError(err) && err.kind === 'Unauthenticated') console.error('the token was refused');
 *   else throw err;
 * }
 * ```
 */
export class A2AClient {
  private readonly candidates: SelectedInterface[];
  private chosen = 0;
  private readonly fallback: boolean;
  private currentCard: AgentCard;
  private readonly invoker: Invoker;
  private readonly retry: RetryPolicy | undefined;
  private readonly retrySend: boolean;
  private readonly trust: CardTrust | undefined;
  private readonly resume: ResumePolicy | undefined;
  private readonly extensions: readonly string[];

  /**
   * Builds a client from a card already in hand (see {@link A2AClient.connect} to fetch it). Selects
   * the interface (throws an `A2AClientError` `NO_COMPATIBLE_INTERFACE` when none fits) and creates
   * its transport; sends nothing.
   */
  constructor(card: AgentCard, options: A2AClientOptions = {}) {
    this.currentCard = card;
    const custom = Object.keys(options.transports ?? {});
    const selection = {
      bindings: options.bindings ?? [...DEFAULT_BINDINGS, ...custom],
      ...(options.versions ? { versions: options.versions } : {}),
      canSpeak: transportsSpeak(options.transports),
    };
    this.candidates = compatibleInterfaces(card, selection);
    if (this.candidates.length === 0) selectInterface(card, selection); // throws the explanatory error
    this.fallback = options.fallback !== false;
    this.invoker = new Invoker(this.interface, options, () => this.currentCard);
    this.retry =
      options.retry === false ? undefined : { ...DEFAULT_RETRY_POLICY, ...options.retry };
    this.retrySend = options.retrySend === true;
    this.trust = options.trust;
    this.extensions = options.extensions ?? [];
    this.resume =
      options.resume === false ? undefined : { ...DEFAULT_RESUME_POLICY, ...options.resume };
    options.logger?.debug?.(
      { agent: card.name, interface: this.interface.url },
      this.interface.reason,
    );
  }

  /** Same as `new A2AClient(card, options)`. */
  static fromCard(card: AgentCard, options: A2AClientOptions = {}): A2AClient {
    return new A2AClient(card, options);
  }

  /**
   * Fetches the agent's card (base URL → `/.well-known/agent-card.json`, or `{ cardUrl }`, or
   * `{ card }`), validates it (and checks its signature when `trust` is given), and builds a client
   * for the first interface in the card's order that this client speaks. The card is cached per its
   * HTTP caching headers, process-wide unless `cache` says otherwise.
   *
   * Throws an `A2AClientError`: `CARD_FETCH_FAILED`, `CARD_INVALID`, `CARD_SIGNATURE_INVALID`,
   * `NO_COMPATIBLE_INTERFACE`, `NETWORK` or `TIMEOUT`.
   *
   * @example
   * ```ts
   * import { A2AClient } from 'a2a-kit/client';
   *
   * // Only the HTTP+JSON binding, a 30 s timeout per call, a bearer token for the card's scheme.
   * const client = await A2AClient.connect('https://agents.example.com/reporter', {
   *   bindings: ['HTTP+JSON'],
   *   timeoutMs: 30_000,
   *   credentials: { bearer: process.env.AGENT_TOKEN },
   * });
   * process.stdout.write(`${client.card.name}: ${client.interface.reason}\n`);
   * ```
   */
  static async connect(source: CardSource, options: ConnectOptions = {}): Promise<A2AClient> {
    const { card } = await discoverAgentCard(source, {
      ...(options.fetch ? { fetch: options.fetch } : {}),
      ...(options.cache !== undefined ? { cache: options.cache } : {}),
      ...(options.verifyCard ? { verify: options.verifyCard } : {}),
      ...(options.trust ? { trust: options.trust } : {}),
      ...(options.cardTimeoutMs !== undefined ? { timeoutMs: options.cardTimeoutMs } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.retry
        ? { retry: options.retry }
        : options.retry === false
          ? { retry: { retries: 0 } }
          : {}),
    });
    return new A2AClient(card, options);
  }

  /** The interface in use, with the reason it was chosen (it changes only on fallback). */
  get interface(): SelectedInterface {
    return this.candidates[this.chosen] as SelectedInterface;
  }

  /** The agent card in use (replaced by the extended card once fetched). */
  get card(): AgentCard {
    return this.currentCard;
  }

  /** The card's capabilities; an absent flag means "not supported". */
  get capabilities(): AgentCapabilities {
    return this.currentCard.capabilities ?? {};
  }

  /**
   * Sends a message (§3.1.1). The agent answers with a `Message`, or with a `Task` that it by default
   * ran until it finished or needs input (§3.2.2); `configuration.returnImmediately` asks for the
   * task at once. Not retried on network errors unless `retrySend` is set: the agent might do the work twice.
   *
   * @example
   * ```ts
   * import { A2AClient, userMessage } from 'a2a-kit/client';
   *
   * const client = await A2AClient.connect('http://localhost:41241');
   * const first = await client.sendMessage({ message: userMessage('book a table for two') });
   * if ('task' in first && first.task.status.state === 'TASK_STATE_INPUT_REQUIRED') {
   *   // Multi-turn: answer within the same task.
   *   await client.sendMessage({ message: userMessage('at 8 pm', { taskId: first.task.id, contextId: first.task.contextId }) });
   * }
   * ```
   */
  sendMessage(
    request: SendMessageRequest,
    options: CallOptions = {},
  ): Promise<SendMessageResponse> {
    return this.unary('SendMessage', request, options) as Promise<SendMessageResponse>;
  }

  /**
   * Sends a message and streams what follows (§3.1.2): a `Message`, or the `Task` and then its status
   * and artifact updates until it finishes or needs input. Throws `UnsupportedOperation` at once when
   * the card does not declare streaming. A dropped connection is resumed through SubscribeToTask
   * with the last event id seen; events replayed twice are dropped. Stopping the loop early
   * (`break`) closes the connection; the task goes on.
   *
   * @example
   * ```ts
   * import { A2AClient, userMessage } from 'a2a-kit/client';
   *
   * const client = await A2AClient.connect('http://localhost:41241');
   * for await (const event of client.sendStreamingMessage({ message: userMessage('write the release notes') })) {
   *   if ('statusUpdate' in event) process.stdout.write(`state: ${event.statusUpdate.status.state}\n`);
   *   else if ('artifactUpdate' in event) process.stdout.write(`artifact: ${event.artifactUpdate.artifact.name}\n`);
   *   else if ('message' in event) process.stdout.write(`reply: ${JSON.stringify(event.message.parts)}\n`);
   * }
   * ```
   */
  sendStreamingMessage(
    request: SendMessageRequest,
    options: StreamOptions = {},
  ): AsyncGenerator<StreamResponse> {
    return this.streaming('SendStreamingMessage', request, undefined, options);
  }

  /** Gets a task (`historyLength` limits the history returned). */
  getTask(request: GetTaskRequest | string, options: CallOptions = {}): Promise<Task> {
    return this.unary(
      'GetTask',
      typeof request === 'string' ? { id: request } : request,
      options,
    ) as Promise<Task>;
  }

  /** Lists the caller's tasks, newest first, one page at a time. */
  listTasks(request: ListTasksRequest = {}, options: CallOptions = {}): Promise<ListTasksResponse> {
    return this.unary('ListTasks', request, options) as Promise<ListTasksResponse>;
  }

  /** Asks the agent to cancel a task; resolves with the task's new state. */
  cancelTask(request: CancelTaskRequest | string, options: CallOptions = {}): Promise<Task> {
    return this.unary(
      'CancelTask',
      typeof request === 'string' ? { id: request } : request,
      options,
    ) as Promise<Task>;
  }

  /**
   * Streams a task's events, starting with its current state. Throws `UnsupportedOperation` at once
   * when the card does not declare streaming. Pass `lastEventId` to resume an earlier stream.
   */
  subscribeToTask(
    request: SubscribeToTaskRequest | string,
    options: StreamOptions = {},
  ): AsyncGenerator<StreamResponse> {
    const params = typeof request === 'string' ? { id: request } : request;
    return this.streaming('SubscribeToTask', params, params.id, options);
  }

  /** Registers a webhook for a task. Throws `PushNotificationNotSupported` at once without the capability. */
  createPushNotificationConfig(
    config: TaskPushNotificationConfig,
    options: CallOptions = {},
  ): Promise<TaskPushNotificationConfig> {
    return this.unary(
      'CreateTaskPushNotificationConfig',
      config,
      options,
    ) as Promise<TaskPushNotificationConfig>;
  }

  /** Reads one webhook registration of a task. */
  getPushNotificationConfig(
    request: GetTaskPushNotificationConfigRequest,
    options: CallOptions = {},
  ): Promise<TaskPushNotificationConfig> {
    return this.unary(
      'GetTaskPushNotificationConfig',
      request,
      options,
    ) as Promise<TaskPushNotificationConfig>;
  }

  /** Lists a task's webhook registrations. */
  listPushNotificationConfigs(
    request: ListTaskPushNotificationConfigsRequest,
    options: CallOptions = {},
  ): Promise<ListTaskPushNotificationConfigsResponse> {
    return this.unary(
      'ListTaskPushNotificationConfigs',
      request,
      options,
    ) as Promise<ListTaskPushNotificationConfigsResponse>;
  }

  /** Removes a webhook registration (idempotent on the agent's side). */
  async deletePushNotificationConfig(
    request: DeleteTaskPushNotificationConfigRequest,
    options: CallOptions = {},
  ): Promise<void> {
    await this.unary('DeleteTaskPushNotificationConfig', request, options);
  }

  /**
   * Fetches the extended card for authenticated callers (§3.1.11) and, as the spec advises, uses
   * it in place of the public card from then on. Throws `UnsupportedOperation` at once when the
   * public card does not declare `extendedAgentCard`.
   */
  async getExtendedAgentCard(options: CallOptions = {}): Promise<AgentCard> {
    const card = (await this.unary('GetExtendedAgentCard', {}, options)) as AgentCard;
    // The authenticated card replaces the public one, so it must pass the same trust check (§8.4.3).
    if (this.trust) await assertAgentCardVerified(card, this.trust);
    this.currentCard = card;
    return card;
  }

  /** §3.3.4: refuses, without a round trip, what the agent would refuse for this card. */
  private assertCapable(operation: OperationName, options: CallOptions): void {
    assertCapable(
      this.currentCard,
      operation,
      new Set([...this.extensions, ...(options.extensions ?? [])]),
    );
  }

  /** §8.3.2: the tenant is exactly the chosen interface's, or absent. */
  private scoped(params: object): Record<string, unknown> {
    const { tenant: _ignored, ...rest } = params as Record<string, unknown>;
    return this.interface.tenant !== undefined ? { ...rest, tenant: this.interface.tenant } : rest;
  }

  private async unary(
    operation: OperationName,
    params: object,
    options: CallOptions,
  ): Promise<unknown> {
    this.assertCapable(operation, options);
    const repeatable =
      SAFE_OPERATIONS.has(operation) || (operation === 'SendMessage' && this.retrySend);
    const policy = repeatable && this.retry ? this.retry : { ...DEFAULT_RETRY_POLICY, retries: 0 };
    return this.invoker.withDeadline(operation, options, async (signal) => {
      for (;;) {
        try {
          return await withRetry(
            () => this.invoker.call(operation, this.scoped(params), options, signal),
            policy,
            {
              signal,
              onRetry: (info) =>
                this.invoker.log('debug', { operation, ...info }, `retrying ${operation}`),
            },
          );
        } catch (err) {
          if (!this.fallBack(operation, err)) throw err;
        }
      }
    });
  }

  /** Moves to the next compatible interface when the current one was never reached (bounded by the list). */
  private fallBack(operation: OperationName, err: unknown): boolean {
    if (!this.fallback || !neverReachedAgent(err) || this.chosen + 1 >= this.candidates.length)
      return false;
    const from = this.interface;
    this.chosen++;
    const to = this.interface;
    const why = `after [${from.index}] ${from.binding} at ${from.url} could not be reached`;
    this.candidates[this.chosen] = { ...to, reason: `${to.reason} (${why})` };
    this.invoker.use(this.interface);
    this.invoker.log(
      'warn',
      { operation, from: from.url, to: to.url },
      `falling back to [${to.index}] ${to.binding} ${why}`,
    );
    return true;
  }

  /** One stream connection, falling back to another interface if the first cannot be reached. */
  private async *connection(
    operation: OperationName,
    params: object,
    options: StreamOptions,
    lastEventId: string | undefined,
  ): AsyncGenerator<StreamEvent> {
    for (;;) {
      let received = false;
      try {
        for await (const ev of this.invoker.stream(
          operation,
          this.scoped(params),
          options,
          lastEventId,
        )) {
          received = true;
          yield ev;
        }
        return;
      } catch (err) {
        if (received || !this.fallBack(operation, err)) throw err;
      }
    }
  }

  private streaming(
    operation: OperationName,
    params: object,
    taskId: string | undefined,
    options: StreamOptions,
  ): AsyncGenerator<StreamResponse> {
    this.assertCapable(operation, options);
    return resumableStream({
      open: (lastEventId, resumeTaskId) =>
        resumeTaskId === undefined
          ? this.connection(operation, params, options, lastEventId)
          : this.connection('SubscribeToTask', { id: resumeTaskId }, options, lastEventId),
      lastEventId: options.lastEventId,
      taskId,
      policy: this.resume,
      signal: options.signal,
      onEventId: options.onEventId,
      onResume: (info) =>
        this.invoker.log(
          'info',
          { operation, ...info },
          `stream dropped; resuming task ${info.taskId}`,
        ),
    });
  }
}
