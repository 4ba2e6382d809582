/**
 * Log lines of the kit's agents: readable on a terminal (time, level, agent, message, a few key=value
 * pairs, an error's message without its stack), one pino JSON object per line when piped or asked for.
 */
import { pino, type Logger as PinoLogger } from 'pino';
import { UsageError } from './flags.js';

/** `pretty`: one readable line per entry; `json`: pino's JSON lines, for log collectors. */
export type LogFormat = 'pretty' | 'json';

/** The format from the flag, else KIT_LOG_FORMAT, else pretty when stderr is a terminal. */
export function chooseLogFormat(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  stderrIsTTY: boolean | undefined,
): LogFormat {
  const asked = flag ?? env.KIT_LOG_FORMAT;
  if (asked === undefined || asked === '') return stderrIsTTY ? 'pretty' : 'json';
  if (asked === 'pretty' || asked === 'json') return asked;
  throw new UsageError(
    `${flag !== undefined ? '--log-format' : 'KIT_LOG_FORMAT'} must be pretty or json, not "${asked}"`,
  );
}

const LEVELS: Record<number, { name: string; color?: number }> = {
  10: { name: 'trace', color: 2 },
  20: { name: 'debug', color: 2 },
  30: { name: 'info' },
  40: { name: 'warn', color: 33 },
  50: { name: 'error', color: 31 },
  60: { name: 'fatal', color: 31 },
};
// Fields every entry has, or that the line shows in its own place.
const SHOWN_APART = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'agent', 'err']);

/** Options of {@link prettyLine}. */
export interface PrettyOptions {
  color: boolean;
  /** Print an error's stack under the line (at debug level and below). */
  stacks: boolean;
}

/** One pino entry as a readable line: `10:37:37 warn  deployer  message  key=value … err=Error: text`. */
export function prettyLine(entry: Record<string, unknown>, opts: PrettyOptions): string {
  const paint = (text: string, code: number | undefined): string =>
    opts.color && code ? `\u001b[${code}m${text}\u001b[0m` : text;
  const level = LEVELS[Number(entry.level)] ?? { name: String(entry.level) };
  const time =
    typeof entry.time === 'number' ? new Date(entry.time).toTimeString().slice(0, 8) : '';
  const fields = Object.entries(entry)
    .filter(([k, v]) => !SHOWN_APART.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${short(v)}`);
  const err = entry.err as { type?: string; message?: string; stack?: string } | undefined;
  if (err && typeof err === 'object')
    fields.push(
      `err=${err.type && err.type !== 'Error' ? `${err.type}: ` : ''}${err.message ?? short(err)}`,
    );
  const agent = typeof entry.agent === 'string' ? `${entry.agent.padEnd(13)} ` : '';
  let line = `${paint(time, 2)} ${paint(level.name.padEnd(5), level.color)} ${agent}${String(entry.msg ?? '')}${fields.length ? `  ${paint(fields.join(' '), 2)}` : ''}`;
  if (opts.stacks && typeof err?.stack === 'string')
    line += `\n${err.stack
      .split('\n')
      .slice(1)
      .map((l) => `    ${l.trim()}`)
      .join('\n')}`;
  return line;
}

function short(v: unknown): string {
  const s =
    typeof v === 'string'
      ? /[\s"=]/.test(v)
        ? JSON.stringify(v)
        : v
      : (JSON.stringify(v) ?? String(v));
  return s.length > 160 ? `${s.slice(0, 157)}…` : s;
}

/**
 * A pino logger writing to stderr in the chosen format. The pretty writer parses each JSON line pino
 * produces, so the agents log exactly as they would into a collector, and only the rendering differs.
 */
export function kitLogger(
  format: LogFormat,
  level: string,
  out: NodeJS.WriteStream = process.stderr,
): PinoLogger {
  if (format === 'json') {
    const dest =
      out === process.stderr
        ? pino.destination({ dest: 2, sync: true })
        : { write: (s: string) => void out.write(s) };
    return pino({ level, base: { pid: process.pid } }, dest);
  }
  const opts: PrettyOptions = {
    color: out.isTTY === true && !process.env.NO_COLOR,
    stacks: level === 'debug' || level === 'trace',
  };
  const write = (chunk: string): void => {
    for (const raw of chunk.split('\n')) {
      if (!raw) continue;
      let entry: Record<string, unknown>;
      try {
        entry = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        out.write(`${raw}\n`);
        continue;
      }
      out.write(`${prettyLine(entry, opts)}\n`);
    }
  };
  return pino({ level, base: null }, { write });
}
