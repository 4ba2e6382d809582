/**
 * The kit's commands describe their flags once, as a table of {@link Flag}s; parsing, `--help` and the
 * README's flag tables are all made from that table, so they cannot drift apart and a new flag is one line.
 */
import { parseArgs } from 'node:util';
import { closest } from 'a2a-kit/cli-args';

/** One flag of a kit command. */
export interface Flag {
  /** Long name without the dashes, e.g. `ports`. */
  readonly name: string;
  /** Placeholder of the value in help (`DIR`, `P1,P2,P3`); absent for a switch that takes no value. */
  readonly value?: string;
  /** One-letter alias, e.g. `v` for `-v`. */
  readonly short?: string;
  /** May be given several times; the values are kept in order. */
  readonly multiple?: boolean;
  /** Environment variable with the same meaning (the flag wins over it). */
  readonly env?: string;
  /** The default, as a user would write it. */
  readonly default?: string;
  /** What it does, in one line. */
  readonly help: string;
}

/** A kit command: what `--help` prints and what the README lists. */
export interface Command {
  /** Short name used in messages, e.g. `planner`. */
  readonly name: string;
  /** How a user runs it, e.g. `npm run planner --`. */
  readonly run: string;
  /** One or two sentences on what it does. */
  readonly summary: string;
  /** Positional arguments in help, e.g. `FILE.http...`; absent when the command takes none. */
  readonly args?: string;
  readonly flags: readonly Flag[];
  /** A hint for a flag people reach for by mistake (flag name → hint), beyond the spelling suggestion. */
  readonly hints?: Readonly<Record<string, string>>;
  /** Lines printed after the flags (environment-only settings, exit codes). */
  readonly notes?: readonly string[];
}

/** Bad usage: the message says what was wrong; commands print it with a pointer to `--help` and exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** The `--help` flag every kit command has. */
export const HELP_FLAG: Flag = { name: 'help', short: 'h', help: 'print this help and exit' };

/** Parsed flag values, looked up by the flag's name; asking for a name the table lacks is a bug and throws. */
export class FlagValues {
  readonly #known: ReadonlyMap<string, Flag>;
  readonly #values = new Map<string, string | string[] | true>();

  constructor(flags: readonly Flag[]) {
    this.#known = new Map(flags.map((f) => [f.name, f]));
  }

  /** @internal */
  set(flag: Flag, value: string | true): void {
    if (flag.multiple && typeof value === 'string') {
      const list = this.#values.get(flag.name);
      this.#values.set(flag.name, [...(Array.isArray(list) ? list : []), value]);
    } else this.#values.set(flag.name, value);
  }

  /** The value of a flag that takes one (the last one given), or undefined. */
  string(name: string): string | undefined {
    const v = this.#values.get(this.#check(name));
    return typeof v === 'string' ? v : undefined;
  }

  /** Whether a switch was given. */
  bool(name: string): boolean {
    return this.#values.get(this.#check(name)) === true;
  }

  /** Every value of a `multiple` flag, in order. */
  list(name: string): string[] {
    const v = this.#values.get(this.#check(name));
    return Array.isArray(v) ? [...v] : typeof v === 'string' ? [v] : [];
  }

  /** Whether the flag was given at all. */
  has(name: string): boolean {
    return this.#values.has(this.#check(name));
  }

  #check(name: string): string {
    if (!this.#known.has(name))
      throw new Error(`internal: no flag --${name} in this command's table`);
    return name;
  }
}

/**
 * Parses `argv` against a command's flags with node:util parseArgs: `--name value`, `--name=value`,
 * `-x value`, switches, and positionals when the command takes them (`--` ends the flags). An unknown
 * flag is a {@link UsageError} that suggests the nearest known one; a flag right after a flag that
 * needs a value counts as that value forgotten.
 */
export function parseFlags(
  cmd: Pick<Command, 'name' | 'flags' | 'args' | 'hints'>,
  argv: readonly string[],
): { values: FlagValues; positionals: string[] } {
  const options = Object.fromEntries(
    cmd.flags.map((f) => [
      f.name,
      {
        type: f.value ? ('string' as const) : ('boolean' as const),
        ...(f.short ? { short: f.short } : {}),
        ...(f.multiple ? { multiple: true } : {}),
      },
    ]),
  );
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...argv], options, allowPositionals: true, strict: true });
  } catch (err) {
    throw usageFrom(err as Error & { code?: string }, cmd);
  }
  const values = new FlagValues(cmd.flags);
  for (const flag of cmd.flags) {
    const v = parsed.values[flag.name];
    for (const one of Array.isArray(v) ? v : v === undefined ? [] : [v])
      values.set(flag, one === true ? true : String(one));
  }
  if (parsed.positionals.length > 0 && !cmd.args) {
    throw new UsageError(
      `unexpected argument "${parsed.positionals[0]}" (${cmd.name} takes flags only)`,
    );
  }
  return { values, positionals: parsed.positionals };
}

