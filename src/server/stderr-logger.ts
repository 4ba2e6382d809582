/**
 * The server's default logger: one line per warning or error on stderr, so that an agent's bugs (an
 * executor that throws, a store that refuses a write, a task nobody finishes, a webhook given up on)
 * show up without any setup. Quiet is one option away: `logger: silentLogger`.
 */
import type { Logger } from '../protocol/logger.js';

/** The levels of a {@link Logger}, least severe first. */
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/** How {@link stderrLogger} writes. */
export interface StderrLoggerOptions {
  /** The least severe level written. Default `warn`. */
  level?: LogLevel;
  /** Where each line goes (it ends with a newline). Default: `process.stderr`, else `console.error`. */
  write?: (line: string) => void;
}

const RANK: Record<LogLevel, number> = { debug: 0, info: 1, warn: 2, error: 3 };
/** A field's value is cut here, a whole line there: a peer's text must not flood the log. */
const MAX_VALUE = 300;
const MAX_LINE = 2000;

/**
 * C0 and C1 controls, DEL, and the bidi overrides and isolates: what could rewrite a terminal or hide
 * text when a line holding a peer's text is read. Shown as `\u{…}` instead.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

function clean(text: string, max: number): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return cut.replace(UNSAFE, (c) => `\\u{${c.charCodeAt(0).toString(16)}}`);
}

/** An error in one line: its name and message, then where it was thrown (the first frame of its stack). */
function errorText(err: unknown): string {
  if (!(err instanceof Error)) return clean(String(err), MAX_VALUE);
  const frame = /\n\s+at (.+)/.exec(err.stack ?? '')?.[1];
  const text = `${err.name}: ${err.message}`;
  return clean(frame ? `${text} (at ${frame})` : text, MAX_VALUE * 2);
}

function valueText(value: unknown): string {
  if (value instanceof Error) return errorText(value);
  if (typeof value === 'string') return clean(value, MAX_VALUE);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  return clean(json ?? String(value), MAX_VALUE);
}

/**
 * One line: `a2a-kit warn: <message> taskId=… key=value … err=<Name: message (at frame)>`. The task id
 * comes first so that a reader can find the task; the error comes last because it is the longest.
 */
export function formatLogLine(level: LogLevel, fields: object, msg: string): string {
  const parts = [`a2a-kit ${level}: ${clean(msg, MAX_VALUE)}`];
  const entries = Object.entries(fields).filter(([, v]) => v !== undefined);
  const rank = (k: string): number => (k === 'taskId' ? 0 : k === 'err' ? 2 : 1);
  entries.sort(([a], [b]) => rank(a) - rank(b));
  for (const [k, v] of entries) parts.push(`${clean(k, 40)}=${valueText(v)}`);
  const line = parts.join(' ');
  return line.length > MAX_LINE ? `${line.slice(0, MAX_LINE)}…` : line;
}

function defaultWrite(line: string): void {
  const stderr = (globalThis as { process?: { stderr?: { write(s: string): unknown } } }).process
    ?.stderr;
  if (stderr) stderr.write(line);
  // Hosts without a process (Workers, browsers) have a console that goes to their log.
  // eslint-disable-next-line no-console
  else console.error(line.trimEnd());
}

/**
 * A {@link Logger} that writes each call at `level` or above as one line on stderr. It is what the
 * server uses when no `logger` is given (level `warn`); pass `stderrLogger({ level: 'info' })` to see
 * normal events too (a drain's report), or `silentLogger` for nothing at all.
 *
 * @example
 * ```ts
 * import { createAgentServer, silentLogger, stderrLogger } from 'a2a-kit/server';
 * createAgentServer({ card, executor, logger: stderrLogger({ level: 'info' }) });
 * createAgentServer({ card, executor, logger: silentLogger }); // nothing on stderr
 * ```
 */
export function stderrLogger(options: StderrLoggerOptions = {}): Logger {
  const min = RANK[options.level ?? 'warn'];
  if (min === undefined) throw new TypeError(`stderrLogger: unknown level "${options.level}"`);
  const write = options.write ?? defaultWrite;
  const at =
    (level: LogLevel) =>
    (fields: object, msg: string): void => {
      if (RANK[level] >= min) write(`${formatLogLine(level, fields ?? {}, String(msg))}\n`);
    };
  return { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
}
