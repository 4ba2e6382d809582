/** Protocol version negotiation helpers (spec §3.6). */

/**
 * The Major.Minor a request asks for. An absent or empty value means 0.3 (§3.6.2);
 * patch numbers are dropped (`1.0.1` → `1.0`). Returns undefined for a value that is not a version.
 */
export function requestedVersion(value: string | null | undefined): string | undefined {
  const v = (value ?? '').trim();
  if (v === '') return '0.3';
  const m = /^(\d+)\.(\d+)(?:\.\d+)?$/.exec(v);
  return m ? `${Number(m[1])}.${Number(m[2])}` : undefined;
}