/** node:util's parse error in the kit's words. */
function usageFrom(
  err: Error & { code?: string },
  cmd: Pick<Command, 'name' | 'flags' | 'hints'>,
): UsageError {
  const named = /'(-{1,2}[^'\s=<]+)/.exec(err.message)?.[1] ?? '';
  const bare = named.replace(/^-+/, '');
  const flag = cmd.flags.find((f) => (named.startsWith('--') ? f.name : f.short) === bare);
  if (err.code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(unknownFlag(named, cmd));
  if (err.code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && flag) {
    return new UsageError(
      flag.value ? `--${flag.name} needs a value (${flag.value})` : `--${flag.name} takes no value`,
    );
  }
  return new UsageError(err.message);
}

function unknownFlag(given: string, cmd: Pick<Command, 'name' | 'flags' | 'hints'>): string {
  const bare = given.replace(/^-+/, '');
  const hint = cmd.hints?.[bare];
  if (hint) return `unknown flag ${given}: ${hint}`;
  const near = didYouMean(
    bare,
    cmd.flags.map((f) => f.name),
  );
  return `unknown flag ${given}${near ? ` (did you mean --${near}?)` : ''}`;
}

/**
 * The known name closest to `given`, when it is close enough to be a slip, or the one name it starts;
 * the same suggester as the `a2a` command line's (`a2a-kit/cli-args`).
 */
export const didYouMean = (given: string, known: readonly string[]): string | undefined =>
  closest(given, known);

/** How a flag is written in help and in the README: `-v, --var NAME=VALUE`. */
export function flagLabel(f: Flag): string {
  return `${f.short ? `-${f.short}, ` : ''}--${f.name}${f.value ? ` ${f.value}` : ''}`;
}

// Help reads well in an 80-column terminal and does not wrap in a 100-column one.
const HELP_WIDTH = 96;

/** The text `--help` prints. */
export function helpText(cmd: Command): string {
  const labels = cmd.flags.map(flagLabel);
  const width = Math.min(30, Math.max(...labels.map((l) => l.length)));
  const lines = [
    `usage: ${cmd.run} [flags]${cmd.args ? ` ${cmd.args}` : ''}`,
    '',
    ...wrap(cmd.summary, HELP_WIDTH),
    '',
    'flags:',
  ];
  cmd.flags.forEach((f, i) => {
    const extra = [
      f.env ? `env ${f.env}` : '',
      f.default !== undefined ? `default ${f.default}` : '',
    ]
      .filter(Boolean)
      .join('; ');
    const text = `${f.help}${extra ? ` [${extra}]` : ''}`;
    const label = labels[i]!;
    const indent = ' '.repeat(width + 4);
    const body = wrap(text, Math.max(40, HELP_WIDTH - indent.length));
    if (label.length > width) lines.push(`  ${label}`);
    body.forEach((l, j) =>
      lines.push(
        j === 0 && label.length <= width ? `  ${label.padEnd(width)}  ${l}` : `${indent}${l}`,
      ),
    );
  });
  if (cmd.notes?.length) lines.push('', ...cmd.notes.flatMap((n) => wrap(n, HELP_WIDTH)));
  return `${lines.join('\n')}\n`;
}

/** The README's table of a command's flags (Markdown). */
export function readmeTable(cmd: Command): string {
  const cell = (s: string): string => s.replace(/\|/g, '\\|');
  const rows = cmd.flags.map(
    (f) =>
      `| \`${cell(flagLabel(f))}\` | ${f.env ? `\`${f.env}\`` : ''} | ${f.default === undefined ? '' : /\s/.test(f.default) ? cell(f.default) : `\`${cell(f.default)}\``} | ${cell(f.help)} |`,
  );
  return ['| flag | environment | default | what it does |', '|---|---|---|---|', ...rows].join(
    '\n',
  );
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/)) {
    if (line && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  if (line) out.push(line);
  return out;
}

/** What a command prints for bad usage (then it exits 2): the problem and where the flags are listed. */
export function usageLine(cmd: Pick<Command, 'name' | 'run'>, err: Error): string {
  return `${cmd.name}: ${err.message}\n(${cmd.run} --help lists the flags)\n`;
}
