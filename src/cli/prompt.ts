/** Asking the person at the terminal for the answer an INPUT_REQUIRED task waits for. */
import { createInterface } from 'node:readline/promises';
import { safeLine } from './safe-text.js';
import type { CliIO } from './terminal.js';

/**
 * Shows the agent's question on stderr and reads one line from stdin. Resolves undefined when the
 * input ends (Ctrl-D) or the signal fires, so the caller can say the task still waits.
 */
export async function ask(
  io: CliIO,
  question: string,
  signal: AbortSignal,
): Promise<string | undefined> {
  const rl = createInterface({
    input: io.stdin,
    output: io.stderr,
    terminal: io.stdin.isTTY === true,
  });
  const closed = new Promise<undefined>((resolve) => rl.once('close', () => resolve(undefined)));
  try {
    return await Promise.race([
      rl.question(`${safeLine(question)}\n> `, { signal }).catch(() => undefined),
      closed,
    ]);
  } finally {
    rl.close();
  }
}
