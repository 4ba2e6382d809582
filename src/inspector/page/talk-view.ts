/**
 * The talk view: compose a message (text, a file, JSON data), send it or stream it, answer a task
 * that asks for input, cancel it, stop listening, and pick the stream up again after a reload from
 * the last event id seen (the inspector re-subscribes with `Last-Event-ID`).
 */
import type { JsonObject, Part, SendMessageResponse, StreamResponse, Task } from 'a2a-kit';
import { api, errorText } from './api.js';
import { readMetadata, readParts } from './composer.js';
import {
  announce,
  byId,
  isTerminal,
  replace,
  shortId,
  shortState,
  stateChip,
  visible,
} from './dom.js';
import { currentAgent, onAgent } from './state.js';
import { addEvent, addNote, addResult, addSent, clearTimeline } from './timeline.js';

/** The task being talked about, kept in sessionStorage so a reload can pick it up again. */
interface Current {
  agent: string;
  taskId?: string;
  contextId?: string;
  state?: string;
  lastEventId?: string;
}

const KEY = 'a2a-inspector-talk';
let cur: Current | undefined;
/** Streams this page started: another tab of the same session has its own. */
const mine = new Set<string>();
let active: string | undefined;

function save(): void {
  if (cur) sessionStorage.setItem(KEY, JSON.stringify(cur));
  else sessionStorage.removeItem(KEY);
}

function saved(): Current | undefined {
  try {
    return JSON.parse(sessionStorage.getItem(KEY) ?? 'null') ?? undefined;
  } catch {
    return undefined;
  }
}

function renderBar(): void {
  const bar = byId('task-bar');
  bar.hidden = !cur?.taskId;
  if (!cur?.taskId) return;
  replace(byId('task-id'), shortId(cur.taskId));
  replace(byId('task-state'), cur.state ? stateChip(cur.state) : '');
  byId('task-event').textContent = cur.lastEventId ? visible(`last event #${cur.lastEventId}`) : '';
  const open = !!cur.state && !isTerminal(cur.state);
  byId<HTMLButtonElement>('btn-cancel').disabled = !open;
  byId('btn-stop').hidden = active === undefined;
  const waiting =
    cur.state === 'TASK_STATE_INPUT_REQUIRED' || cur.state === 'TASK_STATE_AUTH_REQUIRED';
  const row = byId('continue-row');
  row.hidden = !open;
  const box = byId<HTMLInputElement>('msg-continue');
  if (waiting) box.checked = true;
  byId('continue-label').textContent = visible(
    waiting
      ? `Answer task ${cur.taskId.slice(0, 8)} (it is ${shortState(cur.state!).replace(/_/g, ' ').toLowerCase()})`
      : `Send within task ${cur.taskId.slice(0, 8)}`,
  );
}

/** Follows the task an event is about. */
function track(ev: StreamResponse | { task: Task }, eventId?: string): void {
  if (!cur) return;
  const t =
    'task' in ev
      ? { id: ev.task.id, contextId: ev.task.contextId, state: ev.task.status.state }
      : 'statusUpdate' in ev
        ? {
            id: ev.statusUpdate.taskId,
            contextId: ev.statusUpdate.contextId,
            state: ev.statusUpdate.status.state,
          }
        : 'artifactUpdate' in ev
          ? { id: ev.artifactUpdate.taskId, contextId: ev.artifactUpdate.contextId }
          : undefined;
  if (t) {
    if (t.id !== cur.taskId) delete cur.lastEventId;
    cur.taskId = t.id;
    cur.contextId = t.contextId;
    if ('state' in t && t.state) cur.state = t.state;
  }
  if (eventId) cur.lastEventId = eventId;
  save();
  renderBar();
}

async function submit(mode: 'send' | 'stream'): Promise<void> {
  const agent = currentAgent();
  if (!agent) return announce('open an agent first (Card view)', 'error');
  let parts: Part[];
  let metadata: JsonObject | undefined;
  try {
    parts = await readParts();
    metadata = readMetadata();
  } catch (err) {
    return announce((err as Error).message, 'error');
  }
  const within =
    !byId('continue-row').hidden && byId<HTMLInputElement>('msg-continue').checked && cur?.taskId;
  const target = within
    ? { taskId: cur!.taskId!, ...(cur!.contextId ? { contextId: cur!.contextId } : {}) }
    : {};
  if (!within) cur = { agent: agent.agent };
  const returnImmediately = byId<HTMLInputElement>('msg-immediate').checked;
  const streamId = crypto.randomUUID();
  // Shown before the request: a stream's first events may arrive before its HTTP answer does.
  addSent(
    { messageId: '', role: 'ROLE_USER', parts, ...target, ...(metadata ? { metadata } : {}) },
    mode === 'stream' ? 'SendStreamingMessage' : 'SendMessage',
  );
  if (mode === 'stream') {
    mine.add(streamId);
    active = streamId;
  }
  byId<HTMLFormElement>('composer').reset();
  renderBar();
  try {
    const r = await api<{ result?: SendMessageResponse }>('/api/talk', {
      agent: agent.agent,
      mode,
      parts,
      streamId,
      ...target,
      ...(metadata ? { metadata } : {}),
      returnImmediately,
    });
    if (r.result) {
      addResult(r.result);
      if ('task' in r.result) track(r.result);
    }
  } catch (err) {
    if (active === streamId) active = undefined;
    addNote(errorText(err), 'error');
    renderBar();
  }
}

