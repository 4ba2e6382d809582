/**
 * The kit view: the planner's run as it happens — the agents it discovered and what it decided about
 * them, then each step's task moving through its states, the deploy's confirmation, the outcome.
 * Everything stays on the page after the run, to be read at leisure.
 */
import type { PipelineRecord, PipelineState } from '../pipeline.js';
import { byId, clock, h, replace, shortId, stateChip, type Child } from './dom.js';

type AgentInfo = Extract<PipelineRecord, { type: 'agent' }>;

/** What happened in a step, in order. */
type Entry =
  | {
      kind: 'state';
      state: PipelineState;
      text?: string;
      via?: string;
      taskId?: string;
      at: string;
    }
  | { kind: 'artifact'; name: string; text?: string; at: string }
  | { kind: 'confirm'; agent: string; question: string; answer: string; at: string }
  | { kind: 'note'; text: string; at: string };

interface Stage {
  id: string;
  title: string;
  agent?: string;
  detail?: string;
  entries: Entry[];
}

interface Model {
  title?: string;
  agents: Map<string, AgentInfo>;
  stages: Stage[];
  outcome?: { ok: boolean; text: string };
}

let records: PipelineRecord[] = [];
let scheduled = false;
let open: (url: string) => void = () => undefined;

function build(list: PipelineRecord[]): Model {
  const m: Model = { agents: new Map(), stages: [] };
  const stage = (id?: string): Stage | undefined =>
    (id ? m.stages.find((s) => s.id === id) : undefined) ?? m.stages.at(-1);
  for (const r of list) {
    switch (r.type) {
      case 'run':
        m.title = r.title;
        break;
      case 'agent':
        m.agents.set(r.name, { ...m.agents.get(r.name), ...r });
        break;
      case 'stage':
        m.stages.push({
          id: r.id,
          title: r.title,
          ...(r.agent ? { agent: r.agent } : {}),
          ...(r.detail ? { detail: r.detail } : {}),
          entries: [],
        });
        break;
      case 'state':
        stage(r.stage)?.entries.push({
          kind: 'state',
          state: r.state,
          at: r.at,
          ...(r.text ? { text: r.text } : {}),
          ...(r.via ? { via: r.via } : {}),
          ...(r.taskId ? { taskId: r.taskId } : {}),
        });
        break;
      case 'artifact':
        stage(r.stage)?.entries.push({
          kind: 'artifact',
          name: r.name,
          at: r.at,
          ...(r.text ? { text: r.text } : {}),
        });
        break;
      case 'confirm':
        stage(r.stage)?.entries.push({
          kind: 'confirm',
          agent: r.agent,
          question: r.question,
          answer: r.answer,
          at: r.at,
        });
        break;
      case 'note':
        stage(r.stage)?.entries.push({ kind: 'note', text: r.text, at: r.at });
        break;
      case 'outcome':
        m.outcome = { ok: r.ok, text: r.text };
        break;
    }
  }
  return m;
}

function lastState(s: Stage): PipelineState | undefined {
  const states = s.entries.filter((e) => e.kind === 'state');
  return states.at(-1)?.state;
}

function agentCard(a: AgentInfo): HTMLElement {
  const row = (k: string, v: Child) => (v ? [h('dt', null, k), h('dd', null, v)] : null);
  return h(
    'li',
    { class: 'panel kit-agent' },
    h('h4', null, a.name, a.version ? h('span', { class: 'version' }, ` v${a.version}`) : null),
    h(
      'dl',
      { class: 'facts' },
      row('Card', a.cardUrl ? h('code', null, a.cardUrl) : undefined),
      row('Signature', a.signature),
      row('Interface', a.interface ? h('code', null, a.interface) : undefined),
      row('Why', a.reason),
      row(
        'Skipped',
        a.skipped?.length
          ? h(
              'ul',
              { class: 'kit-skipped' },
              a.skipped.map((s) =>
                h('li', null, h('code', null, s.entry), s.why ? ` — ${s.why}` : ''),
              ),
            )
          : undefined,
      ),
      row('Streaming', a.streaming),
      row('Push', a.push),
      row('Auth', a.auth),
      row('Skills', a.skills?.join(', ')),
    ),
    a.url
      ? h(
          'button',
          { type: 'button', class: 'small', onclick: () => open(a.url!) },
          `Inspect ${a.name}`,
        )
      : null,
  );
}

