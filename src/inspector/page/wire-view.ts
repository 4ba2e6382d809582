/**
 * The wire view: every exchange the inspector's client made, newest first — request and answer with
 * their headers (credentials masked), SSE text as it arrived, the outcome, and a `curl` command.
 */
import type { WireExchange } from '../wire.js';
import { api, errorText } from './api.js';
import { announce, byId, clock, copy, h, replace, visible, type Child } from './dom.js';

const shown = new Map<number, { ex: WireExchange; el: HTMLElement }>();

function pretty(text: string | undefined): string {
  if (text === undefined || text === '') return '';
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
}

function headers(list: Array<[string, string]> | undefined): HTMLElement {
  return h(
    'pre',
    { class: 'headers' },
    (list ?? []).map(([k, v]) => `${k}: ${v}`).join('\n') || '(none)',
  );
}

function summary(ex: WireExchange): HTMLElement {
  const status =
    ex.grpcStatus ??
    (ex.status !== undefined ? String(ex.status) : undefined) ??
    (ex.state === 'failed' ? 'failed' : '…');
  const bad = ex.state === 'failed' || (ex.status ?? 0) >= 400 || (ex.grpcStatus ?? 'OK') !== 'OK';
  const cls = bad ? 'bad' : ex.state === 'done' ? 'ok' : 'live';
  return h(
    'summary',
    null,
    h('span', { class: 'wire-id' }, `#${ex.id}`),
    ' ',
    h('time', null, clock(ex.at)),
    ' ',
    h('strong', null, ex.operation),
    ' ',
    h('span', { class: 'method' }, ex.method),
    ' ',
    h('span', { class: `wire-status wire-${cls}` }, status),
    ' ',
    h(
      'span',
      { class: 'muted' },
      [
        ex.binding,
        ex.streaming ? `stream${ex.events !== undefined ? ` · ${ex.events} event(s)` : ''}` : '',
        ex.durationMs !== undefined ? `${ex.durationMs} ms` : '',
        ex.state === 'open' ? 'open' : '',
      ]
        .filter(Boolean)
        .join(' · '),
    ),
  );
}

function body(ex: WireExchange): Child[] {
  const grpc = ex.binding === 'GRPC';
  const isJson =
    (grpc && !ex.streaming) ||
    (ex.responseHeaders ?? []).some(([k, v]) => k === 'content-type' && v.includes('json'));
  return [
    h(
      'p',
      null,
      h('code', { class: 'wire-url' }, `${ex.method} ${ex.url}`),
      ex.lastEventId ? h('span', { class: 'badge' }, `Last-Event-ID ${ex.lastEventId}`) : null,
    ),
    h(
      'div',
      { class: 'wire-grid' },
      h(
        'div',
        null,
        h('h4', null, grpc ? 'Metadata' : 'Request headers'),
        headers(ex.requestHeaders),
        ex.requestBody !== undefined
          ? [
              h('h4', null, grpc ? 'Request message (decoded)' : 'Request body'),
              h('pre', { class: 'wire-body' }, pretty(ex.requestBody)),
              ex.requestTruncated
                ? h('p', { class: 'muted' }, '… cut here: the inspector keeps the first 512 KiB')
                : null,
            ]
          : null,
      ),
      h(
        'div',
        null,
        h(
          'h4',
          null,
          grpc
            ? `Status ${ex.grpcStatus ?? '…'}`
            : `Response${ex.status !== undefined ? ` ${ex.status}` : ''}`,
        ),
        grpc ? null : headers(ex.responseHeaders),
        h(
          'h4',
          null,
          grpc
            ? ex.streaming
              ? 'Stream messages (decoded, one per line)'
              : 'Response message (decoded)'
            : ex.streaming
              ? 'Events (as sent)'
              : 'Response body',
        ),
        h(
          'pre',
          { class: 'wire-body', 'data-body': String(ex.id) },
          isJson && ex.state !== 'open' ? pretty(ex.responseBody) : ex.responseBody,
        ),
        ex.truncated
          ? h(
              'p',
              { class: 'muted' },
              '… cut here: the inspector keeps the first 512 KiB of an answer',
            )
          : null,
      ),
    ),
    ex.error ? h('p', { class: 'error' }, ex.error) : null,
    h('h4', null, grpc ? 'As a grpcurl command' : 'As a curl command'),
    h('pre', { class: 'curl' }, ex.curl),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', class: 'small', onclick: () => void copy(ex.curl, 'the curl command') },
        grpc ? 'Copy as grpcurl' : 'Copy as curl',
      ),
      ex.curl.includes('$A2A_CREDENTIAL')
        ? h('span', { class: 'muted' }, ' set A2A_CREDENTIAL first: the credential is masked')
        : null,
    ),
  ];
}

function matches(ex: WireExchange): boolean {
  const q = byId<HTMLInputElement>('wire-filter').value.trim().toLowerCase();
  return (
    q === '' ||
    `${ex.operation} ${ex.url} ${ex.method} ${ex.status ?? ''}`.toLowerCase().includes(q)
  );
}

function renderOne(ex: WireExchange): void {
  const old = shown.get(ex.id);
  const el = h(
    'details',
    {
      class: 'wire-ex',
      'data-operation': ex.operation,
      open: old?.el.hasAttribute('open') ?? false,
    },
    summary(ex),
    body(ex),
  );
  el.hidden = !matches(ex);
  if (old) old.el.replaceWith(el);
  else byId('wire-list').prepend(el);
  shown.set(ex.id, { ex, el });
  byId('wire-count').textContent = `${shown.size} exchange(s)`;
}

/** A new or changed exchange. */
export function onWire(ex: WireExchange): void {
  renderOne(ex);
}

/** More text of a streaming answer. */
export function onWireChunk(d: { id: number; text: string }): void {
  const s = shown.get(d.id);
  if (!s) return;
  s.ex.responseBody += d.text;
  s.el.querySelector(`[data-body="${d.id}"]`)?.append(visible(d.text));
}

/** Shows the exchanges the session has (after a reload) and wires the filter and clear buttons. */
export function initWire(initial: WireExchange[]): void {
  for (const ex of initial) renderOne(ex);
  byId('wire-filter').addEventListener('input', () => {
    for (const { ex, el } of shown.values()) el.hidden = !matches(ex);
  });
  byId('wire-clear').addEventListener('click', () => {
    api('/api/wire/clear', {}).then(
      () => {
        shown.clear();
        replace(byId('wire-list'));
        byId('wire-count').textContent = '0 exchange(s)';
      },
      (err: unknown) => announce(errorText(err), 'error'),
    );
  });
}
