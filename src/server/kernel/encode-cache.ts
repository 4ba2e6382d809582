/**
 * Encode once, send to many. When many readers take the same large task — SubscribeToTask callers all
 * opening with it, GetTask callers polling it, a large artifact fanned out to every subscriber — each
 * would serialise it again: a 3 MB task costs ~10 ms of the event loop per reader, for every agent of
 * the process (issue 28, the attack soak). Here the serialised forms of a payload (its JSON text, that
 * text as UTF-8 bytes, its protobuf bytes) are kept with the payload object itself, in a WeakMap, so
 * they live exactly as long as it does.
 *
 * A form is kept only when the payload is large (≥ {@link BIG_PAYLOAD_BYTES}): small ones, the usual
 * case, are made each time as before and cost one WeakMap miss.
 *
 * What may be a key: only an object that never changes again.
 * - A stream event other than a Task: its payload (a status, an artifact copy, a message) is made for
 *   the event and never changed after it is emitted (`tasks/run-content.ts`).
 * - A task only once {@link seal}ed: the shared snapshots of `tasks/view.ts` (copies of a live task,
 *   replaced, never updated, when the task changes).
 * A Task event (`{ task }`) is keyed by its task, so it is cached only when that task is sealed: the
 * live task a run emits keeps changing and is never a key. A finished task read from a store is a new
 * object per read: it is parsed once for its many readers (`tasks/json.ts`), and the bytes of the last
 * large answer are reused when the next one has the same text ({@link answerBody}).
 */
import type { StreamResponse } from '../../protocol/index.js';

/** Payloads whose encodings are at least this large are kept for the next reader: 8 KiB. */
export const BIG_PAYLOAD_BYTES = 8 * 1024;

/** Unary answer bodies at least this large are sent as bytes encoded once: 64 KiB. */
export const BYTES_BODY_MIN = 64 * 1024;

/** The encodings kept of one payload, by form. */
type Entry = { [form in Form]?: string | Uint8Array };

/**
 * `json`: JSON text (of a task); `utf8`: the JSON as bytes (of a task, or of an event keyed by itself);
 * `event-utf8`: the bytes of a Task event's `{"task":…}`, keyed by its task; `proto`/`framed`: protobuf
 * bytes of a StreamResponse (framed: with the gRPC length prefix); `proto-reply`: framed bytes of a
 * unary answer.
 */
type Form = 'json' | 'utf8' | 'event-utf8' | 'proto' | 'framed' | 'proto-reply';

const entries = new WeakMap<object, Entry>();

/** Declare that `obj` is never changed again, so its large encodings may be kept. Returns it. */
export function seal<T extends object>(obj: T): T {
  if (!entries.has(obj)) entries.set(obj, {});
  return obj;
}

/** Whether `obj` was {@link seal}ed (or has kept encodings). */
export function isSealed(obj: object): boolean {
  return entries.has(obj);
}

/** Keep `value` as the `form` of `key` if it is large and `key` may be cached (`sealedOnly`: if sealed). */
function keep<T extends string | Uint8Array>(
  key: object,
  form: Form,
  value: T,
  sealedOnly: boolean,
): T {
  if ((typeof value === 'string' ? value.length : value.byteLength) < BIG_PAYLOAD_BYTES)
    return value;
  const entry = entries.get(key);
  if (entry) entry[form] = value;
  else if (!sealedOnly) entries.set(key, { [form]: value });
  return value;
}

/**
 * The key of a stream event: its task when it carries one (cacheable only once sealed), else the
 * event itself (cacheable as it is).
 */
function eventKey(event: StreamResponse): object {
  return 'task' in event ? event.task : event;
}

/**
 * A stream event's JSON for an SSE `data:` line: the text when small (the caller frames it as it
 * always has), its UTF-8 bytes when large — made once for all readers of the same event.
 */
export function eventBody(event: StreamResponse): string | Uint8Array {
  const key = eventKey(event);
  const isEvent = key === event;
  const entry = entries.get(key);
  const kept = entry?.[isEvent ? 'utf8' : 'event-utf8'];
  if (kept !== undefined) return kept;
  const text = JSON.stringify(event);
  if (text.length < BIG_PAYLOAD_BYTES) return text;
  return keep(key, isEvent ? 'utf8' : 'event-utf8', Buffer.from(text), !isEvent);
}

/** A stream event's protobuf bytes kept by {@link keepEventProto} (`framed`: with the gRPC prefix). */
export function keptEventProto(event: StreamResponse, framed: boolean): Buffer | undefined {
  return entries.get(eventKey(event))?.[framed ? 'framed' : 'proto'] as Buffer | undefined;
}

/** Keep `bytes` as the protobuf of `event` for its next readers when large; returns them. */
export function keepEventProto(event: StreamResponse, framed: boolean, bytes: Buffer): Buffer {
  const key = eventKey(event);
  return keep(key, framed ? 'framed' : 'proto', bytes, key !== event);
}

/** The framed protobuf bytes of a unary answer, kept when `result` is sealed and the bytes large. */
export function replyProto(result: unknown, encode: () => Buffer): Buffer {
  if (typeof result !== 'object' || result === null) return encode();
  const kept = entries.get(result)?.['proto-reply'];
  return kept !== undefined ? (kept as Buffer) : keep(result, 'proto-reply', encode(), true);
}

/** The JSON text of a sealed object (a snapshot or finished task), when it was kept. */
export function keptJson(obj: object): string | undefined {
  return entries.get(obj)?.json as string | undefined;
}

/** Keep `text` as the JSON of `obj` when it is large; `obj` is sealed by this (it must never change). */
export function keepJson(obj: object, text: string): string {
  if (text.length >= BIG_PAYLOAD_BYTES) {
    const entry = entries.get(obj);
    if (entry) entry.json = text;
    else entries.set(obj, { json: text });
  }
  return text;
}

/**
 * A unary answer body: `head + json + tail` as text when small; when at least
 * {@link BYTES_BODY_MIN}, `json` as bytes (with the head and tail as parts around them), encoded once
 * per `key` (a sealed object whose JSON it is) or reused from the last large answer of the same text:
 * many readers of one large task share its bytes instead of each encoding (and copying) it again.
 */
export function answerBody(
  head: string,
  json: string,
  tail: string,
  key?: unknown,
): string | Uint8Array | Array<string | Uint8Array> {
  if (json.length < BYTES_BODY_MIN) return head + json + tail;
  const entry = typeof key === 'object' && key !== null ? entries.get(key) : undefined;
  const bytes = entry ? ((entry.utf8 ??= Buffer.from(json)) as Uint8Array) : lastUtf8(json);
  return head === '' && tail === '' ? bytes : [head, bytes, tail];
}

let lastText = '';
let lastBytes: Buffer | undefined;

/**
 * `json` as UTF-8, the bytes of the last large answer reused when it is the same text (readers of one
 * finished task, each with its own copy of it: equal text, equal bytes).
 */
function lastUtf8(json: string): Buffer {
  if (lastBytes !== undefined && json === lastText) return lastBytes;
  lastText = json;
  return (lastBytes = Buffer.from(json));
}
