/**
 * The credentials form of the card view: one field per security scheme the card declares. What is
 * typed goes to the inspector server, which keeps it for this session and applies it as the card
 * says; the page never gets it back (fields are emptied, the wire view shows it masked).
 */
import type { CardFacts } from '../card-facts.js';
import { api, errorText } from './api.js';
import { announce, h } from './dom.js';

function field(
  id: string,
  label: string,
  type: 'text' | 'password',
  autocomplete: string,
): HTMLElement {
  return h(
    'div',
    { class: 'field' },
    h('label', { for: id }, label),
    h('input', { id, type, autocomplete, spellcheck: 'false' }),
  );
}

/** The form; `done` gets the card facts once the server holds the credentials (or the extended card). */
export function credentialsForm(f: CardFacts, done: (facts: CardFacts) => void): HTMLElement {
  const fields = f.credentials.flatMap((c, i) => {
    const id = `cred-${i}`;
    if (c.kind === 'mtls') return [];
    if (c.kind === 'basic') {
      return [
        h(
          'fieldset',
          null,
          h('legend', null, `${c.scheme} (${c.detail})`),
          field(`${id}-user`, 'User name', 'text', 'username'),
          field(`${id}-pass`, 'Password', 'password', 'current-password'),
        ),
      ];
    }
    const what = c.kind === 'apiKey' ? 'API key' : 'Token';
    return [
      field(
        id,
        `${what} for ${c.scheme} (${c.detail})${c.held ? ' — held; type to replace, leave empty to keep' : ''}`,
        'password',
        'off',
      ),
    ];
  });
  const extended = f.card.capabilities.extendedAgentCard === true;
  const form = h(
    'form',
    { id: 'cred-form', class: 'inline-form', 'aria-label': 'Credentials' },
    fields,
    h(
      'div',
      { class: 'actions' },
      h('button', { type: 'submit', value: 'save' }, 'Use these credentials'),
      extended
        ? h(
            'button',
            { type: 'submit', value: 'extended', class: 'primary' },
            'Use them and get the extended card',
          )
        : null,
      f.credentials.some((c) => c.held)
        ? h('button', { type: 'submit', value: 'forget' }, 'Forget credentials')
        : null,
    ),
    h(
      'p',
      { class: 'muted' },
      'Kept by the inspector’s server for this browser session only; never shown again, masked on the wire view.',
    ),
  );
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const action = (ev.submitter as HTMLButtonElement | null)?.value ?? 'save';
    const values: Record<string, unknown> = {};
    f.credentials.forEach((c, i) => {
      const input = (suffix: string) => form.querySelector<HTMLInputElement>(`#cred-${i}${suffix}`);
      if (action === 'forget') return;
      if (c.kind === 'basic') {
        const user = input('-user')?.value ?? '';
        if (user) values[c.scheme] = { username: user, password: input('-pass')?.value ?? '' };
      } else {
        const v = input('')?.value ?? '';
        // An empty field keeps what the server already holds; the value itself is never sent back to the page.
        values[c.scheme] = v !== '' ? v : c.held ? { keep: true } : '';
      }
    });
    for (const el of form.querySelectorAll('input')) el.value = '';
    void submit(f.agent, values, action, done);
  });
  return form;
}

async function submit(
  agent: string,
  values: Record<string, unknown>,
  action: string,
  done: (facts: CardFacts) => void,
): Promise<void> {
  try {
    let facts = await api<CardFacts>('/api/credentials', { agent, values });
    announce(
      action === 'forget'
        ? 'credentials forgotten'
        : `credentials held for ${
            facts.credentials
              .filter((c) => c.held)
              .map((c) => c.scheme)
              .join(', ') || 'no scheme'
          }`,
    );
    if (action === 'extended') {
      facts = await api<CardFacts>('/api/card/extended', { agent });
      announce(`extended card of ${facts.card.name}: ${facts.card.skills.length} skill(s)`);
    }
    done(facts);
  } catch (err) {
    announce(errorText(err), 'error');
  }
}
