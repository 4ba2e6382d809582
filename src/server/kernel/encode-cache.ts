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
 *   replaced, never updated, when the task changes), and finished tasks read from a store (a task in
 *   a terminal state never changes again; `tasks/json.ts` relies on the same).
 * A Task event (`{ task }`) is keyed by its task, so it is cached only when that task is sealed: the
 * live task a run emits keeps changing and is never a key.
 */
import type { StreamResponse } from '../../protocol/index.js';

/** Payloads whose encodings are at least this large are kept for the next reader: 8 KiB. */
export const BIG_PAYLOAD_BYTES = 8 * 1024;

/** Unary answer bodies at least this large are sent as bytes encoded once: 64 KiB. */
export const BYTES_BODY_MIN = 64 * 1024;

/** The encodings kept of one payload, by form. */
type Entry = { [form in Form]?: string | Uint8Array };

/**
 * `json`: JSON text; `utf8`: that text as bytes; `sse-json`: the JSON text of a Task event's
 * `{"task":…}`; `sse-utf8`: its bytes; `proto`/`framed`: protobuf bytes of a StreamResponse (framed:
 * with the gRPC length prefix); `proto-reply`: framed bytes of a unary answer.
 */
type Form = 'json' | 'utf8' | 'event-json' | 'event-utf8' | 'proto' | 'framed' | 'proto-reply';

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

/**
 * The `form` of `key`, made by `make` unless kept. Kept when `key` may be cached (`sealedOnly`: only
 * if it was sealed) and the result is large.
 */
function encoded<T extends string | Uint8Array>(
  key: object,
  form: Form,
  make: () => T,
  sealedOnly: boolean,
): T {
  const entry = entries.get(key);
  const hit = entry?.[form];
  if (hit !== undefined) return hit as T;
  const value = make();
  if (entry) entry[form] = value;
  else if (!sealedOnly && sizeOf(value) >= BIG_PAYLOAD_BYTES) entries.set(key, { [form]: value });
  return value;
}

function sizeOf(value: string | Uint8Array): number {
  return typeof value === 'string' ? value.length : value.byteLength;
}

/**
 * The key of a stream event: its task when it carries one (cacheable only once sealed), else the
 * event itself. The second member says whether only a sealed key may be cached.
 */
function eventKey(event: StreamResponse): [object, boolean] {
  return 'task' in event ? [event.task, true] : [event, false];
}

/**
 * A stream event's JSON for an SSE `data:` line: the text when small (the caller frames it as it
 * always has), its UTF-8 bytes when large — made once for all readers of the same event.
 */
export function eventBody(event: StreamResponse): string | Uint8Array {
  const [key, sealedOnly] = eventKey(event);
  const form = key === event ? 'json' : 'event-json';
  const text = encoded(key, form, () => JSON.stringify(event), sealedOnly);
  if (text.length < BIG_PAYLOAD_BYTES) return text;
  return encoded(key, form === 'json' ? 'utf8' : 'event-utf8', () => Buffer.from(text), true);
}

/** A stream event as protobuf bytes (`framed`: with the gRPC prefix), made by `encode` unless kept. */
export function eventProto(
  event: StreamResponse,
  framed: boolean,
  encode: () => Buffer | undefined,
): Buffer | undefined {
  const [key, sealedOnly] = eventKey(event);
  const form = framed ? 'framed' : 'proto';
  // An event that cannot be encoded is not kept (`encode` said why; each reader's stream then fails).
  const entry = entries.get(key);
  const hit = entry?.[form];
  if (hit !== undefined) return hit as Buffer;
  const bytes = encode();
  if (bytes) encoded(key, form, () => bytes, sealedOnly);
  return bytes;
}

/** The framed protobuf bytes of a unary answer, kept when `result` is sealed and the bytes large. */
export function replyProto(result: unknown, encode: () => Buffer): Buffer {
  return typeof result === 'object' && result !== null
    ? encoded(result, 'proto-reply', encode, true)
    : encode();
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
 * {@link BYTES_BODY_MIN}, as bytes, with `json` encoded once per `key` (a sealed object whose JSON it
 * is), so many readers of one large task copy its bytes instead of encoding its text again.
 */
export function answerBody(
  head: string,
  json: string,
  tail: string,
  key?: unknown,
): string | Uint8Array {
  if (json.length < BYTES_BODY_MIN) return head + json + tail;
  const bytes =
    typeof key === 'object' && key !== null
      ? encoded(key, 'utf8', () => Buffer.from(json), true)
      : Buffer.from(json);
  if (head === '' && tail === '') return bytes;
  return Buffer.concat([Buffer.from(head), bytes, Buffer.from(tail)]);
}
