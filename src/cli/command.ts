/**
 * The shape of one `a2a` command. Commands live one per module under `commands/` and are listed in
 * `commands/index.ts`; the dispatcher, the parser, `--help` and "did you mean" work from this
 * description alone, so adding a command (e.g. `a2a inspect`) is one module and one table entry.
 */
import type { Args, OptionSpec } from './args.js';
import type { AgentConnection, AgentSettings, DiscoveredAgent } from './connect.js';
import type { CliIO, Terminal } from './terminal.js';

export type { OptionSpec } from './args.js';

/** One `a2a` command. */
export interface Command {
  /** What the user types, e.g. `card` or `push listen` (words separated by one space). */
  name: string;
  /** One line for `a2a --help`. */
  summary: string;
  /** The positional arguments for the usage line, e.g. `<url> <task-id>`. */
  usage: string;
  /** How many positional arguments it takes. */
  positionals: { min: number; max: number };
  /** Whether it talks to an agent, and so takes `--token`, `--header`, `--binding`, `--tenant`, `--trust-jwks`, … */
  agent: boolean;
  /** Its own flags (the common ones are added by the parser). */
  options: Readonly<Record<string, OptionSpec>>;
  /** Paragraphs shown by `a2a <command> --help` after the usage line. */
  details?: readonly string[];
  /** Example invocations for `--help`. */
  examples?: readonly string[];
  /** Runs the command; resolves with the exit code (see EXIT), or throws (mapped by describeFailure). */
  run(ctx: CommandContext): Promise<number>;
}

/** What a running command gets. */
export interface CommandContext {
  /** The parsed command line. */
  args: Args;
  /** Where to write. */
  term: Terminal;
  /** The raw streams and environment. */
  io: CliIO;
  /** Aborts on Ctrl-C and when `--timeout` passes; hand it to every call. */
  signal: AbortSignal;
  /** `--json`: one JSON document, or NDJSON per event, on stdout. */
  json: boolean;
  /** `--timeout` in milliseconds, when given. */
  timeoutMs: number | undefined;
  /** The agent flags, checked (undefined for a command that talks to no agent). */
  settings: AgentSettings | undefined;
  /** Fetches the agent's card at `url` (a base URL or the card's URL) with the agent flags; checks its signature when `verify`. */
  discover(url: string, options?: { verify?: boolean }): Promise<DiscoveredAgent>;
  /** Builds the client for a discovered agent (interface choice, credentials, headers, `--verbose`). */
  client(agent: DiscoveredAgent): AgentConnection;
  /** `discover` then `client`. */
  connect(url: string): Promise<AgentConnection>;
  /** The `--idle-timeout` watchdog of streams and polling: it aborts `signal` when nothing new comes. */
  idle: IdleWatch;
}

/** Ends a stream or a polling loop that shows nothing new for `--idle-timeout` (exit 12). */
export interface IdleWatch {
  /** Something new arrived (or waiting begins): the wait starts again. */
  touch(): void;
  /** Waiting is over (the stream ended, the task settled): the watchdog is off until the next touch. */
  stop(): void;
}
