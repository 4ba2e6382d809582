/** Building the messages a client sends, so callers need not remember ids and roles. */
import type { JsonObject, Message, Part } from '../protocol/index.js';

/** Where a message belongs and what rides along with it. */
export interface UserMessageInit {
  /** Continue this task (multi-turn, §3.4). */
  taskId?: string;
  /** Stay in this conversation. */
  contextId?: string;
  /** Extra data for the agent (or an extension), outside the message's parts. */
  metadata?: JsonObject;
  /** URIs of extensions this message uses. */
  extensions?: string[];
  /** Earlier tasks this message refers to, as context for the agent. */
  referenceTaskIds?: string[];
  /** Defaults to a fresh UUID; reuse one only to resend the very same message. */
  messageId?: string;
}

/**
 * A `ROLE_USER` message from text or parts, with a new `messageId`.
 *
 * @example
 * ```ts
 * import { A2AClient, userMessage } from 'a2a-kit/client';
 *
 * const client = await A2AClient.connect('http://localhost:41241');
 * const photo = { raw: 'iVBORw0KGgo=', mediaType: 'image/png', filename: 'chart.png' };
 * await client.sendMessage({ message: userMessage([{ text: 'what does this chart show?' }, photo], { contextId: 'ctx-42' }) });
 * ```
 */
export function userMessage(content: string | Part[], init: UserMessageInit = {}): Message {
  const { messageId, ...rest } = init;
  return {
    messageId: messageId ?? crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: typeof content === 'string' ? [{ text: content }] : content,
    ...rest,
  };
}
