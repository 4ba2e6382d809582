/**
 * `npm run inspector [-- --port 41250] [--host 127.0.0.1] [--agent <url>] [--agents <url,url>]
 * [--timeout <ms>]`:
 * starts the inspector, prints its URL (the agent's card link when `--agent` is given), and runs
 * until Ctrl-C. `a2a inspect` does the same through {@link startInspector}.
 */
import { startInspector, type InspectorOptions } from './server.js';

const USAGE =
  'usage: npm run inspector -- [--port 41250] [--host 127.0.0.1] [--agent <url>] [--agents <url>,<url>] [--timeout <ms>]';

function parse(argv: string[]): { options: InspectorOptions; agent?: string } {
  const options: InspectorOptions = {};
  let agent: string | undefined;
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i]!;
    const value = argv[i + 1];
    if (flag === '--help' || flag === '-h') throw new Error(USAGE);
    if (value === undefined || value.startsWith('--'))
      throw new Error(`${flag} needs a value\n${USAGE}`);
    i++;
    if (flag === '--port') {
      if (!/^\d+$/.test(value) || Number(value) > 65535)
        throw new Error(`--port expects a port number (0 for any free port), got "${value}"`);
      options.port = Number(value);
    } else if (flag === '--timeout') {
      if (!/^[1-9]\d{0,8}$/.test(value))
        throw new Error(
          `--timeout expects milliseconds above 0 (how long to wait for an agent), got "${value}"`,
        );
      options.timeoutMs = Number(value);
    } else if (flag === '--host') options.host = value;
    else if (flag === '--agent') agent = value;
    else if (flag === '--agents')
      options.agents = value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
    else throw new Error(`unknown flag ${flag}\n${USAGE}`);
  }
  return { options, ...(agent ? { agent } : {}) };
}

async function main(): Promise<void> {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(process.argv.slice(2));
  } catch (err) {
    process.stderr.write(`${(err as Error).message}\n`);
    process.exit(2);
  }
  const inspector = await startInspector(parsed.options);
  process.stdout.write(
    `a2a-kit inspector at ${parsed.agent ? inspector.link(parsed.agent) : inspector.url}  (Ctrl-C stops it)\n`,
  );
  const stop = (): void => {
    void inspector.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  const e = err as NodeJS.ErrnoException;
  const hint =
    e.code === 'EADDRINUSE'
      ? ' (the port is taken: pass --port 0 for any free port, or another number)'
      : '';
  process.stderr.write(`inspector failed: ${e.message}${hint}\n`);
  process.exit(1);
});
