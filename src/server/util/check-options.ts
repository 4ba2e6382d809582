/** Checks of numeric options, made when a server part is built so that a typo fails at start, not at the first use. */

/** `value` when unset or a whole number ≥ `min`; else a RangeError naming the option. */
export function wholeNumber(
  name: string,
  value: number | undefined,
  min: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min)
    throw new RangeError(`${name} must be a whole number ≥ ${min}, got ${String(value)}`);
  return value;
}
