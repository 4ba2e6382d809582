/**
 * The one error a server part throws for a configuration it cannot work with. It is thrown when the
 * part is built (construction, `prepare()`, `listen()`) wherever that is possible; when it can only
 * surface on a request (a listener mounted without an origin), it is logged at error level and the
 * request answered 500 with its message, which names configuration only.
 */
export class A2AConfigError extends Error {
  override name = 'A2AConfigError';
  /** The option to change, as it is spelled in the options (`origin`, `auth.verifiers`, `card`). */
  readonly option: string;

  constructor(option: string, message: string, options?: ErrorOptions) {
    super(message, options);
    this.option = option;
  }
}
