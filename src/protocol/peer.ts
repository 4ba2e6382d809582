/**
 * Optional peer dependencies (pg, ioredis, @grpc/grpc-js, @opentelemetry/api) are loaded by the entry
 * point that needs them. Node's own error for a missing one ("Cannot find package 'pg' imported from
 * …/dist/…") names a file inside a2a-kit and no remedy; this one names the entry point, the package
 * and the command that installs it.
 */

/** The message given when `pkg`, needed by `entry`, is not installed. */
export function missingPeerMessage(entry: string, pkg: string, install: string): string {
  return `${entry} needs the package ${pkg}, which is not installed: ${install}`;
}

/** True when `err` says that `pkg` itself (not something it imports) could not be found. */
export function isMissingPackage(err: unknown, pkg: string): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (code !== 'ERR_MODULE_NOT_FOUND' && code !== 'MODULE_NOT_FOUND') return false;
  const message = String((err as { message?: unknown }).message ?? '');
  return message.includes(`'${pkg}'`) || message.includes(`"${pkg}"`);
}

/**
 * Runs `load` (an `import('pkg')` written out, so bundlers and types see it); when `pkg` is missing,
 * throws an Error that says which entry point needs it and how to install it, with Node's as `cause`.
 */
export async function importPeer<T>(
  load: () => Promise<T>,
  pkg: string,
  entry: string,
  install = `npm install ${pkg}`,
): Promise<T> {
  try {
    return await load();
  } catch (err) {
    if (!isMissingPackage(err, pkg)) throw err;
    throw new Error(missingPeerMessage(entry, pkg, install), { cause: err });
  }
}
