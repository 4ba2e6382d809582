/**
 * Bytes of unfinished request bodies, counted against a limit: per connection, inside a pool shared by
 * the listener (or the whole process). A stream holds what it received until its body is complete,
 * refused, or the stream closes (a client that hangs up gives its bytes back at once): 150 streams of
 * 4 MiB unfinished messages held 675 MB after their client was gone (issue 28).
 */

/** A count of bytes under a limit, drawing on a parent budget as well when it has one. */
export class ByteBudget {
  #used = 0;

  constructor(
    /** Most bytes held at once. */
    readonly limit: number,
    /** What the limit is, for the refusal: `per connection (maxConnectionBodyBytes)`. */
    readonly label: string,
    readonly parent?: ByteBudget,
  ) {}

  /** Bytes held now. */
  get used(): number {
    return this.#used;
  }

  /** Take `n` bytes; the budget that refused (this one or a parent), or undefined when taken. */
  take(n: number): ByteBudget | undefined {
    if (this.#used + n > this.limit) return this;
    const refused = this.parent?.take(n);
    if (refused) return refused;
    this.#used += n;
    return undefined;
  }

  /** Give back `n` bytes taken before. */
  give(n: number): void {
    this.#used -= n;
    this.parent?.give(n);
  }

  /** A hold for one stream: what it takes is given back, all at once, by `release`. */
  hold(): ByteHold {
    return new ByteHold(this);
  }
}

/** The bytes one stream holds in a {@link ByteBudget}. */
export class ByteHold {
  #held = 0;
  #released = false;

  constructor(private readonly budget: ByteBudget) {}

  /** Take `n` more bytes; the budget that refused, or undefined. After `release`, nothing is taken. */
  take(n: number): ByteBudget | undefined {
    if (this.#released) return undefined;
    const refused = this.budget.take(n);
    if (!refused) this.#held += n;
    return refused;
  }

  /** Give back everything held; later calls do nothing. */
  release(): void {
    if (this.#released) return;
    this.#released = true;
    this.budget.give(this.#held);
    this.#held = 0;
  }
}

let processPending: ByteBudget | undefined;

/** The pool of unfinished request bytes shared by the process's gRPC listeners that set no pool of their own. */
export function processBodyBytes(limit: number): ByteBudget {
  return (processPending ??= new ByteBudget(
    limit,
    `of unfinished request messages in this process (maxPendingBodyBytes)`,
  ));
}
