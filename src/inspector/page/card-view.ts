/**
 * The card view: identity, interfaces (the one the client would choose, and why), capabilities,
 * skills with their examples, security, the signature's status and the caching headers received.
 */
import type { CardFacts } from '../card-facts.js';
import { api, ApiError, errorText } from './api.js';
import {
  cache,
  capabilities,
  findings,
  findingsList,
  modesLine,
  section,
  skill,
} from './card-sections.js';
import { security, signature } from './card-trust.js';
import { announce, byId, h, replace, safeHref } from './dom.js';
import { headersForm } from './headers-form.js';
import { jsonBlock } from './parts.js';
import { currentAgent, setAgent } from './state.js';

/** Hooks into the other views: try a skill example in the talk view. */
export interface CardViewLinks {
  tryExample(text: string): void;
}

let links: CardViewLinks = { tryExample: () => undefined };

/** Wires the card view to the others. */
export function initCardView(l: CardViewLinks): void {
  links = l;
}

/** Opens an agent: fetches its card through the inspector and shows it. */
export async function openAgent(url: string, revalidate = false): Promise<void> {
  const view = byId('card-body');
  view.setAttribute('aria-busy', 'true');
  announce(`${revalidate ? 'Revalidating' : 'Fetching'} the card of ${url} …`);
  try {
    const facts = await api<CardFacts>('/api/card', { agent: url, revalidate });
    setAgent(facts);
    announce(
      `${facts.card.name}: card ${facts.from === 'cache' ? 'from the cache' : facts.from === 'revalidated' ? 'revalidated (304)' : 'fetched'}`,
    );
  } catch (err) {
    const found = err instanceof ApiError ? err.findings : undefined;
    replace(
      view,
      h(
        'div',
        { class: 'error-box', role: 'alert' },
        h('strong', null, `Could not open ${url}`),
        h('pre', null, errorText(err)),
        found ? [h('h3', null, 'Every finding'), findingsList(found, 'none')] : null,
      ),
      // A card behind a gateway may need a header to be served at all.
      h(
        'section',
        { class: 'panel' },
        h('h3', null, 'Custom headers'),
        headersForm(url, [], () => void openAgent(url)),
      ),
    );
    announce(errorText(err), 'error');
  } finally {
    view.removeAttribute('aria-busy');
  }
}

function identity(f: CardFacts): HTMLElement {
  const c = f.card;
  const from =
    {
      network: 'fetched from the network',
      cache: 'reused from the cache (still fresh)',
      revalidated: 'revalidated: the agent answered 304',
      extended: 'the extended card (GetExtendedAgentCard)',
    }[f.from] ?? f.from;
  return h(
    'section',
    { class: 'panel identity', 'aria-labelledby': 'card-name' },
    safeHref(c.iconUrl) ? h('img', { src: safeHref(c.iconUrl), alt: '', class: 'icon' }) : null,
    h(
      'h2',
      { id: 'card-name' },
      c.name,
      ' ',
      h('span', { class: 'version' }, `v${c.version}`),
      f.interfaces.length && f.interfaces.every((i) => i.version.startsWith('0.3'))
        ? h('span', { class: 'badge', id: 'card-v03' }, 'A2A 0.3 card')
        : null,
    ),
    h('p', null, c.description),
    h(
      'dl',
      { class: 'facts' },
      c.provider
        ? [
            h('dt', null, 'Provider'),
            h(
              'dd',
              null,
              h(
                'a',
                { href: safeHref(c.provider.url), target: '_blank', rel: 'noopener noreferrer' },
                c.provider.organization,
              ),
            ),
          ]
        : null,
      c.documentationUrl
        ? [
            h('dt', null, 'Documentation'),
            h(
              'dd',
              null,
              h(
                'a',
                {
                  href: safeHref(c.documentationUrl),
                  target: '_blank',
                  rel: 'noopener noreferrer',
                },
                c.documentationUrl,
              ),
            ),
          ]
        : null,
      f.cardUrl ? [h('dt', null, 'Card URL'), h('dd', null, h('code', null, f.cardUrl))] : null,
      [h('dt', null, 'This copy'), h('dd', { id: 'card-from' }, from)],
      [
        h('dt', null, 'Input / output'),
        h('dd', null, modesLine(c.defaultInputModes, c.defaultOutputModes, '') ?? 'none declared'),
      ],
    ),
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        { type: 'button', onclick: () => void openAgent(f.agent, true) },
        'Revalidate card',
      ),
      c.capabilities.extendedAgentCard
        ? h(
            'button',
            { type: 'button', id: 'extended-card', onclick: () => void extended(f) },
            'Extended card…',
          )
        : null,
      h('a', { href: '#talk', class: 'button primary' }, 'Talk to it'),
    ),
  );
}

function interfaces(f: CardFacts): HTMLElement {
  const rows = f.interfaces.map((i) =>
    h(
      'tr',
      { class: i.chosen ? 'chosen' : '' },
      h('td', { 'data-label': '#' }, `[${i.index}]`),
      h('td', { 'data-label': 'Binding' }, i.binding),
      h('td', { 'data-label': 'Version' }, i.version),
      h(
        'td',
        { 'data-label': 'URL' },
        h('code', null, i.url),
        i.tenant ? h('div', { class: 'muted' }, `tenant ${i.tenant}`) : null,
      ),
      h(
        'td',
        { 'data-label': 'Client’s choice' },
        i.chosen ? h('strong', { class: 'chosen-badge' }, '✓ chosen:') : null,
        ' ',
        i.note,
      ),
    ),
  );
  return section(
    'Interfaces',
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { class: 'stack' },
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['#', 'Binding', 'Version', 'URL', 'Client’s choice'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
    h(
      'p',
      { class: f.selection.ok ? 'why' : 'why error' },
      h('strong', null, f.selection.ok ? 'Why: ' : 'No interface fits: '),
      f.selection.reason,
    ),
  );
}

/** Shows the card facts. */
export function renderCard(f: CardFacts): void {
  const added = f.publicSkills
    ? new Set(f.card.skills.map((s) => s.id).filter((id) => !f.publicSkills!.includes(id)))
    : new Set<string>();
  replace(
    byId('card-body'),
    h(
      'div',
      { class: 'card-grid' },
      identity(f),
      findings(f),
      interfaces(f),
      capabilities(f.card),
      section(
        'Skills',
        h(
          'ul',
          { class: 'skills' },
          f.card.skills.map((s) => skill(s, added.has(s.id), links.tryExample)),
        ),
      ),
      security(f),
      section(
        'Custom headers',
        headersForm(f.agent, f.headers, () => void openAgent(f.agent)),
      ),
      signature(f),
      cache(f),
      section(
        'The card as JSON',
        f.interfaces.every((i) => i.version.startsWith('0.3'))
          ? h('p', { class: 'muted' }, 'Read into the 1.0 model; the wire view has it as sent.')
          : null,
        jsonBlock(f.card),
      ),
    ),
  );
}

/** Asks for the extended card; without the credentials it needs, opens the credentials form instead. */
async function extended(f: CardFacts): Promise<void> {
  try {
    const facts = await api<CardFacts>('/api/card/extended', { agent: f.agent });
    setAgent(facts);
    announce(`extended card of ${facts.card.name}: ${facts.card.skills.length} skill(s)`);
  } catch (err) {
    if ((err as ApiError).unauthenticated || currentAgent()?.credentials.some((c) => !c.held)) {
      announce(`${errorText(err)} — enter credentials below, then ask again`, 'error');
      document.getElementById('cred-form')?.querySelector<HTMLInputElement>('input')?.focus();
    } else announce(errorText(err), 'error');
  }
}
