/**
 * Sections of the card view that show one part of the card each: capabilities, skills, caching, and
 * the card checked against the spec with every finding listed.
 */
import type { AgentCard, AgentSkill } from 'a2a-kit';
import type { CardFacts } from '../card-facts.js';
import type { CardFinding } from '../card-findings.js';
import { h, type Child } from './dom.js';

function yesNo(v: boolean | undefined): HTMLElement {
  return h(
    'span',
    { class: `flag flag-${v === true ? 'yes' : v === false ? 'no' : 'absent'}` },
    v === true ? 'yes' : v === false ? 'no' : 'absent (no)',
  );
}

/** A titled panel of the card view; its id comes from the title. */
export function section(title: string, ...children: Child[]): HTMLElement {
  const id = `card-${title.toLowerCase().replace(/[^a-z]+/g, '-')}`;
  return h('section', { class: 'panel', 'aria-labelledby': id }, h('h3', { id }, title), children);
}

/**
 * Input and output modes as `text/plain → application/json`, or nothing when neither side declares
 * any (an empty list on both sides used to leave a lone arrow); an empty side says so.
 */
export function modesLine(
  input: readonly string[] | undefined,
  output: readonly string[] | undefined,
  unset: string,
): HTMLElement | null {
  const side = (m: readonly string[] | undefined) =>
    m === undefined ? unset : m.length ? m.join(', ') : '';
  const i = side(input);
  const o = side(output);
  if (i === '' && o === '') return null;
  return h('p', { class: 'muted modes' }, `${i || 'none declared'} → ${o || 'none declared'}`);
}

/** The capability flags and extensions. */
export function capabilities(c: AgentCard): HTMLElement {
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

/** One skill: name, id, description, tags, modes, examples (each can be tried in the talk view). */
export function skill(
  s: AgentSkill,
  added: boolean,
  tryExample: (text: string) => void,
): HTMLElement {
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
      ? modesLine(s.inputModes, s.outputModes, 'the card’s default')
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
                    onclick: () => tryExample(ex),
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

/** The caching headers the card came with (§8.6). */
export function cache(f: CardFacts): HTMLElement {
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

const LEVEL_TEXT = { error: 'refused', warning: 'warning', info: 'note' } as const;

/** One finding: its level, where in the card, what, and the section of the spec. */
function finding(f: CardFinding): HTMLElement {
  return h(
    'li',
    { class: `finding finding-${f.level}` },
    h('span', { class: `level level-${f.level}` }, LEVEL_TEXT[f.level] ?? f.level),
    ' ',
    h('code', null, f.where),
    ' ',
    f.text,
    f.section ? h('span', { class: 'muted' }, ` (§${f.section})`) : null,
  );
}

/** The list of findings, errors first; `empty` when there is none. */
export function findingsList(list: readonly CardFinding[], empty: string): HTMLElement {
  const order = { error: 0, warning: 1, info: 2 };
  const sorted = [...list].sort((a, b) => (order[a.level] ?? 3) - (order[b.level] ?? 3));
  return sorted.length
    ? h('ul', { class: 'findings', id: 'card-findings-list' }, sorted.map(finding))
    : h('p', null, empty);
}

/** The card checked against the spec: what clients refuse, what the spec asks otherwise, notes. */
export function findings(f: CardFacts): HTMLElement {
  const count = (level: CardFinding['level']) => f.findings.filter((x) => x.level === level).length;
  return section(
    'Checked against the spec',
    h(
      'p',
      { class: 'muted' },
      `${count('error')} refused · ${count('warning')} warning(s) · ${count('info')} note(s), `,
      'from the same check a client makes (checkAgentCard) and the spec’s advice.',
    ),
    findingsList(f.findings, 'Nothing to report.'),
  );
}
