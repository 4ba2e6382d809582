/**
 * A real a2a-kit agent for the inspector's tests, on 127.0.0.1 port 0: it streams (status messages and
 * artifacts of every kind the page renders), asks for input, waits until canceled, and has an
 * extended card for a bearer token. The inspector is started from the package, as a user would.
 */
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { AgentCard } from 'a2a-kit';
import { createAgentServer, staticBearerTokens, type AgentExecutor } from 'a2a-kit/server';
import { startInspector, type Inspector } from 'a2a-kit/inspector';

/** The bearer token the fixture agent accepts. */
export const TOKEN = 'inspector-test-token-5f2c9a';

/** A 16×16 PNG, a blue triangle on red. */
export const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAIAAACQkWg2AAAAS0lEQVR4nJXLyQ0AIAgEQJqRxmzbDmzCh8YDOZZkvkONOYVK7emQOivg5wTwPAE5MoRHCf7Rg3PMYB0vqCcI/4mDOFC4Dxr2SYR5BlLPSzhbqjwjAAAAAElFTkSuQmCC';

const pause = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/** "ask …" asks a question; "wait …" works until canceled (30 s at most); anything else streams a report. */
const executor: AgentExecutor = async (ctx, task) => {
  const text = ctx.text.trim().toLowerCase();
  if (ctx.task?.status.state === 'TASK_STATE_INPUT_REQUIRED') {
    task.addArtifact({ name: 'answer', parts: [{ text: `You chose ${ctx.text.trim()}.` }] });
    return task.complete(`Painted it ${ctx.text.trim()}.`);
  }
  if (text.startsWith('ask')) return task.inputRequired('Which colour should it be?');
  if (text.startsWith('wait')) {
    task.working('Waiting until canceled');
    await pause(30_000, ctx.signal);
    if (!ctx.signal.aborted) task.complete('nobody canceled');
    return;
  }
  task.working('Step 1 of 2: measuring');
  await pause(20);
  task.addArtifact({
    name: 'report',
    parts: [{ text: 'All 3 checks passed.', mediaType: 'text/plain' }],
  });
  task.addArtifact({
    name: 'metrics',
    parts: [{ data: { checks: 3, failed: 0, nested: { p50: 12, p99: 40 } } }],
  });
  task.addArtifact({
    name: 'chart',
    parts: [{ raw: PNG, mediaType: 'image/png', filename: 'chart.png' }],
  });
  task.addArtifact({
    name: 'archive',
    parts: [
      {
        raw: Buffer.from('not really a zip').toString('base64'),
        mediaType: 'application/zip',
        filename: 'logs.zip',
      },
    ],
  });
  await pause(20);
  task.working('Step 2 of 2: writing up');
  task.complete('Done: 3 checks, 0 failed.');
};

function card(origin: string, extra = false): AgentCard {
  return {
    name: 'inspector-fixture',
    description: 'Streams reports, asks questions, waits to be canceled',
    version: '2.1.0',
    provider: { organization: 'a2a-kit tests', url: 'https://example.org' },
    supportedInterfaces: [
      { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
      { url: `${origin}/a2a/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ],
    capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
    securitySchemes: { token: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
    // The token is optional: anonymous callers may talk, only the extended card needs it.
    securityRequirements: [{ schemes: { token: { list: [] } } }, { schemes: {} }],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json', 'image/png'],
    skills: [
      {
        id: 'report',
        name: 'Report',
        description: 'Streams a report with artifacts',
        tags: ['demo'],
        examples: ['measure the build'],
      },
      {
        id: 'paint',
        name: 'Paint',
        description: 'Asks which colour, then paints',
        tags: ['multi-turn'],
        examples: ['ask me'],
      },
      ...(extra
        ? [
            {
              id: 'admin',
              name: 'Admin',
              description: 'Only for callers with a token',
              tags: ['private'],
            },
          ]
        : []),
    ],
  };
}

/** The agent, the inspector, and where screenshots go. */
export interface Fixture {
  agentUrl: string;
  inspector: Inspector;
  shots: string;
  close(): Promise<void>;
}

/** Starts the fixture agent and an inspector on free ports of 127.0.0.1. */
export async function startFixture(): Promise<Fixture> {
  let origin = '';
  const agent = createAgentServer({
    executor,
    card: (o) => ((origin = o), card(o)),
    extendedCard: () => card(origin, true),
    auth: { verifiers: { token: staticBearerTokens({ [TOKEN]: 'tester' }) } },
    // The tests' webhooks are on this machine.
    push: { policy: { allowLoopback: true } },
  });
  const agentUrl = await agent.listen(0, '127.0.0.1');
  const inspector = await startInspector({ port: 0, host: '127.0.0.1', agents: [agentUrl] });
  const shots = path.resolve(import.meta.dirname, '..', '.tmp-inspector');
  mkdirSync(shots, { recursive: true });
  return {
    agentUrl,
    inspector,
    shots,
    async close() {
      await inspector.close();
      await agent.close();
    },
  };
}
