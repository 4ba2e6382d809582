/**
 * `a2a send <url> "text"`: sends a message and follows the task it starts — streamed live when the
 * agent streams, otherwise sent with returnImmediately and followed by polling — answers an
 * INPUT_REQUIRED question from the terminal (or exits 9 when there is none), and saves artifacts.
 */
import { userMessage, type SendMessageRequest } from 'a2a-kit/client';
import { saveArtifacts } from '../artifacts.js';
import type { Command, CommandContext } from '../command.js';
import type { AgentConnection } from '../connect.js';
import { CliExit, EXIT, exitForState } from '../exit-codes.js';
import { consume, follow, show, TaskTracker } from '../follow.js';
import { messageParts } from '../parts.js';
import { ask } from '../prompt.js';
import { textLine } from '../render.js';

/** How many answers one `send` gives to INPUT_REQUIRED before it stops asking. */
const MAX_TURNS = 50;

/** The `send` command. */
export const send: Command = {
  name: 'send',
  summary:
    'send a message and follow the task live (streaming, or polling when the agent does not stream)',
  usage: '<url> [text]',
  positionals: { min: 1, max: 2 },
  agent: true,
  options: {
    file: {
      type: 'string',
      multiple: true,
      value: 'PATH',
      help: 'attach a file as a file part (repeatable)',
    },
    'media-type': {
      type: 'string',
      value: 'TYPE',
      help: 'media type of every --file (default: from the extension; .ts is text/typescript)',
    },
    data: {
      type: 'string',
      multiple: true,
      value: 'JSON',
      help: 'attach a data part: inline JSON or @file.json (repeatable)',
    },
    task: {
      type: 'string',
      value: 'ID',
      help: 'continue this task (e.g. answer its INPUT_REQUIRED question)',
    },
    context: { type: 'string', value: 'ID', help: 'send within this context (conversation)' },
    out: {
      type: 'string',
      value: 'DIR',
      help: 'save the artifacts to DIR when the task settles (one file per part)',
    },
    'no-stream': {
      type: 'boolean',
      help: 'use SendMessage even when the agent streams, then follow with SubscribeToTask',
    },
    'no-wait': {
      type: 'boolean',
      help: 'return as soon as the agent has the task (returnImmediately); do not follow it',
    },
    'no-input': {
      type: 'boolean',
      help: 'never prompt: INPUT_REQUIRED ends the command with exit 9',
    },
    'history-length': {
      type: 'string',
      value: 'N',
      help: 'messages of history the agent includes in the task it returns',
    },
    accept: {
      type: 'string',
      multiple: true,
      value: 'MEDIA-TYPE',
      help: 'output media types you accept (acceptedOutputModes; repeatable)',
    },
    'push-url': {
      type: 'string',
      value: 'URL',
      help: "also register this webhook for the task's push notifications (see `a2a push listen`); sent with SendMessage, then followed",
    },
    'push-token': {
      type: 'string',
      value: 'TOKEN',
      help: 'the token the agent sends with each notification to --push-url',
    },
  },
  details: [
    'Streams (SendStreamingMessage) when the card declares streaming: one line per event — the state, the status text, artifact names. ' +
      'Otherwise sends with returnImmediately and polls GetTask until the task finishes or asks for input.',
    'When the task asks for input and stdin is a terminal, the question is shown and your answer is sent in the same task; ' +
      'without a terminal (or with --no-input) the command exits 9 and prints how to answer with --task.',
    'The exit code follows the state the task ended in: 0 COMPLETED, 6 FAILED, 7 CANCELED, 8 REJECTED, 9 INPUT_REQUIRED, 5 AUTH_REQUIRED.',
  ],
  examples: [
    'a2a send http://localhost:41241 "run tests in change-ok"',
    'a2a send http://localhost:41242 "review these" --file src/math.js --file src/text.js --out review/',
    'a2a send http://localhost:41243 "deploy change-ok to staging" --token "$(cat .kit-work/deployer-token)"',
    'a2a send http://localhost:41243 confirm --task 3f0c… --token …',
    'a2a send http://localhost:41241 --data \'{"path":"change-ok"}\' --json | jq -c .statusUpdate.status.state',
  ],
  run: runSend,
};

async function runSend(ctx: CommandContext): Promise<number> {
  const a = ctx.args;
  const [url, text] = a.positionals as [string, string | undefined];
  let parts = await messageParts(text, a.list('file'), a.list('data'), a.str('media-type'));
  const conn = await ctx.connect(url);
  const tracker = new TaskTracker();
  let taskId = a.str('task');
  let contextId = a.str('context');
  try {
    for (let turn = 0; turn < MAX_TURNS; turn++) {
      const message = userMessage(parts, {
        ...(taskId ? { taskId } : {}),
        ...(contextId ? { contextId } : {}),
      });
      await sendOnce(ctx, conn, tracker, { message, configuration: configuration(ctx, turn) });
      if (a.flag('no-wait') || tracker.state !== 'TASK_STATE_INPUT_REQUIRED') break;
      const answer = await answerFor(ctx, conn, tracker);
      parts = [{ text: answer }];
      taskId = tracker.taskId;
      contextId = tracker.contextId;
    }
  } catch (err) {
    if (ctx.signal.aborted && tracker.taskId) {
      ctx.term.note(
        ctx.term.err.dim(
          `the task goes on at the agent: a2a get ${url} ${tracker.taskId}   (a2a cancel ${url} ${tracker.taskId} stops it)`,
        ),
      );
    }
    throw err;
  }
  return finish(ctx, tracker, url);
}

