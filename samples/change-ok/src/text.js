/**
 * Turns a title into a URL slug: lower case, ASCII letters and digits, single dashes.
 * @param {string} title
 * @returns {string}
 */
export function slugify(title) {
  return title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

/**
 * Shortens text to at most `max` characters, ending with an ellipsis when something was cut.
 * @param {string} text
 * @param {number} max
 * @returns {string}
 */
export function truncate(text, max) {
  if (max < 1) throw new RangeError('max must be at least 1');
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
