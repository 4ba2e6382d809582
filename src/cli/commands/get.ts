/** `a2a get <url> <task-id>`: one task — state, status text, artifacts, history — and `--out` for its artifacts. */
import { saveArtifacts } from '../artifacts.js';
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { taskLines } from '../render.js';

/** The `get` command. */
export const get: Command = {
  name: 'get',
  summary: 'show a task (GetTask): state, status text, artifacts, history',
  usage: '<url> <task-id>',
  positionals: { min: 2, max: 2 },
  agent: true,
  options: {
    'history-length': {
      type: 'string',
      value: 'N',
      help: 'at most N messages of history (0 for none; default: what the agent sends)',
    },
    out: {
      type: 'string',
      value: 'DIR',
      help: "save the task's artifacts to DIR (one file per part)",
    },
  },
  details: ['Exits 0 whatever state the task is in; `a2a subscribe` waits for it to finish.'],
  examples: [
    'a2a get http://localhost:41241 3f0c2a8e-… --history-length 5',
    'a2a get http://localhost:41241 3f0c2a8e-… --json | jq .status.state',
  ],
  run: async (ctx: CommandContext) => {
    const [url, id] = ctx.args.positionals as [string, string];
    const history = ctx.args.int('history-length', 0, 1_000_000);
    const { client } = await ctx.connect(url);
    ctx.term.waiting(`getting task ${id}`);
    let task;
    try {
      task = await client.getTask(
        { id, ...(history !== undefined ? { historyLength: history } : {}) },
        { signal: ctx.signal },
      );
    } finally {
      ctx.term.done();
    }
    if (ctx.json) ctx.term.json(task);
    else ctx.term.line(taskLines(ctx.term.out, task).join('\n'));
    const out = ctx.args.str('out');
    if (out && task.artifacts?.length)
      for (const file of await saveArtifacts(out, task.artifacts)) ctx.term.note(`saved ${file}`);
    return EXIT.OK;
  },
};
