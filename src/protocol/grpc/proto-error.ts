/** What the protobuf codec reports: which field (ProtoJSON path, e.g. `message.parts[0].raw`) and why. */

/** A value that cannot be encoded, or bytes that cannot be decoded, at `field`. */
export class ProtoError extends Error {
  override readonly name = 'ProtoError';
  /** ProtoJSON path of the offending field; empty for the message as a whole. */
  field: string;
  readonly problem: string;

  constructor(field: string, problem: string) {
    super(field ? `${field}: ${problem}` : problem);
    this.field = field;
    this.problem = problem;
  }

  /** Prefix the path with the enclosing field as the error travels up; returns itself. */
  within(name: string, index?: number | string): this {
    const head =
      index === undefined
        ? name
        : typeof index === 'number'
          ? `${name}[${index}]`
          : `${name}.${index}`;
    this.field = this.field
      ? this.field.startsWith('[')
        ? `${head}${this.field}`
        : `${head}.${this.field}`
      : head;
    this.message = `${this.field}: ${this.problem}`;
    return this;
  }
}

/** Any failure inside a read or write as a ProtoError (the wire library throws RangeError / Error). */
export function asProtoError(err: unknown): ProtoError {
  if (err instanceof ProtoError) return err;
  const text = err instanceof Error ? err.message : String(err);
  if (err instanceof RangeError || /index out of range/.test(text))
    return new ProtoError('', 'the message is truncated (a length or value runs past its end)');
  if (/wire type/.test(text)) return new ProtoError('', `malformed protobuf: ${text}`);
  return new ProtoError('', `malformed protobuf: ${text}`);
}
