/**
 * The bench's echo agent and card for @a2a-js/sdk servers (the SDK's own event and card shapes), shared
 * by sdk.mjs and store-echo.mjs: working, `stream:K` extra updates, one artifact echoing the text, completed.
 */
import { randomUUID } from 'node:crypto';
import { TaskState } from '@a2a-js/sdk';
import { AgentEvent } from '@a2a-js/sdk/server';
import { extraUpdates } from './harness.mjs';

const status = (state) => ({ state, message: undefined, timestamp: new Date().toISOString() });

/** The echo agent as an SDK AgentExecutor. */
export const sdkEcho = {
  async execute(rc, bus) {
    const msg = rc.userMessage;
    let text = '';
    for (const p of msg.parts)
      if (p.content?.$case === 'text')
        text = text ? `${text}\n${p.content.value}` : p.content.value;
    const ids = { taskId: rc.taskId, contextId: rc.contextId, metadata: undefined };
    if (!rc.task) {
      bus.publish(
        AgentEvent.task({
          id: rc.taskId,
          contextId: rc.contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED),
          artifacts: [],
          history: [msg],
          metadata: undefined,
        }),
      );
    }
    bus.publish(AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_WORKING) }));
    for (let i = extraUpdates(text); i > 0; i--)
      bus.publish(
        AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_WORKING) }),
      );
    const part = {
      content: { $case: 'text', value: text },
      metadata: undefined,
      filename: '',
      mediaType: '',
    };
    const artifact = {
      artifactId: randomUUID(),
      name: 'echo',
      description: '',
      parts: [part],
      metadata: undefined,
      extensions: [],
    };
    bus.publish(AgentEvent.artifactUpdate({ ...ids, artifact, append: false, lastChunk: true }));
    bus.publish(
      AgentEvent.statusUpdate({ ...ids, status: status(TaskState.TASK_STATE_COMPLETED) }),
    );
    bus.finished();
  },
  async cancelTask() {},
};

/** The echo agent's card as the SDK types it (every field present), with these interfaces. */
export function sdkEchoCard(supportedInterfaces) {
  return {
    name: 'echo',
    description: 'Echoes what you send',
    version: '1.0.0',
    supportedInterfaces: supportedInterfaces.map((i) => ({ tenant: '', ...i })),
    provider: undefined,
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      {
        id: 'echo',
        name: 'Echo',
        description: 'Repeats the text',
        tags: ['demo'],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
}
