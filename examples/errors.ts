/**
 * Error handling by kind. Errors the agent reports arrive as `A2AError` with the kind the server sent
 * (the same kinds on JSON-RPC and HTTP+JSON); failures on the client's side of the wire (unreachable
 * agent, unusable card, timeout) are `A2AClientError` with a `code`. A task that FAILED is a result,
 * not an exception. An executor refuses a request by throwing an `A2AError` before it starts the task.
 *
 *   npx tsx examples/errors.ts
 */
import { A2AError, isA2AError, type A2AErrorKind } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { A2AClient, isA2AClientError, userMessage } from 'a2a-kit/client';

const picky: AgentExecutor = (ctx, task) => {
  if (ctx.message.parts.some((p) => p.text === undefined)) {
    throw new A2AError('ContentTypeNotSupported', 'send text only'); // no task yet: the call fails with this kind
  }
  task.working('parsing');
  if (ctx.text.includes('crash')) throw new Error('the parser broke'); // a task exists: it ends FAILED
  task.complete('fine');
};

/** What a program might do about each kind. */
function explain(err: unknown): string {
  if (isA2AError(err)) {
    const kind: A2AErrorKind = err.kind;
    switch (kind) {
      case 'TaskNotFound':
        return `TaskNotFound → forget this task id (expired, or another caller's): ${err.message}`;
      case 'PushNotificationNotSupported':
      case 'UnsupportedOperation':
        return `${kind} → the agent does not offer this; poll or stream instead: ${err.message}`;
      case 'ContentTypeNotSupported':
        return `ContentTypeNotSupported → resend in a mode the card lists: ${err.message}`;
      case 'Unauthenticated':
      case 'PermissionDenied':
        return `${kind} → get (other) credentials: ${err.message}`;
      default:
        return `${kind} (JSON-RPC ${err.spec.jsonRpcCode}, HTTP ${err.spec.httpStatus}): ${err.message}`;
    }
  }
  if (isA2AClientError(err))
    return `client side, ${err.code} → check the URL, network or limits: ${err.message}`;
  throw err; // a bug of ours: let it crash
}

async function attempt(what: string, call: () => Promise<unknown>): Promise<void> {
  try {
    await call();
    console.log(`${what}: no error`);
  } catch (err) {
    console.log(`${what}: ${explain(err)}`);
  }
}

const agent = createAgentServer({
  executor: picky,
  card: (origin) => ({
    name: 'picky',
    description: 'Takes text only',
    version: '1.0.0',
    supportedInterfaces: [
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: {},
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{ id: 'parse', name: 'Parse', description: 'Parses text', tags: ['demo'] }],
  }),
});
const origin = await agent.listen(0);
const client = await A2AClient.connect(origin);

await attempt('GetTask of an unknown id', () => client.getTask('no-such-task'));
await attempt('a data part', () =>
  client.sendMessage({ message: userMessage([{ data: { n: 1 } }]) }),
);
await attempt('push config without the capability', () =>
  client.createPushNotificationConfig({ taskId: 'any', url: 'http://localhost/hook' }),
);
const failed = await client.sendMessage({ message: userMessage('please crash') });
console.log(
  `an agent that throws mid-task: no exception, the task is ${'task' in failed ? failed.task.status.state : 'a message'}`,
);

await agent.close();
await attempt('the agent is gone', () =>
  A2AClient.connect(origin, { cache: false, cardTimeoutMs: 5000 }),
);
