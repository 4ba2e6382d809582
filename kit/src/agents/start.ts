/**
 * Starts the kit's three agents on their ports with their cards, the way any user of the library would:
 * `createAgentServer` with a card function, an executor, and (for the deployer) the bearer verifier its card asks for.
 */
import path from 'node:path';
import {
  createAgentServer,
  silentLogger,
  staticBearerTokens,
  type AgentServer,
  type CardSigningKey,
  type Logger,
  type ServerTelemetry,
} from 'a2a-kit/server';
import { SqliteTaskStore } from 'a2a-kit/server/sqlite';
import { redisEvents } from 'a2a-kit/server/redis';
import { warmUpReviewer } from '../work/index.js';
import type { AgentCard } from 'a2a-kit';
import {
  KIT_BINDINGS,
  KIT_PORTS,
  codeReviewerCard,
  deployerCard,
  deployerExtendedCard,
  testRunnerCard,
  type KitAgentName,
  type KitBinding,
  type KitCardOptions,
} from './cards.js';
import { testRunnerExecutor } from './test-runner.js';
import { codeReviewerExecutor } from './code-reviewer.js';
import { deployerExecutor } from './deployer.js';

export interface KitAgentsOptions {
  /** Directory the agents may read, test and deploy from. */
  workspaceRoot: string;
  /** Where the deployer keeps releases; must not be inside a deployed directory. */
  releasesDir: string;
  /** The bearer token every deployer call must carry. */
  deployerToken: string;
  /** Interface to listen on. Default 127.0.0.1. */
  host?: string;
  /** Host name the cards advertise. Default `localhost`, as in the manual. */
  publicHost?: string;
  /** Ports per agent; 0 picks a free one (the card then shows the real port). Default 41241–41243. */
  ports?: Partial<Record<KitAgentName, number>>;
  /**
   * Port of the test-runner's gRPC server, listed first on its card. Default: the test-runner's port +
   * 10000 (51241), or 0 (a free one) when the test-runner's port is 0; `false`: no gRPC.
   */
  grpcPort?: number | false;
  /** Bindings each card lists and serves. Default JSON-RPC and HTTP+JSON. */
  bindings?: readonly KitBinding[];
  /** Time limit of one test run. Default 60 s. */
  testTimeoutMs?: number;
  /**
   * Load the TypeScript compiler before listening (default true). The first review parses the standard
   * library declarations, which blocks the event loop for seconds; all three agents share this process,
   * so that cost is paid at start rather than in the middle of someone's test run.
   */
  warmUp?: boolean;
  logger?: Logger;
  /**
   * Which webhook addresses push notifications may go to (the server's SSRF guard, §13.2). Default: loopback
   * allowed when the agents listen on loopback, because then every caller — the planner's webhook included —
   * is on this machine anyway; otherwise public addresses only.
   */
  webhookPolicy?: {
    allowLoopback?: boolean;
    allowPrivate?: boolean;
    allowedHosts?: readonly string[];
    requireHttps?: boolean;
  };
  /**
   * Keep each agent's tasks in `<storeDir>/<agent>.sqlite` so they survive a restart (a production deploy
   * waiting for confirmation can be confirmed after one). Default: in memory.
   */
  storeDir?: string;
  /**
   * Keep the tasks in PostgreSQL instead (`postgres://…`): one schema per agent (`kit_test_runner`, …), so
   * several kit processes on one database see each other's tasks. Wins over `storeDir`.
   */
  storeUrl?: string;
  /**
   * A Redis URL: run as one of several instances of each agent (on a store they share), events, cancels
   * and leases going through this Redis; each agent uses its own key prefix (`a2a-kit:<agent>`).
   */
  events?: string;
  /** Sign every card (public and extended) with these keys (§8.4). */
  signingKeys?: CardSigningKey[];
  /** Traces and metrics per agent, e.g. `(name) => otelServer({ attributes: { 'a2a.agent.name': name } })`. */
  telemetry?: (name: KitAgentName) => ServerTelemetry;
}

