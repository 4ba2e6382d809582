/**
 * Time limits of an HTTP/2 connection: one that does not send the connection preface (its first
 * SETTINGS) in time is destroyed, and one with no open stream for a while is told GOAWAY and closed —
 * PINGs and SETTINGS do not keep it open. 500 idle gRPC connections were seen held indefinitely (issue 28).
 */
import type { Http2Session, ServerHttp2Stream } from 'node:http2';

/** The limits {@link watchSession} applies, in milliseconds; 0 turns one off. */
export interface SessionTimeouts {
  idleTimeoutMs: number;
  prefaceTimeoutMs: number;
}

/** A closed session whose socket still has not gone this long after GOAWAY is destroyed. */
const CLOSE_GRACE_MS = 1000;

/** Apply the preface and idle limits to a server session, from its start. */
export function watchSession(session: Http2Session, t: SessionTimeouts): void {
  if (t.prefaceTimeoutMs > 0) {
    const preface = setTimeout(() => session.destroy(), t.prefaceTimeoutMs);
    preface.unref();
    const clear = (): void => clearTimeout(preface);
    session.once('remoteSettings', clear);
    session.once('close', clear);
  }
  if (t.idleTimeoutMs <= 0) return;
  let open = 0;
  let idle: NodeJS.Timeout | undefined;
  const goAway = (): void => {
    idle = undefined;
    if (session.closed || session.destroyed) return;
    session.close();
    setTimeout(() => session.destroy(), CLOSE_GRACE_MS).unref();
  };
  const arm = (): void => {
    idle = setTimeout(goAway, t.idleTimeoutMs);
    idle.unref();
  };
  session.on('stream', (stream: ServerHttp2Stream) => {
    open++;
    if (idle) clearTimeout(idle);
    idle = undefined;
    stream.once('close', () => {
      if (--open === 0 && !session.closed && !session.destroyed) arm();
    });
  });
  session.once('close', () => {
    if (idle) clearTimeout(idle);
  });
  arm();
}
