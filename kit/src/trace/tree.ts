/** The compact text tree of recorded spans that `npm start -- --trace` prints: one line per span, children indented. */
import { SpanKind } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';

const ms = (s: ReadableSpan): number => s.duration[0] * 1000 + s.duration[1] / 1e6;
const time = (v: number): string =>
  v < 1000 ? `${v < 10 ? v.toFixed(1) : Math.round(v)} ms` : `${(v / 1000).toFixed(2)} s`;
const short = (id: unknown): string => (typeof id === 'string' ? id.slice(0, 8) : '');

/** What one span is, in a few words: who did what over which binding, and how it went. */
function label(s: ReadableSpan): string {
  const a = s.attributes;
  const method = typeof a['rpc.method'] === 'string' ? a['rpc.method'] : undefined;
  const parts: string[] = [];
  if (method && s.kind === SpanKind.CLIENT) parts.push(`→ ${method} (${String(a['a2a.binding'])})`);
  else if (method)
    parts.push(
      `${String(a['a2a.agent.name'] ?? 'agent')} ← ${method} (${String(a['a2a.binding'])})`,
    );
  else if (s.name === 'a2a.agent.execute')
    parts.push(`${String(a['a2a.agent.name'] ?? 'agent')} works`);
  else if (s.name === 'a2a.push POST')
    parts.push(`${String(a['a2a.agent.name'] ?? 'agent')} push #${String(a['a2a.push.attempt'])}`);
  else parts.push(s.name);
  if (a['a2a.task.id'] && s.kind === SpanKind.SERVER) parts.push(`task ${short(a['a2a.task.id'])}`);
  if (a['a2a.stream.events'] !== undefined) parts.push(`${String(a['a2a.stream.events'])} events`);
  if (a['http.response.status_code'] !== undefined && !method)
    parts.push(`HTTP ${String(a['http.response.status_code'])}`);
  if (a['error.type'] !== undefined) parts.push(`✗ ${String(a['error.type'])}`);
  return parts.join(' · ');
}

/** One block per trace: `trace <id> · N spans`, then the spans as a tree in start order. */
export function traceTree(spans: readonly ReadableSpan[]): string {
  const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
  const children = new Map<string, ReadableSpan[]>();
  const roots: ReadableSpan[] = [];
  const start = (s: ReadableSpan) => s.startTime[0] * 1e9 + s.startTime[1];
  for (const s of [...spans].sort((x, y) => start(x) - start(y))) {
    const parent = s.parentSpanContext?.spanId;
    if (parent && byId.has(parent))
      (children.get(parent) ?? children.set(parent, []).get(parent)!).push(s);
    else roots.push(s);
  }
  const lines: string[] = [];
  const walk = (s: ReadableSpan, prefix: string, last: boolean, top: boolean): void => {
    lines.push(`${top ? '' : `${prefix}${last ? '└─ ' : '├─ '}`}${label(s)}  ${time(ms(s))}`);
    const kids = children.get(s.spanContext().spanId) ?? [];
    const next = top ? '' : `${prefix}${last ? '   ' : '│  '}`;
    kids.forEach((k, i) => walk(k, next, i === kids.length - 1, false));
  };
  const traces = new Map<string, ReadableSpan[]>();
  for (const r of roots)
    (
      traces.get(r.spanContext().traceId) ??
      traces.set(r.spanContext().traceId, []).get(r.spanContext().traceId)!
    ).push(r);
  for (const [id, rs] of traces) {
    const count = spans.filter((s) => s.spanContext().traceId === id).length;
    lines.push(`trace ${id} · ${count} spans`);
    for (const r of rs) walk(r, '', true, true);
  }
  return lines.join('\n') + '\n';
}
