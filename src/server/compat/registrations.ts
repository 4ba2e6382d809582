/**
 * Which webhooks are being registered by 0.3 calls right now. A 0.3 handler announces the config it is
 * about to register (by id, and task when known) before it calls the dispatcher; the push layer claims
 * the config when the dispatcher stores or registers it, and marks it as a 0.3 webhook. Explicit, so
 * nothing global (no async context tracking) is switched on for the 1.0 traffic of the same server.
 */
import type { TaskPushNotificationConfig } from '../../protocol/index.js';

/** Marks a config (in memory) as registered over 0.3; a symbol, so no answer ever serialises it. */
export const V03_WEBHOOK: unique symbol = Symbol.for('a2a-kit.v03Webhook');

type Tagged = TaskPushNotificationConfig & { [V03_WEBHOOK]?: true };

/** Whether a config is marked as registered over 0.3. */
export function isV03Webhook(config: TaskPushNotificationConfig): boolean {
  return (config as Tagged)[V03_WEBHOOK] === true;
}

/** Marks a config as registered over 0.3. */
export function markV03Webhook(config: TaskPushNotificationConfig): void {
  if (!isV03Webhook(config))
    Object.defineProperty(config, V03_WEBHOOK, {
      value: true,
      enumerable: false,
      configurable: true,
    });
}

interface Expected {
  /** Registered with a message without an id: 0.3 names such a config after its task, once the task exists. */
  nameAfterTask: boolean;
}

const keyOf = (id: string, taskId: string | undefined): string => `${taskId ?? ''}\u0000${id}`;

/** The 0.3 registrations in flight on one server. */
export class V03Registrations {
  readonly #expected = new Map<string, Expected>();

  /** Announce a config about to be registered by a 0.3 call; returns the function that withdraws it. */
  expect(id: string, taskId: string | undefined, nameAfterTask = false): () => void {
    const key = keyOf(id, taskId);
    this.#expected.set(key, { nameAfterTask });
    return () => void this.#expected.delete(key);
  }

  /**
   * Marks `config` when a 0.3 call announced it (or it is marked already): true for a 0.3 webhook.
   * A config given with a 0.3 message without an id gets its task's id, as 0.3 agents name it.
   */
  claim(config: TaskPushNotificationConfig): boolean {
    if (isV03Webhook(config)) return true;
    if (this.#expected.size === 0 || config.id === undefined) return false;
    const key = [keyOf(config.id, config.taskId), keyOf(config.id, undefined)].find((k) =>
      this.#expected.has(k),
    );
    if (key === undefined) return false;
    const expected = this.#expected.get(key)!;
    this.#expected.delete(key);
    markV03Webhook(config);
    if (expected.nameAfterTask && config.taskId) config.id = config.taskId;
    return true;
  }
}
