/**
 * The inspector page: five views (card, talk, tasks, wire, kit) switched by the URL's hash, one live
 * channel from the inspector server, and `?agent=<url>` to open an agent directly.
 */
import type { PipelineRecord } from '../pipeline.js';
import type { WireExchange } from '../wire.js';
import type { KnownAgent } from '../known-agents.js';
import { api, errorText, listen } from './api.js';
import { initCardView, openAgent, renderCard } from './card-view.js';
import { announce, byId, h, replace } from './dom.js';
import { hasRun, initKit, onPipeline } from './kit-view.js';
import { onAgent } from './state.js';
import { initTalk, onTalkEnd, onTalkEvent, resumeAfterReload, tryExample } from './talk-view.js';
import { initTasks } from './tasks-view.js';
import { initWire, onWire, onWireChunk } from './wire-view.js';

const VIEWS = ['card', 'talk', 'tasks', 'wire', 'kit'] as const;
type View = (typeof VIEWS)[number];

function show(view: View, focus: boolean): void {
  for (const v of VIEWS) {
    byId(`view-${v}`).hidden = v !== view;
    const link = document.querySelector(`nav a[href="#${v}"]`);
    if (v === view) link?.setAttribute('aria-current', 'page');
    else link?.removeAttribute('aria-current');
  }
  if (focus) byId(`h-${view}`).focus();
}

function route(focus: boolean): void {
  const v = location.hash.slice(1) as View;
  show(VIEWS.includes(v) ? v : 'card', focus);
}

/** Opens an agent from the URL box, a picker button or a link, and shows its card. */
async function go(url: string): Promise<void> {
  byId<HTMLInputElement>('agent-url').value = url;
  if (location.hash !== '#card' && location.hash !== '') location.hash = '#card';
  await openAgent(url);
}

async function picker(): Promise<void> {
  try {
    const agents = await api<KnownAgent[]>('/api/agents');
    const up = agents.filter((a) => a.up);
    replace(
      byId('known'),
      up.length
        ? [
            h('span', { class: 'muted' }, 'Running: '),
            up.map((a) =>
              h(
                'button',
                {
                  type: 'button',
                  class: 'small',
                  onclick: () => void go(a.url),
                  title: a.description ?? '',
                },
                `${a.name} (${new URL(a.url).port})`,
              ),
            ),
          ]
        : h(
            'span',
            { class: 'muted' },
            `No kit agent answers on ${agents.map((a) => new URL(a.url).port).join(', ')}.`,
          ),
    );
    replace(
      byId('known-agents'),
      agents.map((a) => h('option', { value: a.url }, a.name ?? '')),
    );
  } catch (err) {
    replace(byId('known'), h('span', { class: 'muted' }, errorText(err)));
  }
}

async function main(): Promise<void> {
  const state = await api<{ after: number; wire: WireExchange[]; pipeline: PipelineRecord[] }>(
    '/api/state',
  );
  initCardView({ tryExample });
  initTalk();
  initTasks();
  initWire(state.wire);
  const agentParam = new URLSearchParams(location.search).get('agent');
  initKit(state.pipeline, (url) => void go(url));
  onAgent(renderCard);
  listen(state.after, {
    talk: (d) => onTalkEvent(d as Parameters<typeof onTalkEvent>[0]),
    'talk-end': (d) => onTalkEnd(d as Parameters<typeof onTalkEnd>[0]),
    wire: (d) => onWire(d as WireExchange),
    'wire-chunk': (d) => onWireChunk(d as { id: number; text: string }),
    pipeline: (d) => onPipeline(d as PipelineRecord),
  });
  window.addEventListener('hashchange', () => route(true));
  if (!location.hash && hasRun() && !agentParam) location.replace('#kit');
  route(false);
  byId('open-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    void go(byId<HTMLInputElement>('agent-url').value);
  });
  void picker();
  if (agentParam) {
    byId<HTMLInputElement>('agent-url').value = agentParam;
    await openAgent(agentParam);
    resumeAfterReload();
  } else announce('Enter an agent URL, or pick a running kit agent.');
  document.body.dataset.ready = 'true';
}

main().catch((err: unknown) => announce(`the page could not start: ${errorText(err)}`, 'error'));