/** One running agent. */
export interface RunningAgent {
  name: KitAgentName;
  server: AgentServer;
  /** Where the server listens, e.g. `http://127.0.0.1:41241`. */
  origin: string;
  /** What the card advertises, e.g. `http://localhost:41241`. */
  baseUrl: string;
  cardUrl: string;
  card: AgentCard;
}

export interface RunningKit {
  agents: Record<KitAgentName, RunningAgent>;
  /**
   * Drain all three: open streams are told to resubscribe, running tasks get two seconds to finish
   * (then they are aborted, and each agent's log says so), queued push notifications go out, stores close.
   */
  close(): Promise<void>;
}

/** Start test-runner, code-reviewer and deployer. If one cannot start, the others are stopped again. */
export async function startKitAgents(opts: KitAgentsOptions): Promise<RunningKit> {
  const logger = opts.logger ?? silentLogger;
  const host = opts.host ?? '127.0.0.1';
  const publicHost = opts.publicHost ?? 'localhost';
  const bindings = opts.bindings ?? KIT_BINDINGS;
  const cardOpts = (origin: string): KitCardOptions => ({
    baseUrl: `http://${publicHost}:${new URL(origin).port}`,
    bindings,
  });
  const runnerPort = opts.ports?.['test-runner'] ?? KIT_PORTS['test-runner'];
  const grpcPort = opts.grpcPort ?? (runnerPort === 0 ? 0 : runnerPort + 10000);
  if (grpcPort !== false && !(Number.isInteger(grpcPort) && grpcPort >= 0 && grpcPort <= 65535))
    throw new Error(`the gRPC port must be 0–65535 or false, not ${grpcPort}`);
  const child = (name: KitAgentName): Logger =>
    typeof (logger as { child?: unknown }).child === 'function'
      ? (logger as Logger & { child(b: object): Logger }).child({ agent: name })
      : logger;

  // Short tokens can be guessed; the CLI generates 256-bit ones.
  if (opts.deployerToken.length < 16)
    throw new Error('the deployer token must be at least 16 characters');
  const signing = opts.signingKeys?.length ? { signingKeys: opts.signingKeys } : {};
  // The planner's webhook listens on this machine; the SSRF guard refuses loopback webhooks unless allowed (§13.2).
  const loopback = host === 'localhost' || host === '::1' || host.startsWith('127.');
  const push = {
    push: { policy: opts.webhookPolicy ?? (loopback ? { allowLoopback: true } : {}) },
  };
  // Every agent answers /healthz and /readyz (the store's ping) for whoever runs them behind a balancer.
  const ops = { health: true, drain: { deadlineMs: 2000 } } as const;
  const telemetry = (name: KitAgentName) =>
    opts.telemetry ? { telemetry: opts.telemetry(name) } : {};
  // pg is loaded only when asked for: the kit runs without it.
  const postgres = opts.storeUrl ? await import('a2a-kit/server/postgres') : undefined;
  // Kept to close the stores of servers that never started (a server closes only stores it served).
  const stores = new Map<KitAgentName, { close?(): unknown }>();
  const kept = <T extends { store?: { close?(): unknown } }>(name: KitAgentName, o: T): T => {
    if (o.store) stores.set(name, o.store);
    return o;
  };
  const store = (name: KitAgentName) => ({
    ...kept(
      name,
      postgres && opts.storeUrl
        ? {
            store: postgres.postgresStore(opts.storeUrl, {
              schema: `kit_${name.replace(/-/g, '_')}`,
              onError: (err) => logger.warn({ err, agent: name }, 'task database connection lost'),
            }),
          }
        : opts.storeDir
          ? { store: new SqliteTaskStore({ path: path.join(opts.storeDir, `${name}.sqlite`) }) }
          : {},
    ),
    ...(opts.events
      ? { events: redisEvents(opts.events, { prefix: `a2a-kit:${name}`, logger: child(name) }) }
      : {}),
  });
  // Built with the public card (it needs the real port); the server signs both when given keys.
  let extended: AgentCard | undefined;
  const servers: Record<KitAgentName, AgentServer> = {
    'test-runner': createAgentServer({
      // gRPC on its own port; the card's GRPC entry names the port the server really bound.
      card: (o, grpc) =>
        testRunnerCard({
          ...cardOpts(o),
          ...(grpc ? { grpcUrl: `http://${publicHost}:${grpc.port}` } : {}),
        }),
      ...(grpcPort !== false ? { grpc: { port: grpcPort } } : {}),
      // Its card lists JSON-RPC at 0.3 too: 0.3 clients are served at the same URL.
      compat: { v03: bindings.includes('JSONRPC') },
      executor: testRunnerExecutor({
        workspaceRoot: opts.workspaceRoot,
        logger: child('test-runner'),
        ...(opts.testTimeoutMs !== undefined ? { timeoutMs: opts.testTimeoutMs } : {}),
      }),
      logger: child('test-runner'),
      // Health endpoints and the drain deadline are the server's (they once went to the executor by mistake).
      ...ops,
      ...store('test-runner'),
      ...telemetry('test-runner'),
      ...push,
      ...signing,
    }),
    'code-reviewer': createAgentServer({
      card: (o) => codeReviewerCard(cardOpts(o)),
      executor: codeReviewerExecutor({
        workspaceRoot: opts.workspaceRoot,
        logger: child('code-reviewer'),
      }),
      logger: child('code-reviewer'),
      ...ops,
      ...store('code-reviewer'),
      ...telemetry('code-reviewer'),
      ...signing,
    }),
    deployer: createAgentServer({
      card: (o) => {
        extended = deployerExtendedCard(cardOpts(o));
        return deployerCard(cardOpts(o));
      },
      extendedCard: () => extended,
      executor: deployerExecutor({
        workspaceRoot: opts.workspaceRoot,
        releasesDir: opts.releasesDir,
        logger: child('deployer'),
      }),
      // The card's securityRequirements decide what is enforced; 401s carry `WWW-Authenticate: Bearer realm="deployer"`.
      auth: {
        verifiers: { bearer: staticBearerTokens({ [opts.deployerToken]: 'deployer-operator' }) },
      },
      logger: child('deployer'),
      ...ops,
      ...store('deployer'),
      ...telemetry('deployer'),
      ...push,
      ...signing,
    }),
  };

  if (opts.warmUp !== false) {
    logger.info({}, 'loading the TypeScript compiler for the code reviewer');
    await warmUpReviewer().catch((err: unknown) =>
      logger.warn({ err }, 'could not warm up the code reviewer'),
    );
  }
  const agents = {} as Record<KitAgentName, RunningAgent>;
  const started: AgentServer[] = [];
  try {
    for (const name of Object.keys(servers) as KitAgentName[]) {
      const server = servers[name];
      const origin = await server.listen(opts.ports?.[name] ?? KIT_PORTS[name], host);
      started.push(server);
      const card = server.card!; // listen() built it
      const baseUrl = cardOpts(origin).baseUrl;
      agents[name] = {
        name,
        server,
        origin,
        baseUrl,
        cardUrl: `${baseUrl}/.well-known/agent-card.json`,
        card,
      };
      // debug: a command that starts the kit prints where each agent listens in its own summary, once.
      logger.debug({ agent: name, origin, card: agents[name].cardUrl }, 'agent listening');
    }
  } catch (err) {
    await Promise.allSettled(started.map((s) => s.close(1000)));
    const idle = (Object.keys(servers) as KitAgentName[]).filter(
      (name) => !started.includes(servers[name]),
    );
    await Promise.allSettled(idle.map((name) => stores.get(name)?.close?.()));
    throw err;
  }
  return {
    agents,
    close: async () => {
      await Promise.allSettled(started.map((s) => s.close()));
    },
  };
}
