/**
 * The system under test for the official A2A TCK (a2aproject/a2a-tck): an a2a-kit agent written only
 * on the public API, serving JSON-RPC, HTTP+JSON and gRPC at 1.0, with streaming, push notifications
 * and an extended card for authenticated callers. `npm run conformance` starts it; by hand:
 *
 *   node --import tsx conformance/tck/sut.ts [port]      # prints the base URL on its first line
 *
 * The TCK's agent model, and how it maps onto the specification without bending the library:
 *
 * - The TCK expects every task it creates to stay open (it cancels them, subscribes to them, sends
 *   follow-ups to them), like the reference SUTs whose agents mark a task WORKING and return. This agent
 *   does the same: a new task goes to TASK_STATE_WORKING and is left there; a follow-up gets a status
 *   message saying it was received, and the task stays WORKING.
 * - A blocking SendMessage follows the task until it is terminal or interrupted (§3.2.2), so against
 *   such an agent it would never answer. The TCK's clients never set `returnImmediately` and expect the
 *   task back at once, as the reference SUTs' SDKs answer when the agent's code returns. A `hooks.before`
 *   therefore sets `returnImmediately: true` when the client left it unset — the agent's own choice of
 *   default, made in the agent and visible here; a client that sets it to `false` still gets §3.2.2's wait.
 * - A message whose text contains "complete" finishes its task, so the tests that need a
 *   terminal task (history, artifacts, a message to a terminal task) have one to work with.
 */
import { lookup } from 'node:dns/promises';
import { createServer, type AddressInfo } from 'node:net';
import type { AgentCard } from 'a2a-kit';
import {
  createAgentServer,
  staticBearerTokens,
  type AgentExecutor,
  type OperationHooks,
} from 'a2a-kit/server';

/** The bearer token the runner gives the TCK (A2A_AUTH_TOKEN) for the extended card. */
export const SUT_TOKEN = process.env.A2A_KIT_TCK_TOKEN ?? 'tck-token';

const executor: AgentExecutor = (ctx, task) => {
  const text = ctx.text.slice(0, 4096).toLowerCase();
  if (text.includes('complete')) {
    task.addArtifact({
      name: 'response',
      parts: [{ text: `You said: ${ctx.text.slice(0, 200)}` }],
    });
    task.complete('done');
    return;
  }
  // Left WORKING on purpose (see above); a cancel ends it through the library's default.
  task.working(ctx.task ? 'follow-up received' : 'working on it');
};

/**
 * The TCK registers webhooks at `https://example.com/…`, a name reserved for documentation (RFC 2606)
 * that has no server and, on a machine without DNS, no address either: its push config would be
 * refused as unresolvable. The SUT's resolver points the reserved names at loopback, like a hosts
 * file would, so configs are accepted and deliveries stay on this machine; other names resolve as usual.
 */
async function placeholdersToLoopback(hostname: string) {
  if (/(^|\.)(example\.(com|net|org)|example|test|invalid)$/.test(hostname)) {
    return [{ address: '127.0.0.1', family: 4 as const }];
  }
  return (await lookup(hostname, { all: true })).map((a) => ({
    address: a.address,
    family: a.family === 6 ? (6 as const) : (4 as const),
  }));
}

/** When the client left `returnImmediately` unset, answer as soon as the agent's code has returned. */
const returnAtOnceByDefault: OperationHooks = {
  before(call) {
    if (call.operation !== 'SendMessage') return;
    const params = call.params as { configuration?: { returnImmediately?: boolean } };
    if (params.configuration?.returnImmediately !== undefined) return;
    params.configuration = { ...params.configuration, returnImmediately: true };
  },
};

const card = (origin: string, grpc?: { port: number }): AgentCard => ({
  name: 'a2a-kit TCK agent',
  description: 'The a2a-kit agent the official A2A TCK runs against',
  version: '1.0.0',
  supportedInterfaces: [
    { url: origin, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    { url: origin, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
    ...(grpc
      ? [{ url: `http://localhost:${grpc.port}`, protocolBinding: 'GRPC', protocolVersion: '1.0' }]
      : []),
  ],
  provider: { organization: 'a2a-kit', url: 'https://github.com/a2a-kit' },
  capabilities: { streaming: true, pushNotifications: true, extendedAgentCard: true },
  // Every call needs the bearer token: the TCK checks that a declared scheme is enforced.
  securitySchemes: { bearer: { httpAuthSecurityScheme: { scheme: 'Bearer' } } },
  securityRequirements: [{ schemes: { bearer: { list: [] } } }],
  // The TCK sends text, JSON data and raw bytes.
  defaultInputModes: ['text/plain', 'application/json', 'application/octet-stream'],
  defaultOutputModes: ['text/plain'],
  skills: [
    {
      id: 'tck',
      name: 'TCK',
      description: 'Keeps tasks open until canceled; "complete" finishes one',
      tags: ['conformance'],
    },
  ],
});

/** Start the SUT on port `wanted` (0: a free one) at 127.0.0.1; resolves to its base URL. */
export async function startSut(wanted = 0): Promise<{ url: string; close(): Promise<void> }> {
  const port = wanted || (await freePort());
  let served: AgentCard | undefined;
  const server = createAgentServer({
    executor,
    card: (origin, grpc) => (served = card(origin, grpc)),
    grpc: { port: 0 },
    // The card names `localhost`, as the TCK is pointed at it: the TCK reads an IP address in a public
    // card as leaked infrastructure detail.
    origin: `http://localhost:${port}`,
    hooks: returnAtOnceByDefault,
    // Its tasks stay WORKING, so their streams would stay open (§3.1.2); the TCK reads some of them to
    // the end. A quiet stream ends cleanly after 3 s, as an operator would bound it.
    streamIdleTimeoutMs: 3000,
    push: { policy: { allowLoopback: true, resolve: placeholdersToLoopback } },
    auth: { verifiers: { bearer: staticBearerTokens({ [SUT_TOKEN]: 'tck' }) } },
    extendedCard: (caller) =>
      caller && served ? { ...served, name: 'a2a-kit TCK agent (extended)' } : undefined,
  });
  await server.listen(port, '127.0.0.1');
  return { url: `http://localhost:${port}`, close: () => server.close() };
}

/** A port free right now (the card needs it before the server listens). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { url } = await startSut(Number(process.argv[2] ?? 0));
  console.log(url);
}
