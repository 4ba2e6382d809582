/** Building the messages a client sends, so callers need not remember ids and roles. */
import { randomUUID } from 'node:crypto';
import type { JsonObject, Message, Part } from '../protocol/index.js';

/** Where a message belongs and what rides along with it. */
export interface UserMessageInit {
  /** Continue this task (multi-turn, §3.4). */
  taskId?: string;
  /** Stay in this conversation. */
  contextId?: string;
  metadata?: JsonObject;
  extensions?: string[];
  referenceTaskIds?: string[];
  /** Defaults to a fresh UUID; reuse one only to resend the very same message. */
  messageId?: string;
}

/**
 * A `ROLE_USER` message from text or parts, with a new `messageId`.
 *
 * @example
 * await client.sendMessage({ message: userMessage('run the tests', { contextId }) });
 */
export function userMessage(content: string | Part[], init: UserMessageInit = {}): Message {
  const { messageId, ...rest } = init;
  return {
    messageId: messageId ?? randomUUID(),
    role: 'ROLE_USER',
    parts: typeof content === 'string' ? [{ text: content }] : content,
    ...rest,
  };
}
