/**
 * A light check of what an agent answered, per operation, before it is handed to the caller as a
 * typed value, and the ProtoJSON normalisation a strict server needs: empty repeated fields may
 * be omitted on the wire (`{}` is a valid empty list response), so they are filled in here.
 */
import { parseAgentCard, type OperationName } from '../protocol/index.js';
import { keepSignedForm } from '../protocol/v03/card.js';
import { A2AClientError } from './errors.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

function bad(operation: OperationName, url: string, why: string): A2AClientError {
  return new A2AClientError('BAD_RESPONSE', `${operation}: the answer from ${url} ${why}`);
}

function checkTask(v: unknown): string | undefined {
  if (!isObj(v)) return 'is not a Task object';
  if (typeof v['id'] !== 'string') return 'is a Task without a string id';
  if (!isObj(v['status']) || typeof v['status']['state'] !== 'string')
    return 'is a Task without status.state';
  return undefined;
}

function checkMessage(v: unknown): string | undefined {
  if (!isObj(v)) return 'is not a Message object';
  if (typeof v['messageId'] !== 'string') return 'is a Message without a string messageId';
  return undefined;
}

/**
 * Returns the value (normalised) or throws BAD_RESPONSE saying what is wrong with it; for
 * GetExtendedAgentCard, a promise of it (the card schema is loaded on first use).
 */
export function checkResult(operation: OperationName, value: unknown, url: string): unknown {
  switch (operation) {
    case 'SendMessage': {
      if (!isObj(value)) throw bad(operation, url, 'is not an object');
      const problem =
        value['task'] !== undefined && value['message'] === undefined
          ? checkTask(value['task'])
          : value['message'] !== undefined && value['task'] === undefined
            ? checkMessage(value['message'])
            : 'must hold exactly one of task or message';
      if (problem) throw bad(operation, url, problem);
      return value;
    }
    case 'GetTask':
    case 'CancelTask': {
      const problem = checkTask(value);
      if (problem) throw bad(operation, url, problem);
      return value;
    }
    case 'ListTasks': {
      if (!isObj(value)) throw bad(operation, url, 'is not an object');
      const tasks = value['tasks'] ?? [];
      if (!Array.isArray(tasks))
        throw bad(operation, url, 'has a tasks member that is not an array');
      for (const [i, t] of tasks.entries()) {
        const problem = checkTask(t);
        if (problem) throw bad(operation, url, `has tasks[${i}] that ${problem}`);
      }
      return { ...value, tasks, nextPageToken: value['nextPageToken'] ?? '' };
    }
    case 'CreateTaskPushNotificationConfig':
    case 'GetTaskPushNotificationConfig':
      // proto3 cannot tell an empty url from a missing one; either way there is nowhere to deliver.
      if (!isObj(value) || typeof value['url'] !== 'string' || value['url'] === '')
        throw bad(operation, url, 'is not a push notification config with a url');
      return value;
    case 'ListTaskPushNotificationConfigs': {
      if (!isObj(value)) throw bad(operation, url, 'is not an object');
      const configs = value['configs'] ?? [];
      if (!Array.isArray(configs))
        throw bad(operation, url, 'has a configs member that is not an array');
      return { ...value, configs };
    }
    case 'GetExtendedAgentCard':
      return checkedCard(operation, value, url);
    default:
      return value;
  }
}

async function checkedCard(
  operation: OperationName,
  value: unknown,
  url: string,
): Promise<unknown> {
  const r = await parseAgentCard(value);
  if (!r.ok)
    throw bad(operation, url, `is not a valid agent card: ${r.problems.slice(0, 5).join('; ')}`);
  return keepSignedForm(r.card, value as object);
}
