/** The page's only way out: JSON calls to the inspector's own server and its event channel. */
import type { CardFinding } from '../card-findings.js';

/** An error the inspector server answered with: the agent's A2A error kind, or the client's code. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly kind?: string,
    readonly code?: string | number,
    readonly httpStatus?: number,
    /** A card the client refused: everything its check found. */
    readonly findings?: CardFinding[],
  ) {
    super(message);
  }

  /** The agent wants credentials. */
  get unauthenticated(): boolean {
    return (
      this.kind === 'Unauthenticated' || this.httpStatus === 401 || this.code === 'UNAUTHENTICATED'
    );
  }
}

/** GET (no body) or POST (JSON body) to the inspector's API. */
export async function api<T = unknown>(path: string, body?: unknown): Promise<T> {
  // The header says "the inspector's own page": another page cannot send it (see PAGE_HEADER).
  const init: RequestInit =
    body === undefined
      ? { headers: { 'x-a2a-inspector': 'page' } }
      : {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-a2a-inspector': 'page' },
          body: JSON.stringify(body),
        };
  let res: Response;
  try {
    res = await fetch(path, init);
  } catch {
    throw new ApiError('the inspector server does not answer; is it still running?');
  }
  const json = (await res.json().catch(() => null)) as {
    error?: {
      message?: string;
      kind?: string;
      code?: string | number;
      httpStatus?: number;
      findings?: CardFinding[];
    };
  } | null;
  if (!res.ok) {
    const e = json?.error;
    throw new ApiError(
      e?.message ?? `HTTP ${res.status}`,
      e?.kind,
      e?.code,
      e?.httpStatus,
      e?.findings,
    );
  }
  return json as T;
}

/** What an error says, with its kind or code in front. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) {
    const label = err.kind ?? (typeof err.code === 'string' ? err.code : undefined);
    return label ? `${label}: ${err.message}` : err.message;
  }
  return err instanceof Error ? err.message : String(err);
}

/** Opens the live channel from `after` (the last event the page has); handlers by event type. */
export function listen(
  after: number,
  handlers: Record<string, (data: unknown) => void>,
): EventSource {
  const source = new EventSource(`/api/events?after=${after}`);
  for (const [type, handle] of Object.entries(handlers)) {
    source.addEventListener(type, (ev) => handle(JSON.parse((ev as MessageEvent<string>).data)));
  }
  return source;
}
