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

let lastTask: Task | undefined;
let lastText = '';

/** The JSON text of `task` for an answer: the text a store just made or read for it, if it was this task. */
export function taskJson(task: Task): string {
  return task === lastTask ? lastText : storedTaskJson(task);
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
