/**
 * The talk view's operations, run by the inspector server with the session's client: send or stream
 * a message (a new task, or the answer to one that asked for input), re-subscribe to a task from an
 * event id (`Last-Event-ID`), cancel. Stream events reach the page over the session's SSE channel,
 * tagged with the page's stream id and the agent's event id.
 */
import { randomUUID } from 'node:crypto';
import type { JsonObject, Message, Part, StreamResponse, Task } from 'a2a-kit';
import type { AgentEntry } from './agent-entry.js';
import type { Session } from './session.js';
import { describeError } from './wire.js';

import { BadRequest } from './errors.js';

/** Parts one message may carry. */
const MAX_PARTS = 32;

/** The composer's parts, checked: each has exactly one of text, raw, url, data. */
export function checkParts(value: unknown): Part[] {
  if (!Array.isArray(value) || value.length === 0)
    throw new BadRequest('parts: give at least one part (text, a file or JSON data)');
  if (value.length > MAX_PARTS) throw new BadRequest(`parts: at most ${MAX_PARTS}`);
  return value.map((p, i) => {
    if (typeof p !== 'object' || p === null) throw new BadRequest(`parts[${i}] is not an object`);
    const o = p as Record<string, unknown>;
    const kinds = ['text', 'raw', 'url', 'data'].filter((k) => o[k] !== undefined);
    if (kinds.length !== 1)
      throw new BadRequest(
        `parts[${i}] needs exactly one of text, raw, url, data (has ${kinds.join(', ') || 'none'})`,
      );
    if (kinds[0] !== 'data' && typeof o[kinds[0]!] !== 'string')
      throw new BadRequest(`parts[${i}].${kinds[0]} must be a string`);
    if (kinds[0] === 'raw' && !/^[A-Za-z0-9+/=_-]*$/.test(o.raw as string))
      throw new BadRequest(`parts[${i}].raw is not base64`);
    const out: Record<string, unknown> = { [kinds[0]!]: o[kinds[0]!] };
    for (const k of ['filename', 'mediaType'] as const)
      if (typeof o[k] === 'string' && o[k] !== '') out[k] = o[k];
    return out as unknown as Part;
  });
}

/** What the page asks for when it sends. */
export interface TalkRequest {
  mode: 'send' | 'stream';
  parts: Part[];
  /** Continue this task (it asked for input). */
  taskId?: string;
  contextId?: string;
  /** Stream id chosen by the page, so events arriving before the HTTP answer can be placed. */
  streamId?: string;
  /** SendMessage only: answer with the task at once instead of waiting for it. */
  returnImmediately?: boolean;
  /** The message's `metadata` (a JSON object). */
  metadata?: JsonObject;
}

/** Reads a talk request from the page's JSON. */
export function talkRequest(body: Record<string, unknown>): TalkRequest {
  const mode = body.mode === 'stream' ? 'stream' : body.mode === 'send' ? 'send' : undefined;
  if (!mode) throw new BadRequest('mode: "send" or "stream"');
  const str = (k: string): string | undefined =>
    typeof body[k] === 'string' && body[k] !== '' ? body[k] : undefined;
  const taskId = str('taskId');
  const contextId = str('contextId');
  const streamId = str('streamId');
  const metadata = body.metadata;
  if (
    metadata !== undefined &&
    metadata !== null &&
    (typeof metadata !== 'object' || Array.isArray(metadata))
  )
    throw new BadRequest('metadata must be a JSON object ({"key": value, …})');
  return {
    mode,
    parts: checkParts(body.parts),
    ...(metadata && Object.keys(metadata).length > 0 ? { metadata: metadata as JsonObject } : {}),
    ...(taskId ? { taskId } : {}),
    ...(contextId ? { contextId } : {}),
    ...(streamId ? { streamId } : {}),
    ...(body.returnImmediately === true ? { returnImmediately: true } : {}),
  };
}

/** Sends (the answer comes back) or starts a stream (events go to the page; the stream id comes back). */
export async function talk(
  session: Session,
  entry: AgentEntry,
  req: TalkRequest,
): Promise<unknown> {
  const message: Message = {
    messageId: randomUUID(),
    role: 'ROLE_USER',
    parts: req.parts,
    ...(req.taskId ? { taskId: req.taskId } : {}),
    ...(req.contextId ? { contextId: req.contextId } : {}),
    ...(req.metadata ? { metadata: req.metadata } : {}),
  };
  if (req.mode === 'send') {
    const result = await entry.client.sendMessage({
      message,
      ...(req.returnImmediately ? { configuration: { returnImmediately: true } } : {}),
    });
    return { message, result };
  }
  const streamId = req.streamId ?? randomUUID();
  run(session, entry, streamId, (signal, onEventId) =>
    entry.client.sendStreamingMessage({ message }, { signal, onEventId }),
  );
  return { message, streamId };
}

/** Re-subscribes to a task, from `lastEventId` when the page remembers one (after a reload). */
export function resubscribe(
  session: Session,
  entry: AgentEntry,
  taskId: string,
  lastEventId: string | undefined,
  streamId: string,
): { streamId: string } {
  run(session, entry, streamId, (signal, onEventId) =>
    entry.client.subscribeToTask(
      { id: taskId },
      { signal, onEventId, ...(lastEventId ? { lastEventId } : {}) },
    ),
  );
  return { streamId };
}

/** Cancels a task; the answer is the task in its new state. */
export function cancel(entry: AgentEntry, taskId: string): Promise<Task> {
  return entry.client.cancelTask(taskId);
}

type Open = (
  signal: AbortSignal,
  onEventId: (id: string) => void,
) => AsyncGenerator<StreamResponse>;

/**
 * Opens the stream now, so that a refusal the client makes without a round trip (the card does not
 * stream) answers the page's request, then reads it in the background.
 */
function run(session: Session, entry: AgentEntry, streamId: string, open: Open): void {
  const ctl = session.startStream(streamId);
  let eventId: string | undefined;
  let stream: AsyncGenerator<StreamResponse>;
  try {
    stream = open(ctl.signal, (id) => (eventId = id));
  } catch (err) {
    session.streamEnded(streamId, ctl);
    throw err;
  }
  const agent = entry.url;
  void (async () => {
    try {
      for await (const event of stream) {
        const at = { streamId, agent, ...(eventId !== undefined ? { eventId } : {}) };
        session.emit('talk', { ...at, event }, (chars) => ({ ...at, tooLarge: chars }));
      }
      session.emit('talk-end', { streamId, agent });
    } catch (err) {
      session.emit('talk-end', {
        streamId,
        agent,
        ...(ctl.signal.aborted ? { stopped: true } : { error: describeError(err) }),
      });
    } finally {
      session.streamEnded(streamId, ctl);
    }
  })();
}