function configuration(ctx: CommandContext, turn: number): SendMessageRequest['configuration'] {
  const a = ctx.args;
  const history = a.int('history-length', 0, 1_000_000);
  const accept = a.list('accept', true);
  const pushUrl = a.str('push-url');
  const pushToken = a.str('push-token');
  const push =
    pushUrl && turn === 0
      ? { taskPushNotificationConfig: { url: pushUrl, ...(pushToken ? { token: pushToken } : {}) } }
      : {};
  return {
    ...(history !== undefined ? { historyLength: history } : {}),
    ...(accept.length ? { acceptedOutputModes: accept } : {}),
    ...push,
  };
}

/** One message: streamed, or sent and then followed (unless --no-wait). */
async function sendOnce(
  ctx: CommandContext,
  conn: AgentConnection,
  tracker: TaskTracker,
  request: SendMessageRequest,
): Promise<void> {
  const { client } = conn;
  const name = conn.card.name;
  // A webhook goes with SendMessage: some servers (a2a-kit's among them) ignore one sent with SendStreamingMessage.
  const streaming =
    client.capabilities.streaming === true &&
    !ctx.args.flag('no-stream') &&
    !ctx.args.flag('no-wait') &&
    !request.configuration?.taskPushNotificationConfig;
  if (streaming) {
    const onEventId = (id: string) => (tracker.lastEventId = id);
    return consume(
      ctx,
      name,
      tracker,
      client.sendStreamingMessage(request, { signal: ctx.signal, onEventId }),
    );
  }
  ctx.term.waiting(`sending to ${name}`);
  let res;
  try {
    res = await client.sendMessage(
      { ...request, configuration: { ...request.configuration, returnImmediately: true } },
      { signal: ctx.signal },
    );
  } finally {
    ctx.term.done();
  }
  show(ctx, tracker, res);
  if (ctx.args.flag('no-wait')) return;
  await follow(ctx, client, name, tracker, 'task' in res ? res.task : undefined);
}

/** The answer to an INPUT_REQUIRED question, from the terminal; otherwise exit 9 with the way to answer. */
async function answerFor(
  ctx: CommandContext,
  conn: AgentConnection,
  tracker: TaskTracker,
): Promise<string> {
  const question = textLine(tracker.status?.parts) || 'The agent asks for input.';
  const how = `answer with: a2a send ${conn.url} "<answer>" --task ${tracker.taskId}`;
  if (!ctx.term.interactive || ctx.args.flag('no-input')) {
    const why = ctx.args.flag('no-input') ? '--no-input' : 'stdin is not a terminal';
    throw new CliExit(
      EXIT.INPUT_REQUIRED,
      `task ${tracker.taskId} waits for input (${why}): ${question}`,
      [how],
    );
  }
  const e = ctx.term.err;
  const answer = (
    await ask(
      ctx.io,
      `${e.magenta(`${conn.card.name} waits for your answer`)} ${e.dim('(an empty line or Ctrl-D leaves the task waiting)')}`,
      ctx.signal,
    )
  )?.trim();
  if (!answer)
    throw new CliExit(
      EXIT.INPUT_REQUIRED,
      `no answer given; task ${tracker.taskId} still waits for input`,
      [how],
    );
  return answer;
}

/** Saves the artifacts (--out), says where the task is, and turns its state into the exit code. */
async function finish(ctx: CommandContext, tracker: TaskTracker, url: string): Promise<number> {
  const out = ctx.args.str('out');
  if (out && tracker.artifacts.all.length) {
    for (const file of await saveArtifacts(out, tracker.artifacts.all))
      ctx.term.note(`saved ${file}`);
  }
  if (tracker.reply) return EXIT.OK;
  const state = tracker.state;
  if (!ctx.json && tracker.taskId && !tracker.settled)
    ctx.term.note(
      ctx.term.err.dim(`follow it with: a2a subscribe ${url} ${tracker.taskId}   (or a2a get)`),
    );
  if (state === 'TASK_STATE_AUTH_REQUIRED') {
    throw new CliExit(
      EXIT.AUTH,
      `task ${tracker.taskId} needs authentication: ${textLine(tracker.status?.parts) || 'the agent asks for credentials'}`,
    );
  }
  return exitForState(state);
}
