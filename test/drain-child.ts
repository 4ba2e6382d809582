/**
 * An agent server in its own process for the SIGTERM drain test: SQLite store at DRAIN_DB, drain deadline
 * DRAIN_DEADLINE_MS, and an agent that either finishes shortly after SIGTERM (DRAIN_MODE=finishes) or
 * works until it is told to stop (DRAIN_MODE=hangs). Prints its origin on stdout once listening and logs
 * JSON lines on stderr; `closeOnSignals` does the rest.
 */
import { createAgentServer, type AgentExecutor, type Logger } from '../src/server/index.js';
import { SqliteTaskStore } from '../src/server/store/sqlite.js';

const mode = process.env.DRAIN_MODE ?? 'finishes';
const line = (level: string) => (obj: object, msg: string) =>
  process.stderr.write(`${JSON.stringify({ level, msg, ...obj })}\n`);
const logger: Logger = {
  debug: () => undefined,
  info: line('info'),
  warn: line('warn'),
  error: line('error'),
};

const executor: AgentExecutor = async (ctx, task) => {
  task.working('started');
  if (mode === 'finishes') {
    // Finishes only once the drain has begun (its handler was registered first), well inside the deadline.
    await new Promise((r) => process.once('SIGTERM', () => setTimeout(r, 100)));
    task.addArtifact({ name: 'result', parts: [{ text: 'done' }] });
    task.complete('finished during the drain');
    return;
  }
  await new Promise((r) =>
    ctx.signal.aborted ? r(undefined) : ctx.signal.addEventListener('abort', r, { once: true }),
  );
  task.cancel('stopped by the drain');
};

const server = createAgentServer({
  executor,
  logger,
  store: new SqliteTaskStore({ path: process.env.DRAIN_DB! }),
  drain: { deadlineMs: Number(process.env.DRAIN_DEADLINE_MS ?? 5000) },
  health: true,
  card: (origin) => ({
    name: 'drain-child',
    description: 'Runs one slow task',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true },
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'slow', name: 'Slow', description: 'Works a while', tags: ['test'] }],
  }),
});
const origin = await server.listen(0);
server.closeOnSignals();
process.stdout.write(`${origin}\n`);
