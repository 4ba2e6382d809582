/**
 * The flag tables of docs/kit.md come from the commands' own tables (commands.ts). Each sits between
 * `<!-- flags:NAME -->` and `<!-- /flags:NAME -->`; `node --import tsx kit/src/cli/readme-flags.ts` rewrites
 * them in docs/kit.md (or the file given), and a test fails when they differ from what the commands accept.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { KIT_COMMANDS } from './commands.js';
import { readmeTable } from './flags.js';

/** `text` with every `flags:NAME` block replaced by the current table of that command. */
export function withFlagTables(text: string): string {
  let out = text;
  for (const cmd of KIT_COMMANDS) {
    const open = `<!-- flags:${cmd.name} -->`;
    const close = `<!-- /flags:${cmd.name} -->`;
    const a = out.indexOf(open);
    const b = out.indexOf(close);
    if (a < 0 || b < a) continue;
    out = `${out.slice(0, a + open.length)}\n${readmeTable(cmd)}\n${out.slice(b)}`;
  }
  return out;
}

/** The command names whose block is missing from `text`. */
export function missingFlagTables(text: string): string[] {
  return KIT_COMMANDS.filter(
    (c) =>
      !text.includes(`<!-- flags:${c.name} -->`) || !text.includes(`<!-- /flags:${c.name} -->`),
  ).map((c) => c.name);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const file = process.argv[2] ?? 'docs/kit.md';
  const text = readFileSync(file, 'utf8');
  const updated = withFlagTables(text);
  if (updated !== text) writeFileSync(file, updated);
  const missing = missingFlagTables(updated);
  process.stdout.write(
    `${file}: flag tables ${updated === text ? 'already current' : 'rewritten'}${missing.length ? `; no block for ${missing.join(', ')}` : ''}\n`,
  );
}
