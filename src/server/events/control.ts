/**
 * Requests between instances over Redis pub/sub: each instance listens on its own channel. Today the
 * one request is "cancel this task you are running"; the answer is the task as the owner stored it
 * after canceling (or the error it got), so the caller's CancelTask reports the real outcome.
 * Pub/sub loses messages sent while nobody listens; that is fine here, as a request only goes to the
 * holder of a live lease, and the caller's wait is bounded.
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { A2AError, type A2AErrorKind, type Task } from '../../protocol/index.js';
import type { Logger } from '../logger.js';
import type { Scope } from '../store/task-store.js';
import type { RedisKeys } from './redis-keys.js';

type Request = {
  t: 'cancel';
  id: string;
  from: string;
  tenant: string;
  owner: string;
  taskId: string;
};
type Reply = {
  t: 'reply';
  id: string;
  task?: Task;
  error?: { kind: A2AErrorKind; message: string };
};

/** Sends and answers control requests for one instance. */
export class ControlChannel {
  readonly #waiting = new Map<string, (r: Reply) => void>();

  constructor(
    private readonly publisher: Redis,
    private readonly subscriber: Redis,
    private readonly keys: RedisKeys,
    private readonly me: string,
    private readonly logger: Logger,
  ) {}

  /** Listen on this instance's channel; `cancel` runs a request on a task running here. */
  async start(cancel: (scope: Scope, taskId: string) => Promise<Task>): Promise<void> {
    this.subscriber.on('message', (_channel: string, text: string) => {
      let msg: Request | Reply;
      try {
        msg = JSON.parse(text) as Request | Reply;
      } catch {
        return;
      }
      if (msg.t === 'reply') {
        this.#waiting.get(msg.id)?.(msg);
        return;
      }
      if (msg.t !== 'cancel') return;
      const answer = (reply: Reply): void => {
        this.publisher
          .publish(this.keys.control(msg.from), JSON.stringify(reply))
          .catch((err: unknown) => {
            this.logger.warn(
              { err, taskId: msg.taskId },
              'could not answer a cancel request from another instance',
            );
          });
      };
      cancel({ tenant: msg.tenant, owner: msg.owner }, msg.taskId).then(
        (task) => answer({ t: 'reply', id: msg.id, task }),
        (err: unknown) => {
          const e =
            err instanceof A2AError
              ? err
              : new A2AError('Internal', 'The cancel failed on the instance running the task');
          answer({ t: 'reply', id: msg.id, error: { kind: e.kind, message: e.message } });
        },
      );
    });
    await this.subscriber.subscribe(this.keys.control(this.me));
  }

  /**
   * Ask `instance` to cancel a task and wait up to `timeoutMs` for its answer. Resolves undefined when
   * nobody listens on that instance's channel (it is gone).
   */
  async cancel(
    instance: string,
    scope: Scope,
    taskId: string,
    timeoutMs: number,
  ): Promise<Task | undefined> {
    const id = randomUUID();
    const reply = new Promise<Reply>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#waiting.delete(id);
        reject(
          new A2AError(
            'Unavailable',
            `The instance running task ${taskId} did not answer the cancel within ${timeoutMs} ms; try again`,
          ),
        );
      }, timeoutMs);
      timer.unref();
      this.#waiting.set(id, (r) => {
        clearTimeout(timer);
        this.#waiting.delete(id);
        resolve(r);
      });
    });
    const req: Request = {
      t: 'cancel',
      id,
      from: this.me,
      tenant: scope.tenant,
      owner: scope.owner,
      taskId,
    };
    const receivers = await this.publisher.publish(
      this.keys.control(instance),
      JSON.stringify(req),
    );
    if (receivers === 0) {
      this.#waiting.get(id)?.({ t: 'reply', id });
      await reply;
      return undefined;
    }
    const r = await reply;
    if (r.error) throw new A2AError(r.error.kind, r.error.message);
    return r.task;
  }
}
