/** Protocol version handling (spec §3.6): only Major.Minor matters, on both sides. */

/** `1.0.1` → `1.0`; `1` → `1.0`; anything else → undefined. Patch numbers never matter (§3.6). */
export function majorMinor(version: unknown): string | undefined {
  if (typeof version !== 'string') return undefined;
  if (version === '1.0') return version; // what nearly every request sends, without a regex match

  const m = /^\s*v?(\d+)(?:\.(\d+))?(?:\.\d+)?\s*$/.exec(version);
  return m ? `${Number(m[1])}.${Number(m[2] ?? 0)}` : undefined;
}

/**
 * The Major.Minor a request asks for with its `A2A-Version` service parameter. An absent or empty
 * value means 0.3 (§3.6.2). Returns undefined for a value that is not a version.
 */
export function requestedVersion(value: string | null | undefined): string | undefined {
  return (value ?? '').trim() === '' ? '0.3' : majorMinor(value);
}
