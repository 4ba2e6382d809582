/**
 * The card view's trust sections: the security schemes with the credentials form (§7.3), and the
 * card's signature checked against the keys trusted (§8.4).
 */
import type { CardFacts } from '../card-facts.js';
import { api, errorText } from './api.js';
import { section } from './card-sections.js';
import { credentialsForm } from './credentials.js';
import { announce, byId, h } from './dom.js';
import { setAgent } from './state.js';

/** The security schemes, what is required, and the credentials form. */
export function security(f: CardFacts): HTMLElement {
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

/** The signature's status (§8.4), its keys, and a form to trust another key. */
export function signature(f: CardFacts): HTMLElement {
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
