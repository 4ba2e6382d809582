/**
 * The deployer's bearer token for `npm run agents`: DEPLOYER_TOKEN when set, else the token kept in
 * `<work dir>/deployer-token`, made once and reused on every start — a fresh token per start would break
 * every shell and editor that exported the previous one. `--new-token` replaces it on purpose.
 */
import { randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { UsageError } from './flags.js';

/** The token to use and one line saying where it came from (never the token itself). */
export interface DeployerToken {
  token: string;
  /** Where the token came from, for the start-up summary. */
  note: string;
  /** The file holding it, when it is the kit's own. */
  file?: string;
}

const USABLE = /^[\x21-\x7e]{16,}$/;

/** Picks the token as described above; `renew` is `--new-token`. */
export async function deployerToken(
  workDir: string,
  env: NodeJS.ProcessEnv,
  renew: boolean,
): Promise<DeployerToken> {
  const fromEnv = env.DEPLOYER_TOKEN?.trim();
  if (fromEnv) {
    if (renew)
      throw new UsageError(
        '--new-token replaces the stored token, but DEPLOYER_TOKEN is set and would be used instead: unset it first',
      );
    return { token: fromEnv, note: 'from DEPLOYER_TOKEN' };
  }
  const file = path.join(workDir, 'deployer-token');
  const rel = path.relative(process.cwd(), file);
  const exportHint = `export DEPLOYER_TOKEN="$(cat ${rel && !rel.startsWith('..') ? rel : file})"`;
  if (!renew) {
    const kept = await readKept(file);
    if (kept.token)
      return {
        token: kept.token,
        file,
        note: `kept in ${file} (the same as last start; --new-token replaces it)`,
      };
    if (kept.unusable) {
      const token = await writeNew(workDir, file);
      return {
        token,
        file,
        note: `${file} held no usable token, so a new one was generated, stored in ${file} (mode 0600); ${exportHint}`,
      };
    }
  }
  const token = await writeNew(workDir, file);
  return renew
    ? {
        token,
        file,
        note: `replaced: a fresh one is stored in ${file} (mode 0600); shells that exported the old one must run ${exportHint}`,
      }
    : {
        token,
        file,
        note: `generated, stored in ${file} (mode 0600); for the .http files: ${exportHint}`,
      };
}

async function readKept(file: string): Promise<{ token?: string; unusable?: boolean }> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return {};
    throw new Error(`cannot read the stored deployer token ${file}: ${(err as Error).message}`, {
      cause: err,
    });
  }
  const token = text.trim();
  if (!USABLE.test(token)) return { unusable: true };
  // Someone may have loosened it (a copy, a restore); the token is a password, so it goes back to owner-only.
  if (((await stat(file)).mode & 0o077) !== 0) await chmod(file, 0o600);
  return { token };
}

/** A 256-bit token only the owner can read; written beside and renamed so it is never half there. */
async function writeNew(workDir: string, file: string): Promise<string> {
  await mkdir(workDir, { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.tmp`;
  const token = randomBytes(32).toString('base64url');
  await writeFile(tmp, `${token}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600); // the umask cannot widen it, but an old file's mode could linger on some systems
  await rename(tmp, file);
  return token;
}
