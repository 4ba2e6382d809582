/**
 * What the three kit agents share: reading an incoming message into text, data and files, and a guard
 * that turns any unexpected failure into a clear answer instead of a raw error on the wire.
 */
import type { AgentExecutor, Logger, TaskUpdater } from 'a2a-kit/server';
import type { JsonObject, JsonValue, Message, Part } from 'a2a-kit';

/** An incoming message split the way the agents read it. */
export interface Inbound {
  /** Text parts without a filename, joined by newlines and trimmed. */
  text: string;
  /** The first data part whose value is a JSON object. */
  data: JsonObject | undefined;
  /** Parts that carry a file: `raw` bytes, a `url`, or text with a `filename`. */
  files: Part[];
}

export function inbound(message: Message): Inbound {
  const texts: string[] = [];
  const files: Part[] = [];
  let data: JsonObject | undefined;
  for (const p of message.parts) {
    if (typeof p.raw === 'string' || typeof p.url === 'string') files.push(p);
    else if (typeof p.text === 'string') {
      if (p.filename) files.push(p);
      else texts.push(p.text);
    } else if (p.data !== undefined && data === undefined && isObject(p.data)) data = p.data;
  }
  return { text: texts.join('\n').trim(), data, files };
}

export function isObject(v: JsonValue | undefined): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A string member of a data part, trimmed; undefined when absent, empty or not a string. */
export function stringField(data: JsonObject | undefined, ...names: string[]): string | undefined {
  for (const n of names) {
    const v = data?.[n];
    if (typeof v === 'string' && v.trim() !== '') return v.trim();
  }
  return undefined;
}

/** Strips matching quotes or backticks a person may put around a path, and a sentence's final period. */
export function unquote(s: string): string {
  const m = /^(["'`])(.*)\1$/.exec(s.trim());
  return (m ? m[2]! : s.replace(/(?<=[\w-])\.$/, '')).trim();
}

/**
 * Wraps an executor so nothing it throws reaches the client raw: before any task exists the caller gets
 * a plain message, afterwards the task fails with a short explanation. Details go to the log only.
 */
export function guarded(agent: string, logger: Logger, executor: AgentExecutor): AgentExecutor {
  return async (ctx, task) => {
    let started = ctx.task !== undefined;
    let replied = false;
    const mark =
      <A extends unknown[]>(f: (...args: A) => void) =>
      (...args: A): void => {
        started = true;
        f(...args);
      };
    const tracked: TaskUpdater = {
      taskId: task.taskId,
      contextId: task.contextId,
      signal: task.signal,
      submit: mark(task.submit),
      working: mark(task.working),
      inputRequired: mark(task.inputRequired),
      authRequired: mark(task.authRequired),
      complete: mark(task.complete),
      fail: mark(task.fail),
      reject: mark(task.reject),
      cancel: mark(task.cancel),
      setStatus: mark(task.setStatus),
      addArtifact: (a, o) => {
        started = true;
        return task.addArtifact(a, o);
      },
      reply: (m) => {
        replied = true;
        task.reply(m);
      },
    };
    try {
      await executor(ctx, tracked);
    } catch (err) {
      if (ctx.signal.aborted) return; // canceled: the task is already CANCELED, late failures are noise
      logger.error({ err, agent, taskId: task.taskId }, 'kit agent failed');
      const text = `${agent} hit an internal error and could not finish; the agent's log has the details.`;
      if (started) task.fail(text);
      else if (!replied) task.reply(text);
    }
  };
}

/**
 * The environment handed to child processes: only what a Node project needs to run, so secrets held
 * by the agents' own process (the deployer token above all) never reach code from the workspace.
 */
export function childEnv(source: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const keep = [
    'PATH',
    'HOME',
    'TMPDIR',
    'TMP',
    'TEMP',
    'LANG',
    'LC_ALL',
    'TZ',
    'SystemRoot',
    'USERPROFILE',
  ];
  const env: NodeJS.ProcessEnv = {};
  for (const k of keep) if (source[k] !== undefined) env[k] = source[k];
  return env;
}

/** An error message fit for a requester: the message of a known error type, never a stack. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
