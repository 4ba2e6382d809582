/** Checks of numeric options, made when a server part is built so that a typo fails at start, not at the first use. */
import { A2AConfigError } from '../kernel/config-error.js';

/** `value` when unset or a whole number ≥ `min`; else an {@link A2AConfigError} naming the option. */
export function wholeNumber(
  name: string,
  value: number | undefined,
  min: number,
): number | undefined {
  if (value === undefined) return undefined;
  if (!Number.isInteger(value) || value < min)
    throw new A2AConfigError(name, `${name} must be a whole number ≥ ${min}, got ${String(value)}`);
  return value;
}
