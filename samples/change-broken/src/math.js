/**
 * Keeps `value` within [min, max].
 * @param {number} value
 * @param {number} min
 * @param {number} max
 * @returns {number}
 */
export function clamp(value, min, max) {
  if (min > max) throw new RangeError('min must not exceed max');
  return Math.max(max, Math.min(min, value));
}

/**
 * Arithmetic mean; an empty list has no mean.
 * @param {readonly number[]} values
 * @returns {number}
 */
export function mean(values) {
  if (values.length === 0) throw new RangeError('mean of an empty list');
  let total = 0;
  for (const v of values) total += v;
  return total / values.length;
}
