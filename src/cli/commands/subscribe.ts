/**
 * `a2a subscribe <url> <task-id>`: the task's events live (SubscribeToTask), resumable with
 * `--last-event-id`; polls GetTask when the agent does not stream. Exits with the state the task reached.
 */
import type { Command, CommandContext } from '../command.js';
import { exitForState } from '../exit-codes.js';
import { poll, show, subscribe as follow, TaskTracker } from '../follow.js';
import { saveArtifacts } from '../artifacts.js';

/** The `subscribe` command. */
export const subscribe: Command = {
  name: 'subscribe',
  summary: "follow a task's events live (SubscribeToTask; polling when the agent does not stream)",
  usage: '<url> <task-id>',
  positionals: { min: 2, max: 2 },
  agent: true,
  options: {
    'last-event-id': {
      type: 'string',
      value: 'ID',
      help: 'resume after this event (Last-Event-ID) instead of starting with the task as it is',
    },
    out: { type: 'string', value: 'DIR', help: 'save the artifacts to DIR when the stream ends' },
  },
  details: [
    'Ends when the task finishes or waits for input; the exit code follows its state as for `a2a send`.',
    "With --verbose each event's id is printed on stderr; Ctrl-C prints the id to resume from.",
    'A task that has already finished is shown as it ended (the agent refuses to subscribe to it).',
  ],
  examples: [
    'a2a subscribe http://localhost:41241 3f0c2a8e-…',
    'a2a subscribe http://localhost:41241 3f0c2a8e-… --last-event-id 7 --json',
  ],
  run: runSubscribe,
};

async function runSubscribe(ctx: CommandContext): Promise<number> {
  const [url, id] = ctx.args.positionals as [string, string];
  const lastEventId = ctx.args.str('last-event-id');
  const { client, card } = await ctx.connect(url);
  const tracker = new TaskTracker();
  tracker.taskId = id;
  const verbose = ctx.args.flag('verbose');
  const onEventId = (eid: string) => {
    if (verbose) ctx.term.note(ctx.term.err.dim(`  event id ${eid}`));
  };
  try {
    if (!client.capabilities.streaming) {
      ctx.term.note(ctx.term.err.dim(`${card.name} does not stream; polling GetTask`));
      show(ctx, tracker, { task: await client.getTask({ id }, { signal: ctx.signal }) });
      await poll(ctx, client, card.name, tracker);
    } else
      await follow(ctx, client, card.name, tracker, {
        onEventId,
        ...(lastEventId ? { lastEventId } : {}),
      });
  } catch (err) {
    if (ctx.signal.aborted && tracker.lastEventId)
      ctx.term.note(
        ctx.term.err.dim(
          `resume with: a2a subscribe ${url} ${id} --last-event-id ${tracker.lastEventId}`,
        ),
      );
    throw err;
  }
  const out = ctx.args.str('out');
  if (out && tracker.artifacts.all.length)
    for (const file of await saveArtifacts(out, tracker.artifacts.all))
      ctx.term.note(`saved ${file}`);
  return exitForState(tracker.state);
}
