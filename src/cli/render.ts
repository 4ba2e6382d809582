/**
 * How tasks, messages and stream events read on a terminal: one line per event (state, status text,
 * artifact names), a short block per task. Plain text first; colour is only an added hint.
 */
import type { Artifact, Message, Part, StreamResponse, Task, TaskState } from 'a2a-kit';
import { joinTextChunks } from './artifacts.js';
import type { Palette } from './terminal.js';

/** `TASK_STATE_INPUT_REQUIRED` → `INPUT_REQUIRED`. */
export function stateName(state: TaskState | string): string {
  return state.replace(/^TASK_STATE_/, '');
}

/** The colour of a state, by what it means for the user (done, failed, waiting for you, busy). */
export function stateColour(p: Palette, state: TaskState): (s: string) => string {
  switch (state) {
    case 'TASK_STATE_COMPLETED':
      return p.green;
    case 'TASK_STATE_FAILED':
    case 'TASK_STATE_REJECTED':
      return p.red;
    case 'TASK_STATE_CANCELED':
      return p.yellow;
    case 'TASK_STATE_INPUT_REQUIRED':
    case 'TASK_STATE_AUTH_REQUIRED':
      return p.magenta;
    default:
      return p.cyan;
  }
}

/** The state's name, coloured. */
export function paintState(p: Palette, state: TaskState): string {
  return stateColour(p, state)(stateName(state));
}

/** The text parts, joined; line breaks shown as ` ↵ ` so one event stays one line. */
export function textLine(parts: readonly Part[] | undefined): string {
  const text = (parts ?? [])
    .flatMap((p) => (typeof p.text === 'string' ? [p.text] : []))
    .join('\n');
  // Each run of blanks is matched once: `\s*\n\s*` backtracked quadratically on a long blank run.
  return text.trim().replace(/\s+/g, (run) => (run.includes('\n') ? ' ↵ ' : run));
}

/** What kinds of parts there are: `text, data, file report.pdf (application/pdf), url https://…`. */
export function partsSummary(parts: readonly Part[]): string {
  return parts
    .map((p) => {
      if (p.text !== undefined) return 'text';
      if (p.data !== undefined) return 'data';
      if (p.raw !== undefined)
        return `file ${p.filename ?? ''}${p.mediaType ? ` (${p.mediaType})` : ''}`.replace(
          '  ',
          ' ',
        );
      return `url ${p.url}`;
    })
    .join(', ');
}

const cut = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** `artifact test-results: change-ok: 8 passed…` */
export function artifactLine(p: Palette, artifact: Artifact, append = false): string {
  const name = artifact.name ?? artifact.artifactId;
  const text = textLine(joinTextChunks(artifact.parts));
  const what = text ? `: ${cut(text, 120)}` : ` (${partsSummary(artifact.parts)})`;
  return `${p.blue('artifact')} ${p.bold(name)}${append ? p.dim(' (more)') : ''}${what}`;
}

/** The status line of a task or status event: `WORKING  Running 2 test file(s)`. */
export function statusLine(p: Palette, state: TaskState, message: Message | undefined): string {
  const text = textLine(message?.parts);
  return text ? `${paintState(p, state)}  ${text}` : paintState(p, state);
}

/** One line for one event of a stream (or of a push delivery). */
export function eventLine(p: Palette, ev: StreamResponse): string {
  if ('task' in ev) {
    const t = ev.task;
    return `${p.dim('task')} ${t.id} ${p.dim(`(context ${t.contextId})`)} ${statusLine(p, t.status.state, t.status.message)}`;
  }
  if ('statusUpdate' in ev)
    return statusLine(p, ev.statusUpdate.status.state, ev.statusUpdate.status.message);
  if ('artifactUpdate' in ev)
    return artifactLine(p, ev.artifactUpdate.artifact, ev.artifactUpdate.append === true);
  return messageLine(p, ev.message);
}

/** An agent's direct reply. */
export function messageLine(p: Palette, m: Message): string {
  const text = textLine(m.parts);
  return `${p.blue('message')}  ${text || `(${partsSummary(m.parts)})`}`;
}

/** A task as a short block: id and state, status text, artifacts, and the history when asked for. */
export function taskLines(p: Palette, task: Task): string[] {
  const out = [`${p.bold('task')} ${task.id}  ${paintState(p, task.status.state)}`];
  out.push(`  ${p.dim('context')}   ${task.contextId}`);
  if (task.status.timestamp) out.push(`  ${p.dim('updated')}   ${task.status.timestamp}`);
  const status = textLine(task.status.message?.parts);
  if (status) out.push(`  ${p.dim('status')}    ${status}`);
  for (const a of task.artifacts ?? []) out.push(`  ${artifactLine(p, a)}`);
  if (task.history?.length) {
    out.push(`  ${p.dim(`history (${task.history.length} message(s))`)}`);
    for (const m of task.history) {
      const who = m.role === 'ROLE_USER' ? 'user ' : 'agent';
      out.push(`    ${p.dim(who)} ${cut(textLine(m.parts) || `(${partsSummary(m.parts)})`, 160)}`);
    }
  }
  return out;
}
