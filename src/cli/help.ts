/** `a2a --help`, `a2a <command> --help` and `a2a --version`, written from the command table. */
import { PROTOCOL_VERSION } from 'a2a-kit';
import { AGENT_OPTIONS, CLI_BINDINGS, GLOBAL_OPTIONS } from './args.js';
import type { Command, OptionSpec } from './command.js';
import { EXIT_CODE_HELP } from './exit-codes.js';

import { packageVersion } from './version.js';

export { packageVersion, versionText } from './version.js';

function flagLines(options: Readonly<Record<string, OptionSpec>>): string[] {
  const rows = Object.entries(options).map(([name, o]) => {
    const flag = `${o.short ? `-${o.short}, ` : ''}--${name}${o.value ? ` ${o.value}` : ''}`;
    return [
      flag,
      `${o.help}${o.multiple && !/repeatable/.test(o.help) ? ' (repeatable)' : ''}`,
    ] as const;
  });
  const width = Math.min(30, Math.max(...rows.map(([f]) => f.length)) + 2);
  return rows.map(
    ([f, h]) => `  ${f.padEnd(width)}${f.length >= width ? `\n  ${''.padEnd(width)}` : ''}${h}`,
  );
}

/** The usage line of a command. */
export function usageLine(c: Command): string {
  return `usage: a2a ${c.name}${c.usage ? ` ${c.usage}` : ''} [flags]`;
}

/** The whole `a2a --help`. */
export function globalHelp(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => `${c.name} ${c.usage}`.length)) + 2;
  return [
    `a2a ${packageVersion()} — talk to any A2A agent from a shell (A2A protocol ${PROTOCOL_VERSION}; ${CLI_BINDINGS.join(', ')})`,
    '',
    'usage: a2a <command> [arguments] [flags]',
    '',
    'commands',
    ...commands.map((c) => `  ${`${c.name} ${c.usage}`.trim().padEnd(width)}${c.summary}`),
    '',
    'flags of the commands that talk to an agent',
    ...flagLines(AGENT_OPTIONS),
    '',
    'flags of every command',
    ...flagLines(GLOBAL_OPTIONS),
    '',
    'exit codes',
    ...EXIT_CODE_HELP.map(([code, text]) => `  ${String(code).padStart(3)}  ${text}`),
    '',
    'environment',
    '  A2A_TOKEN   default for --token (keeps the token out of your shell history)',
    '  NO_COLOR    no colours (colours are only used on a terminal anyway)',
    '',
    'Output: results on stdout (lines, or JSON with --json); progress, notes and errors on stderr.',
    "Run `a2a <command> --help` for the command's own flags and examples.",
  ].join('\n');
}

/** `a2a <command> --help`. */
export function commandHelp(c: Command): string {
  const out = [usageLine(c), '', `${c.summary}.`];
  for (const d of c.details ?? []) out.push('', d);
  if (Object.keys(c.options).length) out.push('', 'flags', ...flagLines(c.options));
  if (c.agent) out.push('', 'agent flags', ...flagLines(AGENT_OPTIONS));
  out.push('', 'common flags', ...flagLines(GLOBAL_OPTIONS));
  if (c.examples?.length) out.push('', 'examples', ...c.examples.map((e) => `  ${e}`));
  out.push('', 'Exit codes: see `a2a --help`.');
  return out.join('\n');
}
