/**
 * How many connections a process can hold: every connection is a file descriptor, and a process out
 * of descriptors cannot accept, open a file or reach its store — 988 idle gRPC connections under
 * `nofile` 1024 made every agent of the process answer ECONNRESET (issue 28). The budget is the soft
 * `nofile` limit minus headroom for everything else the process opens.
 */

/** `/proc/self/limits`, read through node:fs got at call time: the module also loads on Workers, which have no node:fs. */
function readLimits(): string {
  const fs = globalThis.process?.getBuiltinModule?.('node:fs') as
    typeof import('node:fs') | undefined;
  if (!fs) throw new Error('node:fs is not available');
  return fs.readFileSync('/proc/self/limits', 'utf8');
}

/** The budget where the limit cannot be read (no `/proc`: macOS, Windows). */
export const FALLBACK_CONNECTION_BUDGET = 1024;

/**
 * The soft limit on open files, from `/proc/self/limits` (node raises it to the hard limit at start,
 * so this is what the process really has); undefined when unknown or unlimited.
 */
export function softNofileLimit(read: () => string = readLimits): number | undefined {
  let text: string;
  try {
    text = read();
  } catch {
    return undefined;
  }
  for (const line of text.split('\n')) {
    if (!line.startsWith('Max open files')) continue;
    const soft = line.slice('Max open files'.length).trim().split(/\s+/)[0];
    const n = Number(soft);
    return Number.isInteger(n) && n > 0 ? n : undefined;
  }
  return undefined;
}

/**
 * Connections allowed under a soft limit of `soft` descriptors: a quarter (at least 64) is left for
 * files, stores, outgoing calls and the listeners themselves; never fewer than 16.
 */
export function connectionBudgetFor(soft: number | undefined): number {
  if (soft === undefined) return FALLBACK_CONNECTION_BUDGET;
  return Math.max(16, soft - Math.max(64, Math.ceil(soft / 4)));
}
