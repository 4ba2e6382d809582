/**
 * An agent server in its own process for the default-logging test, so that what reaches stderr is
 * exactly what the library wrote. LOG_MODE=default gives no `logger`; LOG_MODE=silent gives
 * `silentLogger`. The agent throws on "throw" and returns with its task still WORKING on "forget";
 * the child sends both to itself, prints the two task ids as JSON on stdout, and then:
 * - default: stays up until killed (the parent reads stderr until both warnings are there);
 * - silent: waits for a second server's warning with the same delay (so the first one's timer has
 *   fired too), then exits.
 */
import { A2AClient, userMessage } from '../src/client/index.js';
import {
  createAgentServer,
  silentLogger,
  stderrLogger,
  type AgentExecutor,
  type AgentServer,
  type Logger,
} from '../src/server/index.js';
import type { AgentCard } from '../src/index.js';

const WARN_MS = 200;

const executor: AgentExecutor = (ctx, task) => {
  task.working('started');
  if (ctx.text === 'throw') throw new TypeError('the agent tripped over its own feet');
  // "forget": a forgotten complete(), the task stays WORKING after the executor returns.
};

const card = (origin: string): AgentCard => ({
  name: 'logging-child',
  description: 'throws, or forgets to finish',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});

async function run(logger: Logger | undefined): Promise<{ server: AgentServer; ids: string[] }> {
  const server = createAgentServer({
    card,
    executor,
    unfinishedTaskWarningMs: WARN_MS,
    ...(logger ? { logger } : {}),
  });
  const url = await server.listen(0, '127.0.0.1');
  const client = await A2AClient.connect(url, { cache: false });
  const ids: string[] = [];
  for (const text of ['throw', 'forget']) {
    const res = await client.sendMessage({
      message: userMessage(text),
      configuration: { returnImmediately: true },
    });
    if ('task' in res) ids.push(res.task.id);
  }
  return { server, ids };
}

const mode = process.env.LOG_MODE ?? 'default';
const first = await run(mode === 'silent' ? silentLogger : undefined);
process.stdout.write(`${JSON.stringify(first.ids)}\n`);
if (mode === 'silent') {
  let heard = false;
  const probe = await run(stderrLogger({ write: () => void (heard = true) }));
  for (let i = 0; i < 200 && !heard; i++) await new Promise((r) => setTimeout(r, 50));
  await probe.server.close();
  await first.server.close();
  process.exit(heard ? 0 : 3);
}
