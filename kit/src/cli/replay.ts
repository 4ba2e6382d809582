/**
 * Replays `.http` scenario files against the running kit: one line per exchange, then a total line, and,
 * when exchanges failed for want of the deployer token, the command that sets it. Flags are in
 * REPLAY_COMMAND (commands.ts). Exit code 0 when every exchange passed, 1 on any failure or parse error,
 * 2 on bad usage.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { formatExchange, HttpFileParseError, replayHttpPath } from '../replay/index.js';
import type { ReplayReport } from '../replay/index.js';
import { elapsed } from '../planner/transcript.js';
import { REPLAY_COMMAND } from './commands.js';
import { UsageError, helpText, parseFlags, usageLine } from './flags.js';

/** `✔ total: …` / `✘ total: …` over every file. */
function totalLine(reports: ReplayReport[], files: number, ms: number): string {
  const exchanges = reports.flatMap((r) => r.exchanges);
  const failed = exchanges.filter((e) => !e.passed).length;
  const unread = reports.filter((r) => r.exchanges.length === 0 && !r.passed).length;
  const ok = reports.every((r) => r.passed);
  const n = `${exchanges.length} exchange${exchanges.length === 1 ? '' : 's'}`;
  const counts = failed
    ? `${exchanges.length - failed} passed, ${failed} failed of ${n}`
    : `${n} passed`;
  const where = `${files} file${files === 1 ? '' : 's'}`;
  return `${ok ? '✔' : '✘'} total: ${counts} in ${where}${unread ? `; ${unread} not replayed (see above)` : ''} (${elapsed(ms)})`;
}

/**
 * The fix for a missing or stale deployer token, when that is why exchanges failed: the files read it with
 * `{{$processEnv DEPLOYER_TOKEN}}`, and `npm run agents` keeps it in `<work dir>/deployer-token`.
 */
function tokenHint(reports: ReplayReport[], env: NodeJS.ProcessEnv): string[] {
  const failures = reports.flatMap((r) => r.exchanges).filter((e) => !e.passed);
  const unset = failures.some((e) =>
    e.failures.some((f) => f.message.includes('DEPLOYER_TOKEN is not set')),
  );
  const refused = !unset && failures.some((e) => e.status === 401);
  if (!unset && !refused) return [];
  const file = path.join(env.KIT_WORK_DIR ?? '.kit-work', 'deployer-token');
  const why = unset
    ? 'DEPLOYER_TOKEN is not set'
    : 'the deployer answered 401: DEPLOYER_TOKEN is not the token it was started with';
  if (!existsSync(file)) {
    return [
      `${why}. Start the agents with npm run agents (it keeps its token in ${file}), then:`,
      `  export DEPLOYER_TOKEN="$(cat ${file})"`,
    ];
  }
  return [
    `${why}. Set it from the running kit's token file and replay again:`,
    `  export DEPLOYER_TOKEN="$(cat ${file})"`,
  ];
}

async function main(argv: string[]): Promise<number> {
  const { values, positionals } = parseFlags(REPLAY_COMMAND, argv);
  if (values.bool('help')) {
    process.stdout.write(helpText(REPLAY_COMMAND));
    return 0;
  }
  if (positionals.length === 0) throw new UsageError('no .http file given');
  const variables: Record<string, string> = {};
  for (const pair of values.list('var')) {
    const eq = pair.indexOf('=');
    if (eq <= 0) throw new UsageError(`--var expects name=value, got "${pair}"`);
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const timeout = values.string('timeout');
  const timeoutMs = timeout !== undefined ? Number(timeout) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    throw new UsageError(`--timeout expects a positive integer (ms), got "${timeout}"`);
  }

  const json = values.bool('json');
  const print = (line: string): void => void process.stdout.write(`${line}\n`);
  const started = performance.now();
  const reports: ReplayReport[] = [];
  for (const file of positionals) {
    try {
      const report = await replayHttpPath(file, {
        variables,
        ...(timeoutMs !== undefined && { timeoutMs }),
        ...(!json && { onExchange: (r) => print(formatExchange(r, file)) }),
      });
      if (!json) for (const w of report.warnings) print(`! ${w}`);
      reports.push(report);
    } catch (err) {
      const message =
        err instanceof HttpFileParseError ? err.message : `${file}: ${(err as Error).message}`;
      reports.push({ file, passed: false, exchanges: [], warnings: [message] });
      if (!json) print(`✘ ${message}`);
    }
  }
  const hint = tokenHint(reports, process.env);
  if (json) {
    print(JSON.stringify(reports, null, 2));
    for (const line of hint) process.stderr.write(`${line}\n`);
  } else {
    print(totalLine(reports, positionals.length, performance.now() - started));
    for (const line of hint) print(line);
  }
  return reports.every((r) => r.passed) ? 0 : 1;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      err instanceof UsageError
        ? usageLine(REPLAY_COMMAND, err)
        : `replay: ${(err as Error).message}\n`,
    );
    process.exitCode = err instanceof UsageError ? 2 : 1;
  },
);
