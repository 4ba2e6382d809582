/**
 * How `serveGrpc` and `grpcHandlers` reach the engine of an agent server (its dispatcher, the
 * authentication its card calls for, its stream registry) without the engine being part of the
 * public `AgentServer`: the server registers it here when it is made, and they look it up.
 */
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { OpenStream, Untrack } from '../lifecycle/streams.js';
import type { Logger } from '../logger.js';
import { A2AConfigError } from './config-error.js';
import type { CallAuth } from './request.js';

/** An agent server made by `createAgentServer`, as the gRPC entry points take it. */
export interface ServedAgent {
  /** Whether its card is built (by `listen()`, `prepare()` or a first request). */
  readonly prepared: boolean;
}

/** What the gRPC servers use of an agent server. */
export interface AgentEngine {
  readonly service: OperationDispatcher;
  readonly logger: Logger;
  /** The authentication of the current card (what the server's `auth` / `authenticate` make of it). */
  auth(): CallAuth;
  /** Registers a stream, so that a drain of the server reaches it. */
  readonly track: (stream: OpenStream) => Untrack;
  /** The server's bound on what one stream subscriber may leave unread (its `maxStreamBufferBytes`). */
  readonly maxStreamBufferBytes: number;
}

const engines = new WeakMap<ServedAgent, AgentEngine>();

/** Called by the agent server when it is made. */
export function registerEngine(agent: ServedAgent, engine: AgentEngine): void {
  engines.set(agent, engine);
}

/** The engine of `agent`; an {@link A2AConfigError} naming `option` when it is not an agent server. */
export function engineOf(agent: ServedAgent, option: string): AgentEngine {
  const engine = typeof agent === 'object' && agent !== null ? engines.get(agent) : undefined;
  if (!engine)
    throw new A2AConfigError(option, `${option} must be an agent server made by createAgentServer`);
  return engine;
}
