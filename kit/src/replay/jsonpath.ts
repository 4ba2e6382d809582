import type { PathSegment } from './types.js';

/**
 * Parses the JSONPath subset the scenarios use: `$`, `.name`, `[0]`, `[-1]` (from the end),
 * `['name']` / `["name"]`. Throws on anything else so a typo fails at parse time, not as a
 * confusing "absent" at run time.
 */
export function parseJsonPath(text: string): PathSegment[] {
  if (!text.startsWith('$')) throw new Error(`JSONPath must start with "$": ${text}`);
  const segments: PathSegment[] = [];
  let i = 1;
  while (i < text.length) {
    const ch = text[i];
    if (ch === '.') {
      const m = /^[A-Za-z_$][\w$-]*/.exec(text.slice(i + 1));
      if (!m) throw new Error(`JSONPath: expected a name after "." at offset ${i} in ${text}`);
      segments.push(m[0]);
      i += 1 + m[0].length;
    } else if (ch === '[') {
      const rest = text.slice(i);
      const index = /^\[(-?\d+)\]/.exec(rest);
      const quoted = /^\[(?:'([^']*)'|"([^"]*)")\]/.exec(rest);
      if (index?.[1] !== undefined) {
        segments.push(Number(index[1]));
        i += index[0].length;
      } else if (quoted) {
        segments.push(quoted[1] ?? quoted[2] ?? '');
        i += quoted[0].length;
      } else {
        throw new Error(`JSONPath: unsupported bracket at offset ${i} in ${text}`);
      }
    } else {
      throw new Error(`JSONPath: unexpected "${ch}" at offset ${i} in ${text}`);
    }
  }
  return segments;
}

/** Follows a parsed path; undefined when any step is missing. */
export function getPath(root: unknown, path: readonly PathSegment[]): unknown {
  let current: unknown = root;
  for (const seg of path) {
    if (typeof seg === 'number') {
      if (!Array.isArray(current)) return undefined;
      current = current[seg < 0 ? current.length + seg : seg];
    } else {
      if (current === null || typeof current !== 'object' || Array.isArray(current))
        return undefined;
      if (!Object.prototype.hasOwnProperty.call(current, seg)) return undefined;
      current = (current as Record<string, unknown>)[seg];
    }
  }
  return current;
}
