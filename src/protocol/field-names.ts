/**
 * ProtoJSON readers accept a field by its lowerCamelCase JSON name and by its original proto name
 * (`message_id` for `messageId`), and protobuf-based A2A SDKs send either. We always write camelCase;
 * on input, a request that uses proto names is rewritten to camelCase before validation.
 */

/** Members whose values are free-form JSON (google.protobuf.Struct / Value): their keys are data, never renamed. */
const FREE_FORM = new Set(['metadata', 'data', 'params']);

/**
 * Whether a request body may use proto field names: whether it has a quoted key with an underscore
 * followed by a lowercase letter, `"message_id":` (what `/"[a-z][a-z0-9]*_[a-z][a-z0-9_]*"\s*:/` would
 * find). Enum values such as "ROLE_USER" are upper case and never match; keys inside metadata may match,
 * which only costs a walk. Only the text around each underscore is looked at (found with `indexOf`), and
 * at most a few times, so the usual request is decided in microseconds and any body in linear time; the regular
 * expression took 8 ms on a 1 MB body.
 */
export function mayHaveProtoNames(text: string): boolean {
  for (let u = text.indexOf('_'); u !== -1; u = text.indexOf('_', u + 1)) {
    if (snakeKeyAt(text, u)) return true;
  }
  return false;
}

const isLower = (c: number): boolean => c >= 97 && c <= 122;
const isLowerOrDigit = (c: number): boolean => isLower(c) || (c >= 48 && c <= 57);

/**
 * Whether the underscore at `u` is the first one of a snake_case key. Back: lowercase letters and
 * digits, starting with a letter, right after a quote (a run that meets another underscore fails, so
 * no character is walked back over twice). Forward: a lowercase letter, then letters, digits and
 * underscores up to the closing quote, JSON whitespace, and a colon.
 */
function snakeKeyAt(text: string, u: number): boolean {
  let b = u - 1;
  while (b >= 0 && isLowerOrDigit(text.charCodeAt(b))) b--;
  if (b === u - 1 || b < 0 || text.charCodeAt(b) !== 34 /* " */ || !isLower(text.charCodeAt(b + 1)))
    return false;
  let f = u + 1;
  if (!isLower(text.charCodeAt(f))) return false;
  for (f++; f < text.length; f++) {
    const c = text.charCodeAt(f);
    if (!isLowerOrDigit(c) && c !== 95 /* _ */) break;
  }
  if (text.charCodeAt(f) !== 34) return false;
  for (f++; f < text.length; f++) {
    const c = text.charCodeAt(f);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
  }
  return text.charCodeAt(f) === 58; /* : */
}

/** `history_length` → `historyLength`. */
export function camelName(name: string): string {
  return name.replace(/_([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

/** `historyLength` → `history_length`. */
export function protoName(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

/**
 * The same request with every proto field name replaced by its JSON name, free-form members left as
 * they are. When both spellings of a field are present, the camelCase one wins (ProtoJSON leaves the
 * choice to the reader; the JSON name is the canonical one). Values that are not objects come back as is.
 */
export function withJsonNames<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v) => withJsonNames(v)) as T;
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  const src = value as Record<string, unknown>;
  for (const key of Object.keys(src)) {
    const name = key.includes('_') ? camelName(key) : key;
    if (name !== key && Object.prototype.hasOwnProperty.call(src, name)) continue;
    const v = FREE_FORM.has(name) ? src[key] : withJsonNames(src[key]);
    // An own `__proto__` member stays a member: assigning it would set the copy's prototype.
    if (name === '__proto__')
      Object.defineProperty(out, name, {
        value: v,
        enumerable: true,
        writable: true,
        configurable: true,
      });
    else out[name] = v;
  }
  return out as T;
}
