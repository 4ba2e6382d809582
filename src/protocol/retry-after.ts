/** The HTTP `Retry-After` header, as the client and the push sender read it (no Node built-ins). */

/**
 * The delay a `Retry-After` value asks for, in milliseconds: delay-seconds or an HTTP date (a date
 * already past is 0). Undefined when absent or unparsable.
 */
export function parseRetryAfter(
  value: string | null | undefined,
  nowMs = Date.now(),
): number | undefined {
  if (!value) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - nowMs);
}
