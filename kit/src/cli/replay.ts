/**
 * Replays `.http` scenario files against the running kit and prints one line per exchange.
 * Usage: replay [--var name=value]... [--timeout ms] [--json] FILE.http...
 * Exit code 0 when every exchange passed, 1 on any failure or parse error, 2 on bad usage.
 */
import { parseArgs } from 'node:util';
import { formatExchange, HttpFileParseError, replayHttpPath } from '../replay/index.js';
import type { ReplayReport } from '../replay/index.js';

const USAGE = 'usage: replay [--var name=value]... [--timeout ms] [--json] FILE.http...';

async function main(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        var: { type: 'string', multiple: true, short: 'v' },
        timeout: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n${USAGE}`);
    return 2;
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  if (positionals.length === 0) {
    console.error(USAGE);
    return 2;
  }
  const variables: Record<string, string> = {};
  for (const pair of values.var ?? []) {
    const eq = pair.indexOf('=');
    if (eq <= 0) {
      console.error(`--var expects name=value, got "${pair}"`);
      return 2;
    }
    variables[pair.slice(0, eq)] = pair.slice(eq + 1);
  }
  const timeoutMs = values.timeout !== undefined ? Number(values.timeout) : undefined;
  if (timeoutMs !== undefined && !(Number.isInteger(timeoutMs) && timeoutMs > 0)) {
    console.error(`--timeout expects a positive integer (ms), got "${values.timeout}"`);
    return 2;
  }

  let failed = false;
  const reports: ReplayReport[] = [];
  for (const file of positionals) {
    try {
      const report = await replayHttpPath(file, {
        variables,
        ...(timeoutMs !== undefined && { timeoutMs }),
        ...(!values.json && { onExchange: (r) => console.log(formatExchange(r, file)) }),
      });
      if (!values.json) for (const w of report.warnings) console.log(`! ${w}`);
      reports.push(report);
      failed ||= !report.passed;
    } catch (err) {
      failed = true;
      const message = err instanceof HttpFileParseError ? err.message : `${file}: ${(err as Error).message}`;
      if (values.json) reports.push({ file, passed: false, exchanges: [], warnings: [message] });
      else console.log(`✘ ${message}`);
    }
  }
  if (values.json) console.log(JSON.stringify(reports, null, 2));
  return failed ? 1 : 0;
}

process.exitCode = await main(process.argv.slice(2));
