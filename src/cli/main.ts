/**
 * The `a2a` dispatcher: finds the command in the table (with "did you mean" for a typo), parses its
 * flags, wires Ctrl-C and `--timeout` to one abort signal, runs it, and turns whatever it throws into
 * a message on stderr and a documented exit code.
 */
import { DEFAULT_IDLE_TIMEOUT_MS, parseCommandLine, parseDuration } from './args.js';
import type { Command, CommandContext, IdleWatch } from './command.js';
import { COMMANDS } from './commands/index.js';
import { agentSettings, clientFor, discoverAgent } from './connect.js';
import { describeFailure, EXIT, UsageError, type StopReason } from './exit-codes.js';
import { commandHelp, globalHelp, usageLine, versionText } from './help.js';
import { didYouMean } from 'a2a-kit/cli-args';
import { Terminal, type CliIO } from './terminal.js';

/** The command named by the first one or two words, and the arguments after it. */
export function findCommand(
  argv: readonly string[],
  commands: readonly Command[] = COMMANDS,
): { command: Command; rest: string[] } {
  const [first = '', second] = argv;
  const two = commands.find((c) => second !== undefined && c.name === `${first} ${second}`);
  if (two) return { command: two, rest: argv.slice(2) };
  const one = commands.find((c) => c.name === first);
  if (one) return { command: one, rest: argv.slice(1) };
  const group = commands
    .filter((c) => c.name.startsWith(`${first} `))
    .map((c) => c.name.slice(first.length + 1));
  if (group.length) {
    const sub =
      second === undefined || second.startsWith('-')
        ? ''
        : ` "${second}"${didYouMean(second, group)}`;
    throw new UsageError(
      `a2a ${first} needs a subcommand (${group.join(', ')})${sub ? `; unknown${sub}` : ''}`,
    );
  }
  if (first.startsWith('-'))
    throw new UsageError(`put the command first: a2a <command> [arguments] [flags] (got ${first})`);
  const names = [...new Set(commands.map((c) => c.name.split(' ')[0]!))];
  throw new UsageError(`unknown command "${first}"${didYouMean(first, names)}`);
}

/** Runs `a2a` with `argv` (without node and the script); resolves with the exit code. */
export async function main(
  argv: readonly string[],
  io: CliIO,
  commands: readonly Command[] = COMMANDS,
): Promise<number> {
  const term = new Terminal(io);
  const write = (s: string) => io.stdout.write(`${s}\n`);
  if (argv.length === 0) {
    io.stderr.write(`${globalHelp(commands)}\n`);
    return EXIT.USAGE;
  }
  if (argv[0] === '--help' || argv[0] === '-h' || (argv[0] === 'help' && argv.length === 1))
    return (write(globalHelp(commands)), EXIT.OK);
  if (argv[0] === '--version') return (write(versionText()), EXIT.OK);

  let command: Command | undefined;
  try {
    const found = findCommand(argv[0] === 'help' ? argv.slice(1) : argv, commands);
    command = found.command;
    if (argv[0] === 'help') return (write(commandHelp(command)), EXIT.OK);
    const args = parseCommandLine(command, found.rest);
    if (args.flag('help')) return (write(commandHelp(command)), EXIT.OK);
    if (args.flag('version')) return (write(versionText()), EXIT.OK);
    return await run(command, args, io, term);
  } catch (err) {
    const f = describeFailure(err, undefined, undefined);
    term.note(`${term.err.red('a2a:')} ${f.message}`);
    if (command) term.note(term.err.dim(`${usageLine(command)}   (a2a ${command.name} --help)`));
    else term.note(term.err.dim('run a2a --help for the commands'));
    return f.code;
  }
}

async function run(
  command: Command,
  args: ReturnType<typeof parseCommandLine>,
  io: CliIO,
  term: Terminal,
): Promise<number> {
  const timeoutText = args.str('timeout');
  const timeoutMs = timeoutText !== undefined ? parseDuration(timeoutText, '--timeout') : undefined;
  const settings = command.agent ? agentSettings(args, io.env, timeoutMs) : undefined;
  const controller = new AbortController();
  let stopped: StopReason;
  const timer =
    timeoutMs !== undefined
      ? setTimeout(() => ((stopped = 'timeout'), controller.abort()), timeoutMs)
      : undefined;
  let interrupts = 0;
  const onInterrupt = () => {
    // A second Ctrl-C means "now", whatever is still being cleaned up.
    if (++interrupts > 1) process.exit(EXIT.INTERRUPTED);
    stopped = 'interrupted';
    controller.abort();
  };
  process.on('SIGINT', onInterrupt);
  const idleText = args.str('idle-timeout');
  const idleMs =
    idleText !== undefined ? parseDuration(idleText, '--idle-timeout') : DEFAULT_IDLE_TIMEOUT_MS;
  let idleTimer: NodeJS.Timeout | undefined;
  const idle: IdleWatch = {
    touch() {
      clearTimeout(idleTimer);
      idleTimer = setTimeout(() => {
        stopped ??= 'idle';
        controller.abort();
      }, idleMs);
    },
    stop: () => clearTimeout(idleTimer),
  };
  const need = () => {
    if (!settings) throw new Error(`a2a ${command.name} does not talk to an agent`);
    return settings;
  };
  const ctx: CommandContext = {
    args,
    term,
    io,
    signal: controller.signal,
    json: args.flag('json'),
    timeoutMs,
    settings,
    discover: (url, o) => discoverAgent(url, need(), term, controller.signal, o?.verify ?? false),
    client: (agent) => clientFor(agent, need(), term),
    connect: async (url) =>
      clientFor(await discoverAgent(url, need(), term, controller.signal, true), need(), term),
    idle,
  };
  try {
    return await command.run(ctx);
  } catch (err) {
    term.done();
    const f = describeFailure(err, stopped, {
      timeout: timeoutText,
      idle: idleText ?? `${DEFAULT_IDLE_TIMEOUT_MS / 60_000} min`,
    });
    term.note(`${term.err.red('a2a:')} ${f.message}`);
    for (const h of f.hints) term.note(term.err.dim(h));
    if (f.code === EXIT.USAGE)
      term.note(term.err.dim(`${usageLine(command)}   (a2a ${command.name} --help)`));
    return f.code;
  } finally {
    if (timer) clearTimeout(timer);
    idle.stop();
    process.off('SIGINT', onInterrupt);
  }
}
