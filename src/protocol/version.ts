/** Protocol version handling (spec §3.6): only Major.Minor matters, on both sides. */
import { A2AError } from './errors.js';
import { PROTOCOL_VERSION } from './operations.js';

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

/**
 * VersionNotSupported (§3.6.2) for the version a request asked for (`sent` as it came, possibly
 * absent), naming the versions this URL answers in.
 */
export function versionNotSupported(
  sent: string | undefined,
  served: readonly string[] = [PROTOCOL_VERSION],
): A2AError {
  const asked =
    sent === undefined || sent.trim() === ''
      ? 'no A2A-Version, which means 0.3 (§3.6.2)'
      : `A2A-Version "${sent.slice(0, 40)}"`;
  const only = served.length === 1 ? `only ${served[0]}` : served.join(' and ');
  return new A2AError(
    'VersionNotSupported',
    `The request has ${asked}; this interface speaks ${only}: send A2A-Version: ${PROTOCOL_VERSION}`,
  );
}