/** Opens a stream of the current task's events, from the last event id seen when there is one. */
async function resubscribe(why: string): Promise<void> {
  const agent = currentAgent();
  if (!agent || !cur?.taskId) return;
  const streamId = crypto.randomUUID();
  mine.add(streamId);
  active = streamId;
  addNote(
    `${why}: SubscribeToTask ${cur.taskId.slice(0, 8)}${cur.lastEventId ? ` with Last-Event-ID ${cur.lastEventId}` : ''}`,
  );
  renderBar();
  try {
    await api('/api/talk/subscribe', {
      agent: agent.agent,
      taskId: cur.taskId,
      lastEventId: cur.lastEventId,
      streamId,
    });
  } catch (err) {
    active = undefined;
    addNote(errorText(err), 'error');
    renderBar();
  }
}

async function cancel(): Promise<void> {
  const agent = currentAgent();
  if (!agent || !cur?.taskId) return;
  try {
    const task = await api<Task>('/api/talk/cancel', { agent: agent.agent, taskId: cur.taskId });
    addNote(`CancelTask → ${shortState(task.status.state)}`);
    addEvent({ task });
    track({ task });
  } catch (err) {
    addNote(errorText(err), 'error');
  }
}

/** A stream event from the inspector server. */
export function onTalkEvent(d: {
  streamId: string;
  event?: StreamResponse;
  eventId?: string;
  /** Set instead of `event` when the event was too large to send to the page (its JSON length). */
  tooLarge?: number;
}): void {
  if (!mine.has(d.streamId)) return;
  if (!d.event) {
    const kib = Math.round((d.tooLarge ?? 0) / 1024);
    return addNote(`an event of ${kib} KiB: too large to show here (the wire view has its start)`);
  }
  addEvent(d.event, d.eventId);
  track(d.event, d.eventId);
}

/** A stream ended: by itself, stopped by the user, or with an error. */
export function onTalkEnd(d: { streamId: string; error?: string; stopped?: boolean }): void {
  if (!mine.has(d.streamId)) return;
  mine.delete(d.streamId);
  if (active === d.streamId) active = undefined;
  if (d.error) addNote(d.error, 'error');
  else
    addNote(d.stopped ? 'stopped listening (the task goes on at the agent)' : 'the stream ended');
  renderBar();
}

/** Puts an example in the composer and shows the talk view. */
export function tryExample(text: string): void {
  byId<HTMLTextAreaElement>('msg-text').value = text;
  location.hash = '#talk';
  byId('msg-text').focus();
}

/** After a reload: the task this tab was following, if it is still going, is picked up again. */
export function resumeAfterReload(): void {
  const agent = currentAgent();
  const s = saved();
  if (!agent || !s || s.agent !== agent.agent || !s.taskId) return;
  cur = s;
  renderBar();
  if (s.state && isTerminal(s.state))
    return addNote(
      `task ${s.taskId.slice(0, 8)} from before the reload ended ${shortState(s.state)}`,
    );
  void resubscribe('picked up after a reload');
}

/** Wires the composer and the task bar. */
export function initTalk(): void {
  const form = byId<HTMLFormElement>('composer');
  form.addEventListener('submit', (ev) => {
    ev.preventDefault();
    const submitter = ev.submitter as HTMLButtonElement | null;
    void submit(submitter?.value === 'send' ? 'send' : 'stream');
  });
  byId('btn-cancel').addEventListener('click', () => void cancel());
  byId('btn-resubscribe').addEventListener('click', () => void resubscribe('re-subscribing'));
  byId('btn-stop').addEventListener('click', () => {
    if (active)
      void api('/api/talk/stop', { streamId: active }).catch((err: unknown) =>
        announce(errorText(err), 'error'),
      );
  });
  byId('btn-new').addEventListener('click', () => {
    cur = currentAgent() ? { agent: currentAgent()!.agent } : undefined;
    save();
    clearTimeline();
    renderBar();
  });
  onAgent((f) => {
    replace(
      byId('talk-agent'),
      `Talking to ${f.card.name} at ${f.agent} — `,
      f.card.capabilities.streaming
        ? 'it streams.'
        : 'it does not stream: use Send (the client refuses Stream without a round trip).',
    );
    if (cur && cur.agent !== f.agent) {
      cur = undefined;
      clearTimeline();
    }
    renderBar();
  });
}
