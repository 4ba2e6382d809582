/**
 * The custom headers of one agent (a gateway's key, a tenant, a trace id), one per line as
 * `Name: value`. They go with the card request and every call; a header whose name says it is a
 * credential is kept by the server and shown masked — leave its line as it is to keep it.
 */
import type { HeaderFact } from '../custom-headers.js';
import { api, errorText } from './api.js';
import { announce, h } from './dom.js';

/** What the server shows for a value it keeps to itself (its MASK). */
const MASK = '••••••••';

/** `Name: value` lines → the list the server takes; a line without a colon is refused. */
function parse(text: string): Array<{ name: string; value: string }> {
  const out: Array<{ name: string; value: string }> = [];
  for (const [i, raw] of text.split('\n').entries()) {
    const line = raw.trim();
    if (line === '') continue;
    const colon = line.indexOf(':');
    if (colon <= 0) throw new Error(`line ${i + 1}: write it as Name: value`);
    out.push({ name: line.slice(0, colon).trim(), value: line.slice(colon + 1).trim() });
  }
  return out;
}

/** The form; `saved` runs once the server holds the new headers (e.g. to open the card again). */
export function headersForm(
  agent: string,
  headers: readonly HeaderFact[],
  saved: () => void,
): HTMLElement {
  const id = 'headers-input';
  const area = h('textarea', {
    id,
    class: 'headers-input',
    rows: 3,
    spellcheck: 'false',
    placeholder: 'X-Tenant: acme',
  });
  area.value = headers.map((x) => `${x.name}: ${x.secret ? MASK : (x.value ?? '')}`).join('\n');
  const form = h(
    'form',
    { class: 'inline-form headers-form', 'aria-label': 'Custom headers' },
    h('label', { for: id }, 'Custom headers, one per line (Name: value)'),
    area,
    h('button', { type: 'submit' }, 'Send these headers'),
    h(
      'p',
      { class: 'muted' },
      'Sent with the card request and every call (gRPC: as metadata). Headers named like a ' +
        'credential (…key, …token, authorization, cookie) are kept on the inspector’s server and masked.',
    ),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    let list: Array<{ name: string; value: string }>;
    try {
      list = parse(area.value);
    } catch (err) {
      return announce((err as Error).message, 'error');
    }
    api<{ headers: HeaderFact[] }>('/api/headers', { agent, headers: list }).then(
      (r) => {
        announce(`${r.headers.length} custom header(s) for ${agent}`);
        saved();
      },
      (err: unknown) => announce(errorText(err), 'error'),
    );
  });
  return form;
}
