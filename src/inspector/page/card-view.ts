/**
 * The card view: identity, interfaces (the one the client would choose, and why), capabilities,
 * skills with their examples, security, the signature's status and the caching headers received.
 */
import type { AgentCard, AgentSkill } from 'a2a-kit';
import type { CardFacts } from '../card-facts.js';
import { api, errorText, type ApiError } from './api.js';
import { credentialsForm } from './credentials.js';
import { announce, byId, h, replace, type Child } from './dom.js';
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
    replace(
      view,
      h(
        'div',
        { class: 'error-box', role: 'alert' },
        h('strong', null, `Could not open ${url}`),
        h('pre', null, errorText(err)),
      ),
    );
    announce(errorText(err), 'error');
  } finally {
    view.removeAttribute('aria-busy');
  }
}

function yesNo(v: boolean | undefined): HTMLElement {
  return h(
    'span',
    { class: `flag flag-${v === true ? 'yes' : v === false ? 'no' : 'absent'}` },
    v === true ? 'yes' : v === false ? 'no' : 'absent (no)',
  );
}

function section(title: string, ...children: Child[]): HTMLElement {
  const id = `card-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h3', { id }, title), children);
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
    c.iconUrl && /^https?:/.test(c.iconUrl)
      ? h('img', { src: c.iconUrl, alt: '', class: 'icon' })
      : null,
    h('h2', { id: 'card-name' }, c.name, ' ', h('span', { class: 'version' }, `v${c.version}`)),
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
                { href: c.provider.url, target: '_blank', rel: 'noopener noreferrer' },
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
                { href: c.documentationUrl, target: '_blank', rel: 'noopener noreferrer' },
                c.documentationUrl,
              ),
            ),
          ]
        : null,
      f.cardUrl ? [h('dt', null, 'Card URL'), h('dd', null, h('code', null, f.cardUrl))] : null,
      [h('dt', null, 'This copy'), h('dd', { id: 'card-from' }, from)],
      [
        h('dt', null, 'Input / output'),
        h('dd', null, `${c.defaultInputModes.join(', ')} → ${c.defaultOutputModes.join(', ')}`),
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

function capabilities(c: AgentCard): HTMLElement {
  const caps = c.capabilities;
  return section(
    'Capabilities',
    h(
      'dl',
      { class: 'facts' },
      h('dt', null, 'Streaming'),
      h('dd', { id: 'cap-streaming' }, yesNo(caps.streaming)),
      h('dt', null, 'Push notifications'),
      h('dd', null, yesNo(caps.pushNotifications)),
      h('dt', null, 'Extended card'),
      h('dd', null, yesNo(caps.extendedAgentCard)),
      h('dt', null, 'Extensions'),
      h(
        'dd',
        null,
        caps.extensions?.length
          ? h(
              'ul',
              null,
              caps.extensions.map((e) =>
                h(
                  'li',
                  null,
                  h('code', null, e.uri ?? '?'),
                  e.required ? ' (required)' : '',
                  e.description ? ` — ${e.description}` : '',
                ),
              ),
            )
          : 'none',
      ),
    ),
  );
}

function skill(s: AgentSkill, added: boolean): HTMLElement {
  return h(
    'li',
    { class: 'skill' },
    h(
      'h4',
      null,
      s.name,
      ' ',
      h('code', null, s.id),
      added ? h('span', { class: 'badge' }, 'extended card only') : null,
    ),
    h('p', null, s.description),
    s.tags.length
      ? h(
          'p',
          { class: 'tags' },
          s.tags.map((t) => h('span', { class: 'tag' }, t)),
        )
      : null,
    s.inputModes || s.outputModes
      ? h(
          'p',
          { class: 'muted' },
          `${(s.inputModes ?? ['default']).join(', ')} → ${(s.outputModes ?? ['default']).join(', ')}`,
        )
      : null,
    s.examples?.length
      ? h(
          'div',
          null,
          h('span', { class: 'muted' }, 'Examples:'),
          h(
            'ul',
            { class: 'examples' },
            s.examples.map((ex) =>
              h(
                'li',
                null,
                h('q', null, ex),
                ' ',
                h(
                  'button',
                  {
                    type: 'button',
                    class: 'small',
                    onclick: () => links.tryExample(ex),
                    'aria-label': `Try the example: ${ex}`,
                  },
                  'Try',
                ),
              ),
            ),
          ),
        )
      : null,
  );
}

function security(f: CardFacts): HTMLElement {
  const reqs = f.card.securityRequirements ?? [];
  return section(
    'Security',
    f.credentials.length === 0
      ? h('p', null, 'No security schemes: anyone may call this agent.')
      : [
          h(
            'ul',
            null,
            f.credentials.map((c) =>
              h(
                'li',
                null,
                h('code', null, c.scheme),
                ` — ${c.detail}; `,
                c.held
                  ? h('strong', { class: 'ok' }, 'credential held (masked)')
                  : h('span', null, 'no credential held'),
              ),
            ),
          ),
          h(
            'p',
            null,
            'Required: ',
            reqs.length === 0
              ? 'nothing (credentials are optional)'
              : reqs
                  .map((r) =>
                    Object.keys(r.schemes).length
                      ? Object.keys(r.schemes).join(' + ')
                      : 'anonymous',
                  )
                  .join(' or '),
          ),
          credentialsForm(f, (facts) => setAgent(facts)),
        ],
  );
}

function signature(f: CardFacts): HTMLElement {
  const s = f.signature;
  const cls = s.verified ? 'ok' : s.status.includes('NOT') ? 'bad' : 'warn';
  const form = h(
    'form',
    { class: 'inline-form' },
    h(
      'label',
      { for: 'trust-key' },
      'Trust a public key (JWK or JWKS) to check the signature with',
    ),
    h('textarea', { id: 'trust-key', rows: 3, spellcheck: 'false' }),
    h('button', { type: 'submit' }, 'Check with this key'),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = byId<HTMLTextAreaElement>('trust-key').value;
    let key: unknown;
    try {
      key = JSON.parse(text);
    } catch {
      return announce('the key is not JSON', 'error');
    }
    api<{ added: number; facts: CardFacts }>('/api/card/trust', { agent: f.agent, key }).then(
      (r) => (setAgent(r.facts), announce(`${r.added} key(s) trusted for this session`)),
      (err: unknown) => announce(errorText(err), 'error'),
    );
  });
  return section(
    'Signature',
    h(
      'p',
      null,
      h('span', { class: `sig sig-${cls}`, id: 'sig-status' }, s.status),
      ' ',
      h('span', { class: 'muted' }, s.message),
    ),
    s.signatures.length
      ? h(
          'ul',
          null,
          s.signatures.map((x) =>
            h(
              'li',
              null,
              `${x.alg ?? '?'} · kid `,
              h('code', null, x.kid ?? '?'),
              x.jku ? [' · jku ', h('code', null, x.jku)] : null,
            ),
          ),
        )
      : null,
    s.signatures.length && !s.verified ? form : null,
  );
}

function cache(f: CardFacts): HTMLElement {
  const entries = Object.entries(f.cache);
  return section(
    'Caching',
    entries.length
      ? h(
          'dl',
          { class: 'facts mono' },
          entries.map(([k, v]) => [h('dt', null, k), h('dd', null, v)]),
        )
      : h(
          'p',
          null,
          'The card came without caching headers: the client keeps it for its default of 5 minutes.',
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
      interfaces(f),
      capabilities(f.card),
      section(
        'Skills',
        h(
          'ul',
          { class: 'skills' },
          f.card.skills.map((s) => skill(s, added.has(s.id))),
        ),
      ),
      security(f),
      signature(f),
      cache(f),
      section('The card as JSON', jsonBlock(f.card)),
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
