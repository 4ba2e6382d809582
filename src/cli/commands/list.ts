/** `a2a list <url>`: the caller's tasks (ListTasks), newest first, one page at a time, with its filters. */
import { TASK_STATES, type ListTasksRequest, type TaskState } from 'a2a-kit';
import type { Command, CommandContext } from '../command.js';
import { EXIT, UsageError } from '../exit-codes.js';
import { stateColour, stateName, textLine } from '../render.js';
import { didYouMean } from 'a2a-kit/cli-args';

/** `completed`, `input-required` or `TASK_STATE_COMPLETED` → the TaskState. */
export function parseState(raw: string): TaskState {
  const name = raw
    .trim()
    .toUpperCase()
    .replace(/-/g, '_')
    .replace(/^TASK_STATE_/, '');
  const state = `TASK_STATE_${name}` as TaskState;
  if (TASK_STATES.includes(state) && state !== ('TASK_STATE_UNSPECIFIED' as TaskState))
    return state;
  const names = TASK_STATES.map((s) => stateName(s).toLowerCase().replace(/_/g, '-'));
  throw new UsageError(
    `--status "${raw}" is not a task state (${names.join(', ')})${didYouMean(raw.toLowerCase(), names)}`,
  );
}

/** The `list` command. */
export const list: Command = {
  name: 'list',
  summary: 'list tasks (ListTasks), newest first, with filters and paging',
  usage: '<url>',
  positionals: { min: 1, max: 1 },
  agent: true,
  options: {
    status: {
      type: 'string',
      value: 'STATE',
      help: 'only tasks in this state: working, completed, input-required, …',
    },
    context: { type: 'string', value: 'ID', help: 'only tasks of this context' },
    'page-size': {
      type: 'string',
      value: 'N',
      help: "tasks per page (1–100; default: the agent's)",
    },
    'page-token': {
      type: 'string',
      value: 'TOKEN',
      help: 'the page after the one that printed this token',
    },
    'history-length': { type: 'string', value: 'N', help: 'messages of history per task' },
    since: {
      type: 'string',
      value: 'TIME',
      help: 'only tasks whose status changed at or after this ISO 8601 time',
    },
    artifacts: { type: 'boolean', help: 'include artifacts (with --json)' },
  },
  examples: [
    'a2a list http://localhost:41241 --status completed --page-size 10',
    'a2a list http://localhost:41241 --json | jq -r ".tasks[].id"',
  ],
  run: runList,
};

async function runList(ctx: CommandContext): Promise<number> {
  const a = ctx.args;
  const url = a.positionals[0]!;
  const status = a.str('status');
  const since = a.str('since');
  if (since !== undefined && Number.isNaN(Date.parse(since)))
    throw new UsageError(
      `--since expects an ISO 8601 time such as 2026-01-31T12:00:00Z, got "${since}"`,
    );
  const pageSize = a.int('page-size', 1, 100);
  const history = a.int('history-length', 0, 1_000_000);
  const request: ListTasksRequest = {
    ...(status ? { status: parseState(status) } : {}),
    ...(a.str('context') ? { contextId: a.str('context') } : {}),
    ...(pageSize !== undefined ? { pageSize } : {}),
    ...(a.str('page-token') ? { pageToken: a.str('page-token') } : {}),
    ...(history !== undefined ? { historyLength: history } : {}),
    ...(since ? { statusTimestampAfter: new Date(since).toISOString() } : {}),
    ...(a.flag('artifacts') ? { includeArtifacts: true } : {}),
  };
  const { client } = await ctx.connect(url);
  ctx.term.waiting('listing tasks');
  let page;
  try {
    page = await client.listTasks(request, { signal: ctx.signal });
  } finally {
    ctx.term.done();
  }
  if (ctx.json) {
    ctx.term.json(page);
    return EXIT.OK;
  }
  const p = ctx.term.out;
  if (page.tasks.length === 0) ctx.term.line(p.dim('no tasks'));
  for (const t of page.tasks) {
    const when = t.status.timestamp ?? ''.padEnd(24);
    const text = textLine(t.status.message?.parts);
    const state = stateColour(p, t.status.state)(stateName(t.status.state).padEnd(14));
    ctx.term.line(
      `${t.id}  ${state}  ${p.dim(when)}  ${p.dim(`context ${t.contextId}`)}${text ? `  ${text.slice(0, 80)}` : ''}`,
    );
  }
  const shown = page.tasks.length;
  ctx.term.note(
    p.dim(
      `${shown} task(s) of ${page.totalSize}${page.nextPageToken ? `; next page: --page-token ${page.nextPageToken}` : ''}`,
    ),
  );
  return EXIT.OK;
}
