/** `a2a cancel <url> <task-id>`: asks the agent to cancel a task and shows the state it answers with. */
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';
import { statusLine } from '../render.js';

/** The `cancel` command. */
export const cancel: Command = {
  name: 'cancel',
  summary: 'cancel a task (CancelTask) and show its new state',
  usage: '<url> <task-id>',
  positionals: { min: 2, max: 2 },
  agent: true,
  options: {},
  details: [
    'Exits 0 when the agent accepted the cancellation; 1 when it refused (e.g. TaskNotCancelable for a finished task).',
  ],
  examples: [
    'a2a cancel http://localhost:41243 3f0c2a8e-… --token "$(cat .kit-work/deployer-token)"',
  ],
  run: async (ctx: CommandContext) => {
    const [url, id] = ctx.args.positionals as [string, string];
    const { client } = await ctx.connect(url);
    ctx.term.waiting(`canceling task ${id}`);
    let task;
    try {
      task = await client.cancelTask({ id }, { signal: ctx.signal });
    } finally {
      ctx.term.done();
    }
    if (ctx.json) ctx.term.json(task);
    else
      ctx.term.line(
        `task ${task.id} ${statusLine(ctx.term.out, task.status.state, task.status.message)}`,
      );
    return EXIT.OK;
  },
};
