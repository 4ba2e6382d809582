/**
 * A client of the inspector's JSON API for tests without a browser: it keeps the session cookie and
 * sends the header the page sends, as the page does, and reads the page's event channel.
 */
/** A small client of the inspector's API that keeps the session cookie, as the page does. */
export class PageClient {
  cookie = '';
  constructor(readonly base: string) {}

  async call<T = any>(
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ): Promise<{ status: number; json: T }> {
    const res = await fetch(new URL(path, this.base), {
      method: body === undefined ? 'GET' : 'POST',
      headers: {
        // What the page sends with every call (a page of another origin cannot).
        'x-a2a-inspector': 'page',
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(this.cookie ? { cookie: this.cookie } : {}),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const set = res.headers.get('set-cookie');
    if (set) this.cookie = set.split(';')[0]!;
    return { status: res.status, json: (await res.json()) as T };
  }

  /** Reads the page's SSE channel until `until` says stop (bounded: 200 events, 10 s). */
  async events(
    after: string,
    until: (type: string, data: any) => boolean,
    lastEventId?: string,
  ): Promise<Array<{ id?: string; type: string; data: any }>> {
    const ctl = new AbortController();
    const timer = setTimeout(() => ctl.abort(), 10_000);
    const res = await fetch(new URL(`/api/events?after=${after}`, this.base), {
      headers: { cookie: this.cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
      signal: ctl.signal,
    });
    const out: Array<{ id?: string; type: string; data: any }> = [];
    let buf = '';
    const decoder = new TextDecoder();
    const reader = res.body!.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        buf += decoder.decode(value, { stream: true });
        let cut: number;
        while ((cut = buf.indexOf('\n\n')) >= 0) {
          const block = buf.slice(0, cut);
          buf = buf.slice(cut + 2);
          const id = /^id: (.*)$/m.exec(block)?.[1];
          const type = /^event: (.*)$/m.exec(block)?.[1];
          const data = /^data: (.*)$/m.exec(block)?.[1];
          if (!type || data === undefined) continue;
          const ev = { ...(id ? { id } : {}), type, data: JSON.parse(data) };
          out.push(ev);
          if (until(type, ev.data) || out.length >= 200) return out;
        }
      }
    } finally {
      clearTimeout(timer);
      ctl.abort();
    }
    return out;
  }
}
