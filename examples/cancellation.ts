/**
 * Cancellation. The agent works until its task is canceled: `ctx.signal` aborts and it stops. The client
 * starts the task without waiting for it (`returnImmediately`), cancels it, and then sees that a task
 * which has already ended cannot be canceled again.
 *
 *   npx tsx examples/cancellation.ts
 */
import { isA2AError } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage } from 'a2a-kit/client';

const watcher: AgentExecutor = async (ctx, task) => {
  task.working('watching the logs');
  // Work until canceled (bounded, as every example is: give up after 30 s).
  await new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, 30_000);
    ctx.signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });
  if (ctx.signal.aborted) return; // the server has recorded TASK_STATE_CANCELED already
  task.complete('nothing unusual');
};

const agent = createAgentServer({
  executor: watcher,
  card: (origin) => ({
    name: 'watcher',
    description: 'Watches until told to stop',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'watch', name: 'Watch', description: 'Watches logs', tags: ['demo'] }],
  }),
});
const client = await A2AClient.connect(await agent.listen(0));

const started = await client.sendMessage({
  message: userMessage('watch'),
  configuration: { returnImmediately: true },
});
if (!('task' in started)) throw new Error('expected a task');
console.log(`started: ${started.task.status.state}`);

const canceled = await client.cancelTask(started.task.id);
console.log(`canceled: ${canceled.status.state}`);

try {
  await client.cancelTask(started.task.id);
} catch (err) {
  if (!isA2AError(err) || err.kind !== 'TaskNotCancelable') throw err;
  console.log(`cancel again: ${err.kind}: ${err.message}`);
}
await agent.close();
