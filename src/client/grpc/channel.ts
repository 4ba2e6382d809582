/**
 * One HTTP/2 connection to a gRPC interface, shared by every call to it, as a gRPC channel is: opened
 * on the first call, opened again after it closed, broke or was told to go away, and closed after it
 * sat idle for a while. It keeps the process alive only while a call is running, so a program that is
 * done with its client can simply end.
 */
import { connect, type ClientHttp2Session, type SecureClientSessionOptions } from 'node:http2';

export class H2Channel {
  #session: ClientHttp2Session | undefined;
  #active = 0;
  #closed = false;
  #idle: NodeJS.Timeout | undefined;

  /** `origin` is `http://host:port` or `https://host:port`; `tls` applies to the latter. */
  constructor(
    readonly origin: string,
    private readonly tls: SecureClientSessionOptions | undefined,
    private readonly idleMs: number,
  ) {}

  /** The connection for a new call (opened now if there is none usable). */
  session(): ClientHttp2Session {
    const current = this.#session;
    if (current && !current.closed && !current.destroyed) return current;
    if (this.#closed) throw new Error('the gRPC channel was closed');
    const session = connect(this.origin, this.origin.startsWith('https:') ? { ...this.tls } : {});
    // A failed or broken connection is reported to each call on it; the session only has to be forgotten.
    session.on('error', () => undefined);
    const forget = (): void => {
      if (this.#session === session) this.#session = undefined;
    };
    session.on('goaway', forget);
    session.on('close', forget);
    if (this.#active === 0) session.unref();
    this.#session = session;
    return session;
  }

  /** A call started: the connection keeps the process alive until it ends. */
  began(): void {
    if (this.#active++ > 0) return;
    clearTimeout(this.#idle);
    this.#session?.ref();
  }

  /** A call ended. */
  ended(): void {
    if (--this.#active > 0) return;
    const session = this.#session;
    if (!session) return;
    session.unref();
    this.#idle = setTimeout(() => {
      if (this.#active === 0 && this.#session === session) {
        this.#session = undefined;
        session.close();
      }
    }, this.idleMs);
    this.#idle.unref();
  }

  /** Close the connection; calls still running end. Later calls fail. */
  close(): void {
    this.#closed = true;
    clearTimeout(this.#idle);
    this.#session?.close();
    this.#session = undefined;
  }
}
