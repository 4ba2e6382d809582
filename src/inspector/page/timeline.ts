/**
 * The talk view's timeline: what was sent and everything that came back, in order — the task, its
 * state changes (coloured by state), status messages, artifacts (rendered by media type), replies.
 */
import type { Message, SendMessageResponse, StreamResponse, Task } from 'a2a-kit';
import { byId, clock, h, shortId, stateChip, type Child } from './dom.js';
import { renderArtifact, renderMessage, renderPart } from './parts.js';

/** Entries the timeline keeps. */
const MAX_ENTRIES = 500;

function entry(kind: string, label: Child, ...body: Child[]): HTMLElement {
  const li = h(
    'li',
    { class: `tl tl-${kind}` },
    h('div', { class: 'tl-head' }, h('time', null, clock()), ' ', label),
    body.length ? h('div', { class: 'tl-body' }, body) : null,
  );
  const list = byId('timeline');
  list.appendChild(li);
  // An endless stream must not grow the page without end: the oldest entries go, counted at the top.
  if (list.children.length > MAX_ENTRIES) {
    let note = list.querySelector<HTMLElement>('li.tl-dropped');
    if (!note) {
      note = h('li', { class: 'tl tl-dropped muted' });
      note.dataset.count = '0';
      list.prepend(note);
    }
    while (list.children.length > MAX_ENTRIES + 1) {
      note.nextElementSibling?.remove();
      note.dataset.count = String(Number(note.dataset.count) + 1);
    }
    note.textContent = `${note.dataset.count} earlier entries dropped (the timeline keeps the last ${MAX_ENTRIES})`;
  }
  li.scrollIntoView({ block: 'nearest' });
  return li;
}

function eventTag(eventId: string | undefined): Child {
  return eventId
    ? h(
        'span',
        { class: 'muted event-id', title: 'SSE event id (Last-Event-ID on resume)' },
        ` #${eventId}`,
      )
    : null;
}

/** The user's message as sent. */
export function addSent(m: Message, how: string): void {
  entry(
    'sent',
    h('strong', null, `You → ${how}`),
    m.taskId ? h('span', { class: 'muted' }, ' in task ', shortId(m.taskId)) : null,
    renderMessage(m),
  );
}

/** A task as a whole: its state, its status message, its artifacts. */
function taskBody(t: Task): Child[] {
  return [
    t.status.message
      ? h('div', { class: 'status-message' }, t.status.message.parts.map(renderPart))
      : null,
    (t.artifacts ?? []).map((a) => renderArtifact(a)),
  ];
}

/** One event of a stream (or of a re-subscription). */
export function addEvent(ev: StreamResponse, eventId?: string): void {
  if ('task' in ev) {
    const t = ev.task;
    entry(
      'task',
      [
        h('strong', null, 'Task '),
        shortId(t.id),
        ' ',
        stateChip(t.status.state),
        eventTag(eventId),
      ],
      ...taskBody(t),
    );
  } else if ('statusUpdate' in ev) {
    const s = ev.statusUpdate.status;
    entry(
      `state state-row-${s.state
        .replace(/^TASK_STATE_/, '')
        .toLowerCase()
        .replace(/_/g, '-')}`,
      [stateChip(s.state), eventTag(eventId)],
      s.message ? h('div', { class: 'status-message' }, s.message.parts.map(renderPart)) : null,
    );
  } else if ('artifactUpdate' in ev) {
    const u = ev.artifactUpdate;
    const note = [u.append ? 'appended chunk' : '', u.lastChunk ? 'last chunk' : '']
      .filter(Boolean)
      .join(', ');
    entry(
      'artifact',
      [h('strong', null, 'Artifact'), eventTag(eventId)],
      renderArtifact(u.artifact, note),
    );
  } else if ('message' in ev) {
    entry('reply', [h('strong', null, 'Reply'), eventTag(eventId)], renderMessage(ev.message));
  }
}

/** The answer of a SendMessage: a task, or a direct reply. */
export function addResult(r: SendMessageResponse): void {
  if ('task' in r) addEvent({ task: r.task });
  else addEvent({ message: r.message });
}

/** A line of the inspector's own: the stream ended, the task was canceled, … */
export function addNote(text: string, kind: 'note' | 'error' = 'note'): void {
  entry(kind, kind === 'error' ? h('strong', null, text) : h('span', { class: 'muted' }, text));
}

/** Empties the timeline. */
export function clearTimeline(): void {
  byId('timeline').replaceChildren();
}
