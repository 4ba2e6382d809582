/** The messages of a task as the manager handles them: the copy it keeps, the rule on terminal tasks, the last user turn. */
import { A2AError, isTerminal, type Message, type Task } from '../../protocol/index.js';
import { plainCopy } from '../util/plain-copy.js';

/** The incoming message as this task keeps it: a copy, with the task's ids. */
export function ownMessage(
  incoming: Message,
  ids: { readonly taskId: string; readonly contextId: string },
): Message {
  const m = plainCopy(incoming);
  m.taskId = ids.taskId;
  m.contextId = ids.contextId;
  return m;
}

/** §3.1.1: a terminal task accepts no more messages. */
export function refuseTerminal(task: Task): void {
  if (isTerminal(task.status.state)) {
    throw new A2AError(
      'UnsupportedOperation',
      `Task ${task.id} is ${task.status.state}; a terminal task accepts no more messages. Start a new task in the same context.`,
    );
  }
}

/** The last message the user sent, to hand to the executor again when a task is resumed after a restart. */
export function lastUserMessage(task: Task): Message | undefined {
  const history = task.history ?? [];
  for (let i = history.length - 1; i >= 0; i--)
    if (history[i]!.role === 'ROLE_USER') return history[i];
  return undefined;
}
