/**
 * `a2a inspect [url]`: starts the browser inspector (a2a-kit/inspector) on this machine and prints its
 * address — with an agent's URL, the link that opens that agent's card directly.
 */
import { startInspector } from 'a2a-kit/inspector';
import type { Command, CommandContext } from '../command.js';
import { EXIT } from '../exit-codes.js';

/** The `inspect` command. */
export const inspect: Command = {
  name: 'inspect',
  summary:
    'open the inspector: a local web page to look at an agent, talk to it and watch its tasks',
  usage: '[url]',
  positionals: { min: 0, max: 1 },
  agent: false,
  options: {
    port: {
      type: 'string',
      value: 'PORT',
      help: 'port of the inspector (default 41250; 0 picks a free one)',
    },
    host: {
      type: 'string',
      value: 'HOST',
      help: 'address to listen on (default 127.0.0.1; the inspector holds credentials, keep it local)',
    },
  },
  details: [
    "Prints the page's address (with an agent URL: the link that opens its card) and runs until Ctrl-C.",
  ],
  examples: ['a2a inspect', 'a2a inspect http://localhost:41242'],
  run: async (ctx: CommandContext) => {
    const a = ctx.args;
    const agent = a.positionals[0];
    const inspector = await startInspector({
      port: a.int('port', 0, 65535) ?? 41250,
      host: a.str('host') ?? '127.0.0.1',
    });
    ctx.term.line(agent ? inspector.link(agent) : inspector.url);
    ctx.term.line(ctx.term.out.dim('Ctrl-C stops it'));
    await new Promise<void>((resolve) => {
      if (ctx.signal.aborted) return resolve();
      ctx.signal.addEventListener('abort', () => resolve(), { once: true });
    });
    await inspector.close();
    return EXIT.OK;
  },
};
