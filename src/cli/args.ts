/**
 * Command-line parsing on node:util parseArgs: the flags every command takes, typed accessors that
 * turn a bad value into a usage error naming the flag, and "did you mean" for a mistyped flag.
 */
import { parseArgs } from 'node:util';
import { UsageError } from './exit-codes.js';
import { didYouMean } from 'a2a-kit/cli-args';

export { CLI_BINDINGS } from './version.js';

/** A flag a command accepts, as node:util parseArgs takes it, plus what `--help` shows. */
export interface OptionSpec {
  /** `string` flags take a value; `boolean` flags do not. */
  type: 'string' | 'boolean';
  /** May be given more than once (values are collected in order). */
  multiple?: boolean;
  /** One-letter alias, e.g. `v` for `--verbose`. */
  short?: string;
  /** Placeholder for the value in `--help`, e.g. `DIR`. */
  value?: string;
  /** One line for `--help`. */
  help: string;
}

/** What the parser needs to know of a command (every Command is one). */
export interface ParseSpec {
  /** The command's name, for messages. */
  name: string;
  /** Its positional arguments, for messages. */
  usage: string;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** Whether the agent flags apply. */
  agent: boolean;
  /** Its own flags. */
  options: Readonly<Record<string, OptionSpec>>;
}

/** Flags of every command. */
export const GLOBAL_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  json: {
    type: 'boolean',
    help: 'print JSON for scripts: one document, or one line per event for streams (NDJSON)',
  },
  verbose: {
    type: 'boolean',
    short: 'v',
    help: 'print the wire exchanges (requests, answers, card fetch) on stderr',
  },
  timeout: {
    type: 'string',
    value: 'DURATION',
    help: 'give up after this long: 30 (seconds), 500ms, 2m, 1h; exit 10. Without it each call and the card fetch get 30 s',
  },
  help: { type: 'boolean', short: 'h', help: 'show this help' },
  version: { type: 'boolean', help: 'print the version of a2a and of the protocol it speaks' },
};

/** Flags of the commands that talk to an agent. */
export const AGENT_OPTIONS: Readonly<Record<string, OptionSpec>> = {
  token: {
    type: 'string',
    value: 'TOKEN',
    help: "credential for the card's bearer / OAuth / API-key scheme (default: $A2A_TOKEN)",
  },
  header: {
    type: 'string',
    multiple: true,
    value: '"NAME: VALUE"',
    help: 'extra request header (repeatable)',
  },
  binding: {
    type: 'string',
    multiple: true,
    value: 'BINDING',
    help: "accept only these bindings: JSONRPC, HTTP+JSON, GRPC (repeatable or comma-separated); the card's order decides among them",
  },
  tenant: {
    type: 'string',
    value: 'TENANT',
    help: "send requests in this tenant instead of the chosen interface's",
  },
  'trust-jwks': {
    type: 'string',
    value: 'FILE|URL',
    help: 'public keys (a JWKS) trusted to sign agent cards; a card whose signature fails is refused',
  },
  'require-signature': {
    type: 'boolean',
    help: 'refuse cards that are unsigned or signed by a key not in --trust-jwks',
  },
  versions: {
    type: 'string',
    multiple: true,
    value: 'V1,V2',
    help: 'protocol versions this client may speak, e.g. 1.0,0.3 (default: $A2A_VERSIONS, else 1.0)',
  },
  'max-bytes': {
    type: 'string',
    value: 'SIZE',
    help: 'largest card, answer or stream event accepted: 10MiB (default), 512KiB, 1000000; exit 11',
  },
  'idle-timeout': {
    type: 'string',
    value: 'DURATION',
    help: 'stop following a stream or polled task that shows nothing new for this long (default 5m); exit 12',
  },
};

/** Protocol versions this command line can speak. */
export const CLI_VERSIONS: readonly string[] = ['1.0', '0.3'];

/** Each call and the card fetch end after this long unless `--timeout` says otherwise. */
export const DEFAULT_CALL_TIMEOUT_MS = 30_000;

/** A stream or a polled task that shows nothing new for this long is given up (`--idle-timeout`). */
export const DEFAULT_IDLE_TIMEOUT_MS = 5 * 60_000;

/** The library's own cap on a response body (10 MiB), the default of `--max-bytes`. */
export const DEFAULT_MAX_BYTES = 10 * 1024 * 1024;

type Value = string | boolean | string[] | boolean[] | undefined;

/** The parsed command line of one command, with typed accessors. */
export class Args {
  /** Positional arguments after the command's name. */
  readonly positionals: readonly string[];
  readonly #values: Record<string, Value>;

  /** Wraps parseArgs' result. */
  constructor(values: Record<string, Value>, positionals: readonly string[]) {
    this.#values = values;
    this.positionals = positionals;
  }

  /** A string flag's value. */
  str(name: string): string | undefined {
    const v = this.#values[name];
    return typeof v === 'string' ? v : undefined;
  }

  /** A boolean flag. */
  flag(name: string): boolean {
    return this.#values[name] === true;
  }

