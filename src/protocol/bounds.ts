/**
 * Bounds on what an error says and on the lists a request may carry, so that an answer never grows
 * with the mistakes in a request: 200,000 empty parts (0.6 MB) once answered a 40 MB error listing
 * each of them, and over gRPC a 242 KB status header that wedged the connection (issue 28). An error
 * lists its first {@link MAX_VIOLATIONS} field violations and counts the rest; every text in it is
 * clamped. Imports nothing, so that errors.ts and the schemas can both use it.
 */

/** Most field violations one error lists; the rest are counted in its message. */
export const MAX_VIOLATIONS = 20;
/** Longest field path or description one violation keeps (characters). */
export const MAX_VIOLATION_TEXT = 256;
/** Longest message any error carries (characters): peer text echoed in one stays small. */
export const MAX_ERROR_MESSAGE = 4096;
/**
 * Most members of a list in one request: parts of a message, and its extensions, reference task ids
 * and accepted output modes. A longer list is refused before its members are checked one by one.
 */
export const MAX_LIST_ITEMS = 1000;

/** `text` cut to at most `max` characters (the cut marked with …), never inside a surrogate pair. */
export function clampText(text: string, max: number): string {
  if (text.length <= max) return text;
  let end = max - 1;
  const c = text.charCodeAt(end - 1);
  if (c >= 0xd800 && c <= 0xdbff) end--; // a high surrogate whose pair would be cut off
  return `${text.slice(0, end)}…`;
}

/** The violations an error lists (the first {@link MAX_VIOLATIONS}, each clamped) and how many more there were. */
export function boundViolations<V extends { field: string; description: string }>(
  violations: readonly V[],
  omitted = 0,
): { listed: V[]; more: number } {
  const listed = violations.slice(0, MAX_VIOLATIONS).map((v) =>
    v.field.length <= MAX_VIOLATION_TEXT && v.description.length <= MAX_VIOLATION_TEXT
      ? v
      : {
          ...v,
          field: clampText(v.field, MAX_VIOLATION_TEXT),
          description: clampText(v.description, MAX_VIOLATION_TEXT),
        },
  );
  return { listed, more: violations.length - listed.length + omitted };
}

/** `a: must be…; b: is required (and 3 more)`: the listed violations, and the count of the rest. */
export function violationsText(
  listed: ReadonlyArray<{ field: string; description: string }>,
  more: number,
): string {
  const text = listed.map((v) => `${v.field}: ${v.description}`).join('; ');
  return more > 0 ? `${text} (and ${more} more)` : text;
}

/**
 * A refusal of a list longer than {@link MAX_LIST_ITEMS}, as a violation; undefined when `list` is
 * not an array or is short enough (what is in it is checked elsewhere).
 */
export function tooManyItems(
  list: unknown,
  field: string,
  what: string,
): { field: string; description: string } | undefined {
  if (!Array.isArray(list) || list.length <= MAX_LIST_ITEMS) return undefined;
  return {
    field,
    description: `has ${list.length} ${what}; at most ${MAX_LIST_ITEMS} are accepted in one request`,
  };
}
