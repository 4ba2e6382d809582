/**
 * ProtoJSON readers accept a field by its lowerCamelCase JSON name and by its original proto name
 * (`message_id` for `messageId`), and protobuf-based A2A SDKs send either. We always write camelCase;
 * on input, a request that uses proto names is rewritten to camelCase before validation.
 */

/** Members whose values are free-form JSON (google.protobuf.Struct / Value): their keys are data, never renamed. */
const FREE_FORM = new Set(['metadata', 'data', 'params']);

// A quoted key that has an underscore followed by a lowercase letter: `"message_id":`. Enum values such as
// "ROLE_USER" are upper case and never match; keys inside metadata may match, which only costs a walk.
const SNAKE_KEY = /"[a-z][a-z0-9]*_[a-z][a-z0-9_]*"\s*:/;

/** Whether a request body may use proto field names: a scan of the text, false for the usual request. */
export function mayHaveProtoNames(text: string): boolean {
  return SNAKE_KEY.test(text);
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