  /** Every value of a repeatable flag; comma-separated values are split when `split`. */
  list(name: string, split = false): string[] {
    const v = this.#values[name];
    const all = Array.isArray(v)
      ? v.filter((x): x is string => typeof x === 'string')
      : typeof v === 'string'
        ? [v]
        : [];
    return split
      ? all
          .flatMap((x) => x.split(','))
          .map((x) => x.trim())
          .filter(Boolean)
      : all;
  }

  /** A whole number within bounds, or a usage error naming the flag. */
  int(name: string, min: number, max: number): number | undefined {
    const raw = this.str(name);
    if (raw === undefined) return undefined;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw.trim()) || n < min || n > max)
      throw new UsageError(`--${name} expects a whole number from ${min} to ${max}, got "${raw}"`);
    return n;
  }
}

/** The options a command's parser knows: its own, the global ones, and the agent ones if it talks to an agent. */
export function optionsOf(command: ParseSpec): Record<string, OptionSpec> {
  return { ...command.options, ...(command.agent ? AGENT_OPTIONS : {}), ...GLOBAL_OPTIONS };
}

/** Parses the arguments after the command's name; throws UsageError (with a suggestion) on anything unknown. */
export function parseCommandLine(command: ParseSpec, argv: readonly string[]): Args {
  const known = optionsOf(command);
  const options = Object.fromEntries(
    Object.entries(known).map(([name, o]) => [
      name,
      {
        type: o.type,
        ...(o.multiple ? { multiple: true } : {}),
        ...(o.short ? { short: o.short } : {}),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageFromParseError(err, Object.keys(known));
  }
  const args = new Args(parsed.values as Record<string, Value>, parsed.positionals);
  if (args.flag('help') || args.flag('version')) return args;
  const n = args.positionals.length;
  const { min, max } = command.positionals;
  if (n < min) throw new UsageError(`a2a ${command.name} needs ${command.usage}`);
  if (n > max)
    throw new UsageError(
      `a2a ${command.name} takes ${command.usage || 'no arguments'}; unexpected "${args.positionals[max]}" (quote text that contains spaces)`,
    );
  return args;
}

function usageFromParseError(err: unknown, known: string[]): UsageError {
  const code = (err as { code?: string }).code;
  const message = err instanceof Error ? err.message : String(err);
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') {
    const flag = /'(-{1,2}[^'\s]+)'/.exec(message)?.[1] ?? message;
    const bare = flag.replace(/^-+/, '').replace(/=.*$/, '');
    return new UsageError(`unknown flag ${flag}${didYouMean(bare, known, (k) => `--${k}`)}`);
  }
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    const flag = /'(--[^'\s]+)/.exec(message)?.[1];
    return new UsageError(
      flag && /argument missing/.test(message)
        ? `${flag} needs a value`
        : message.replace(/\.$/, ''),
    );
  }
  return new UsageError(message);
}

/** `30` (seconds), `500ms`, `30s`, `2m`, `1h` → milliseconds. */
export function parseDuration(raw: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(ms|s|m|h)?$/i.exec(raw.trim());
  const unit = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 }[
    (m?.[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm' | 'h'
  ];
  const ms = m ? Number(m[1]) * unit : NaN;
  if (!(ms > 0) || ms > 2_147_000_000)
    throw new UsageError(`${flag} expects a duration such as 30, 500ms, 2m or 1h, got "${raw}"`);
  return Math.round(ms);
}

/** `10MiB`, `512KiB`, `2MB`, `1000000` → bytes. */
export function parseSize(raw: string, flag: string): number {
  const m = /^(\d+(?:\.\d+)?)\s*(b|kb|kib|mb|mib|gb|gib)?$/i.exec(raw.trim());
  const units: Record<string, number> = {
    b: 1,
    kb: 1e3,
    kib: 1024,
    mb: 1e6,
    mib: 1024 ** 2,
    gb: 1e9,
    gib: 1024 ** 3,
  };
  const n = m ? Number(m[1]) * units[(m[2] ?? 'b').toLowerCase()]! : NaN;
  if (!(n >= 1) || n > 2 ** 31)
    throw new UsageError(`${flag} expects a size such as 10MiB, 512KiB or 1000000, got "${raw}"`);
  return Math.floor(n);
}

/** `--versions 1.0,0.3` (or `$A2A_VERSIONS`), checked; undefined = the client's default (1.0). */
export function parseVersions(values: readonly string[], from: string): string[] | undefined {
  const list = values
    .flatMap((v) => v.split(','))
    .map((v) => v.trim())
    .filter(Boolean);
  if (!list.length) return undefined;
  for (const v of list)
    if (!CLI_VERSIONS.includes(v))
      throw new UsageError(`${from} "${v}": this client speaks ${CLI_VERSIONS.join(', ')}`);
  return [...new Set(list)];
}

/** `"Name: value"` → `[name, value]`; a usage error otherwise. */
export function parseHeader(raw: string): [string, string] {
  const at = raw.indexOf(':');
  const name = at > 0 ? raw.slice(0, at).trim() : '';
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name))
    throw new UsageError(`--header expects "Name: value", got "${raw}"`);
  return [name, raw.slice(at + 1).trim()];
}
