/**
 * The tasks view: ListTasks with its filters (context, state, time, page size, history length,
 * artifacts) and its pages, then one task in full — status, history, artifacts, push configs.
 */
import type { ListTaskPushNotificationConfigsResponse, ListTasksResponse, Task } from 'a2a-kit';
import { api, errorText } from './api.js';
import { announce, byId, h, replace, shortId, stateChip } from './dom.js';
import { jsonBlock, renderArtifact, renderMessage } from './parts.js';
import { currentAgent, onAgent } from './state.js';

/** Tokens of the pages before the one shown (the first page has none). */
let tokens: string[] = [];
let shownToken = '';

function filters(): Record<string, unknown> {
  const v = (id: string) => byId<HTMLInputElement>(id).value.trim();
  return {
    contextId: v('f-context'),
    status: v('f-status'),
    statusTimestampAfter: v('f-after') ? new Date(v('f-after')).toISOString() : '',
    pageSize: v('f-size'),
    historyLength: v('f-history'),
    includeArtifacts: byId<HTMLInputElement>('f-artifacts').checked,
  };
}

async function list(pageToken: string): Promise<void> {
  const agent = currentAgent();
  if (!agent) return announce('open an agent first (Card view)', 'error');
  const out = byId('tasks-list');
  out.setAttribute('aria-busy', 'true');
  try {
    const r = await api<ListTasksResponse>('/api/tasks/list', {
      agent: agent.agent,
      ...filters(),
      pageToken,
    });
    shownToken = pageToken;
    render(r);
    announce(`${r.tasks.length} task(s) on this page, ${r.totalSize} in all`);
  } catch (err) {
    replace(out, h('p', { class: 'error', role: 'alert' }, errorText(err)));
  } finally {
    out.removeAttribute('aria-busy');
  }
}

function render(r: ListTasksResponse): void {
  const rows = r.tasks.map((t) =>
    h(
      'tr',
      null,
      h(
        'td',
        null,
        h(
          'button',
          {
            type: 'button',
            class: 'link',
            onclick: () => void open(t.id),
            'aria-label': `Open task ${t.id}`,
          },
          shortId(t.id),
        ),
      ),
      h('td', null, shortId(t.contextId)),
      h('td', null, stateChip(t.status.state)),
      h('td', null, t.status.timestamp ? new Date(t.status.timestamp).toLocaleString() : ''),
      h('td', null, String(t.artifacts?.length ?? '—')),
      h('td', null, String(t.history?.length ?? '—')),
    ),
  );
  const page = tokens.length + 1;
  replace(
    byId('tasks-list'),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        null,
        h(
          'caption',
          null,
          `Page ${page} · ${r.totalSize} task(s) in all · page size ${r.pageSize}`,
        ),
        h(
          'thead',
          null,
          h(
            'tr',
            null,
            ['Task', 'Context', 'State', 'Status time', 'Artifacts', 'History'].map((t) =>
              h('th', { scope: 'col' }, t),
            ),
          ),
        ),
        h('tbody', null, rows),
      ),
    ),
    r.tasks.length === 0 ? h('p', null, 'No task matches.') : null,
    h(
      'div',
      { class: 'actions' },
      h(
        'button',
        {
          type: 'button',
          disabled: tokens.length === 0,
          onclick: () => void list(tokens.pop() ?? ''),
        },
        '← Previous page',
      ),
      h(
        'button',
        {
          type: 'button',
          disabled: !r.nextPageToken,
          onclick: () => (tokens.push(shownToken), void list(r.nextPageToken)),
        },
        'Next page →',
      ),
    ),
  );
}

async function open(id: string): Promise<void> {
  const agent = currentAgent();
  if (!agent) return;
  const out = byId('task-detail');
  try {
    const history = byId<HTMLInputElement>('f-history').value.trim();
    const task = await api<Task>('/api/tasks/get', {
      agent: agent.agent,
      id,
      ...(history ? { historyLength: history } : {}),
    });
    replace(
      out,
      h(
        'h3',
        { id: 'task-detail-title', tabindex: '-1' },
        'Task ',
        shortId(task.id),
        ' ',
        stateChip(task.status.state),
      ),
      h(
        'dl',
        { class: 'facts' },
        h('dt', null, 'Id'),
        h('dd', null, h('code', null, task.id)),
        h('dt', null, 'Context'),
        h('dd', null, h('code', null, task.contextId)),
        h('dt', null, 'Status time'),
        h('dd', null, task.status.timestamp ?? '—'),
      ),
      task.status.message
        ? [h('h4', null, 'Status message'), renderMessage(task.status.message)]
        : null,
      h('h4', null, `History (${task.history?.length ?? 0})`),
      task.history?.length
        ? h('div', { class: 'history' }, task.history.map(renderMessage))
        : h('p', { class: 'muted' }, 'none returned'),
      h('h4', null, `Artifacts (${task.artifacts?.length ?? 0})`),
      (task.artifacts ?? []).map((a) => renderArtifact(a)),
      h('h4', null, 'Push notification configs'),
      h('div', { id: 'push-configs' }, 'loading …'),
      h('details', null, h('summary', null, 'The task as JSON'), jsonBlock(task)),
    );
    byId('task-detail-title').focus();
    void pushConfigs(task.id);
  } catch (err) {
    replace(out, h('p', { class: 'error', role: 'alert' }, errorText(err)));
  }
}

async function pushConfigs(taskId: string): Promise<void> {
  const agent = currentAgent();
  const out = byId('push-configs');
  if (!agent?.card.capabilities.pushNotifications) {
    replace(
      out,
      h(
        'p',
        { class: 'muted' },
        'The card does not declare push notifications: the client would refuse without asking (PushNotificationNotSupported).',
      ),
    );
    return;
  }
  try {
    const r = await api<ListTaskPushNotificationConfigsResponse>('/api/tasks/push-configs', {
      agent: agent.agent,
      taskId,
    });
    replace(
      out,
      r.configs.length === 0
        ? h('p', { class: 'muted' }, 'none')
        : h(
            'ul',
            null,
            r.configs.map((c) =>
              h(
                'li',
                null,
                h('code', null, c.id ?? '?'),
                ' → ',
                h('code', null, c.url),
                c.token ? ' · token ••••••••' : '',
                c.authentication ? ` · ${c.authentication.scheme} auth` : '',
              ),
            ),
          ),
    );
  } catch (err) {
    replace(out, h('p', { class: 'error' }, errorText(err)));
  }
}

/** Wires the filters; a new agent empties the view. */
export function initTasks(): void {
  byId('tasks-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    tokens = [];
    void list('');
  });
  let shown: string | undefined;
  onAgent((f) => {
    if (f.agent === shown) return;
    shown = f.agent;
    tokens = [];
    byId('tasks-list').replaceChildren();
    byId('task-detail').replaceChildren();
  });
}
