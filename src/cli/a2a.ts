#!/usr/bin/env node
/**
 * The `a2a` command line (`npx a2a …` once a2a-kit is installed): talk to any A2A agent from a shell.
 * See `a2a --help`; the commands live in ./commands/.
 */
import { visible } from './safe-text.js';

// `a2a list … | head` closes the pipe early; that is the reader's choice, not a failure worth a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const io = {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
};
const argv = process.argv.slice(2);
// A bare --version answers without loading the commands and the client behind them.
const run: Promise<number> =
  argv.length === 1 && argv[0] === '--version'
    ? import('./version.js').then(({ versionText }) => (io.stdout.write(`${versionText()}\n`), 0))
    : import('./main.js').then(({ main }) => main(argv, io));
run.then(
  (code) => {
    // Exit once stdout is flushed: sockets kept alive by fetch must not hold the shell for seconds.
    process.stdout.write('', () => process.exit(code));
  },
  (err: unknown) => {
    process.stderr.write(
      `a2a: unexpected failure: ${visible(err instanceof Error ? (err.stack ?? err.message) : String(err))}\n`,
    );
    process.exit(1);
  },
);
