/**
 * Multi-turn input. Before deploying to production the agent asks for a confirmation and the task
 * waits in TASK_STATE_INPUT_REQUIRED; the client answers with a message carrying the same `taskId`
 * (and `contextId`), and the agent, called again with the task in `ctx.task`, carries on.
 *
 *   npx tsx examples/multi-turn.ts
 */
import { textOf } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, userMessage, type SendMessageResponse } from 'a2a-kit/client';

const deployer: AgentExecutor = (ctx, task) => {
  const waiting = ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED';
  if (!waiting) {
    // First turn: anything but production goes ahead; production needs a yes.
    if (ctx.text.trim() !== 'production') return task.complete(`deployed to ${ctx.text.trim()}`);
    return task.inputRequired("Production: reply 'yes' to deploy, anything else to stop.");
  }
  if (ctx.text.trim().toLowerCase() === 'yes') task.complete('deployed to production');
  else task.reject('not deployed: no confirmation');
};

const agent = createAgentServer({
  executor: deployer,
  card: (origin) => ({
    name: 'deployer',
    description: 'Deploys, asking first for production',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'deploy', name: 'Deploy', description: 'Deploys to a target', tags: ['demo'] }],
  }),
});
const client = await A2AClient.connect(await agent.listen(0));

const say = (res: SendMessageResponse) => {
  if (!('task' in res)) throw new Error('expected a task');
  const { state, message } = res.task.status;
  console.log(`${state}: ${message ? textOf(message) : ''}`);
  return res.task;
};

const asked = say(await client.sendMessage({ message: userMessage('production') }));
if (asked.status.state === 'TASK_STATE_INPUT_REQUIRED') {
  say(
    await client.sendMessage({
      message: userMessage('yes', { taskId: asked.id, contextId: asked.contextId }),
    }),
  );
}
await agent.close();