function stageBox(s: Stage, done: boolean): HTMLElement {
  const state = lastState(s);
  const label = state
    ? stateChip(state)
    : h('span', { class: 'muted' }, done ? 'done' : s.entries.length ? 'in progress' : 'waiting');
  return h(
    'li',
    {
      class: `kit-step ${state ? `step-${state.toLowerCase().replace(/_/g, '-')}` : done ? 'step-done' : 'step-waiting'}`,
    },
    h('strong', null, s.title),
    s.agent ? h('span', { class: 'muted' }, s.agent) : null,
    label,
  );
}

function entry(e: Entry): HTMLElement {
  const time = h('time', null, clock(e.at));
  switch (e.kind) {
    case 'state':
      return h(
        'li',
        null,
        time,
        ' ',
        stateChip(e.state),
        e.via ? h('span', { class: 'badge' }, e.via) : null,
        e.text ? h('span', null, ` ${e.text}`) : null,
      );
    case 'artifact':
      return h(
        'li',
        { class: 'kit-artifact' },
        time,
        ' ',
        h('strong', null, `artifact ${e.name}`),
        e.text ? `: ${e.text}` : '',
      );
    case 'confirm':
      return h(
        'li',
        { class: 'confirm' },
        time,
        ' ',
        h('strong', null, `${e.agent} asks: `),
        h('q', null, e.question),
        h('div', null, h('strong', null, 'Planner: '), e.answer),
      );
    case 'note':
      return h('li', { class: 'kit-note' }, time, ' ', e.text);
  }
}

function stageDetail(s: Stage): HTMLElement {
  const taskIds = [
    ...new Set(
      s.entries
        .map((e) => (e.kind === 'state' ? e.taskId : undefined))
        .filter((x): x is string => !!x),
    ),
  ];
  return h(
    'section',
    { class: 'panel kit-stage', 'aria-labelledby': `kit-${s.id}` },
    h('h3', { id: `kit-${s.id}` }, s.title, s.agent ? ` → ${s.agent}` : ''),
    s.detail ? h('p', { class: 'muted' }, s.detail) : null,
    taskIds.length
      ? h(
          'p',
          null,
          'Task ',
          taskIds.map((t) => shortId(t)),
        )
      : null,
    h('ol', { class: 'state-track' }, s.entries.map(entry)),
  );
}

function render(): void {
  scheduled = false;
  const body = byId('kit-body');
  if (records.length === 0) {
    replace(
      body,
      h(
        'p',
        null,
        'No kit run is attached to this inspector. Start one with ',
        h('code', null, 'npm start -- --ui'),
        ': the planner’s pipeline appears here live and stays to be browsed.',
      ),
    );
    return;
  }
  const m = build(records);
  const work = m.stages.filter((s) => s.id !== 'discovery');
  const discovery = m.stages.find((s) => s.id === 'discovery');
  replace(
    body,
    h(
      'p',
      {
        class: `kit-outcome ${m.outcome ? (m.outcome.ok ? 'ok' : 'bad') : 'live'}`,
        role: 'status',
      },
      m.outcome
        ? `${m.outcome.ok ? '✔' : '✘'} ${m.outcome.text}`
        : `${m.title ?? 'run'} — running …`,
    ),
    h(
      'ol',
      { class: 'kit-pipeline', 'aria-label': 'Pipeline' },
      discovery ? stageBox(discovery, work.length > 0 || !!m.outcome) : null,
      work.map((s) => stageBox(s, false)),
    ),
    h('h2', null, 'Agents'),
    h('ul', { class: 'kit-agents' }, [...m.agents.values()].map(agentCard)),
    discovery ? stageDetail({ ...discovery, title: 'Discovery decisions' }) : null,
    h('div', { class: 'kit-stages' }, work.map(stageDetail)),
  );
}

/** Every event of the run so far (on load). */
export function initKit(initial: PipelineRecord[], openAgent: (url: string) => void): void {
  records = initial;
  open = openAgent;
  render();
}

/** One more event, live. */
export function onPipeline(rec: PipelineRecord): void {
  if (records.some((r) => r.seq === rec.seq)) return;
  if (rec.type === 'run') records = [rec];
  else records.push(rec);
  if (!scheduled) {
    scheduled = true;
    requestAnimationFrame(render);
  }
}

/** Whether a kit run is attached (the page then opens on the kit view). */
export function hasRun(): boolean {
  return records.length > 0;
}
