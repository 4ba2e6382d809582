/**
 * JSON text of tasks, made once. A task in a terminal state never changes again, so the text the store
 * keeps and the text a response sends are the same string: serialising a finished task twice per
 * SendMessage (store, then answer) was one of the larger costs of a call.
 *
 * Only the last finished task is remembered. A store saves it (or reads it back) and then its answer is
 * sent, within one turn of the event loop, so one entry is enough; a miss only serialises again. A
 * WeakMap keyed by every finished task cost ~0.6 µs per task in write barriers and collector work.
 */
import { isTerminal, type Task } from '../../protocol/index.js';
import { BIG_PAYLOAD_BYTES, isSealed, keepJson, keptJson } from '../kernel/encode-cache.js';
import { snapshotTask } from './view.js';

let lastTask: Task | undefined;
let lastText = '';

/**
 * The JSON text of `task` for an answer: the text a store just made or read for it, if it was this task;
 * for a large shared snapshot (`view.ts`), the text made for its first reader.
 */
export function taskJson(task: Task): string {
  if (task === lastTask) return lastText;
  if (!isSealed(task)) return storedTaskJson(task);
  return keptJson(task) ?? keepJson(task, storedTaskJson(task));
}

/**
 * The JSON text of `task` for a store, always made from the object as it is now (code that read a task
 * from a store may have changed it before saving it back); remembered when the task is finished.
 */
export function storedTaskJson(task: Task): string {
  const text = JSON.stringify(task);
  return isTerminal(task.status.state) ? remember(task, flat(text)) : text;
}

function remember(task: Task, text: string): string {
  lastTask = task;
  lastText = text;
  return text;
}

/**
 * V8 builds a long JSON.stringify result from parts joined by rope nodes (a ~460-character task is four
 * parts and three nodes); a string that is kept (the memory store holds one per finished task) is made
 * one flat copy now, which the collector then keeps instead of the rope: ~25 % less memory per task.
 * Measuring its UTF-8 length reads it whole, which flattens it (a native call, so never optimised away).
 */
function flat(text: string): string {
  Buffer.byteLength(text);
  return text;
}

/** Record that `task` (terminal, e.g. just parsed from `text`) serialises to `text`. */
export function knownTaskJson(task: Task, text: string): Task {
  if (isTerminal(task.status.state)) remember(task, text);
  return task;
}

/**
 * The JSON text of an operation's result. Results that are or hold one task reuse its text; everything
 * else is serialised as usual.
 */
export function resultJson(operation: string, result: unknown): string {
  if (result !== undefined && result !== null) {
    if (operation === 'GetTask' || operation === 'CancelTask') return taskJson(result as Task);
    if (operation === 'SendMessage' && typeof result === 'object' && 'task' in result)
      return `{"task":${taskJson((result as { task: Task }).task)}}`;
  }
  return JSON.stringify(result ?? {});
}

/** The last large finished task parsed from its stored text; never handed out itself, only copies. */
let parsedText = '';
let parsedTask: Task | undefined;

/**
 * A finished task from its stored text, parsed once for many readers: GetTask callers of one large
 * finished task (issue 28: 20 readers of a 3 MB task parsed it 20 times). When `text` is the text of
 * the last large finished task parsed, the answer is a copy of that parse (`snapshotTask`: its own
 * top level, history and artifacts lists, so a caller may change those; the messages, artifacts and
 * status inside are replaced, never changed, as everywhere in a task's life). Equal text is the same
 * task, and a finished task never changes, so nothing read this way can be stale.
 */
export function parseStoredTask(text: string, parse: (text: string) => Task): Task {
  if (parsedTask !== undefined && text.length >= BIG_PAYLOAD_BYTES && text === parsedText)
    return knownTaskJson(snapshotTask(parsedTask), parsedText);
  const task = parse(text);
  if (text.length >= BIG_PAYLOAD_BYTES && isTerminal(task.status.state)) {
    parsedText = text;
    parsedTask = snapshotTask(task);
  }
  return knownTaskJson(task, text);
}
