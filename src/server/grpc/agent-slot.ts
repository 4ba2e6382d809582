/**
 * The gRPC listener of an agent server (its `grpc` option): started before the card is built (the card
 * names its port), judged against the current card's security, stopped with the server. The gRPC server
 * and its codec are imported on start, so servers without gRPC never load them.
 */
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import { A2AConfigError } from '../kernel/config-error.js';
import type { StreamRegistry } from '../lifecycle/streams.js';
import type { GrpcAuth, GrpcListenOptions } from './agent-hook.js';
import type { AgentGrpcHandle, AgentGrpcOptions } from './options.js';

/** One agent server's gRPC listener, if it has one. */
export class AgentGrpcSlot {
  /** The running listener, after `start`. */
  handle: AgentGrpcHandle | undefined;
  /** The authentication of the current card; set each time a card is installed. */
  auth: GrpcAuth | undefined;

  constructor(
    private readonly service: OperationDispatcher,
    private readonly streams: StreamRegistry,
    /** The card being built, if one is: calls that arrive meanwhile wait for it. */
    private readonly preparing: () => Promise<unknown> | undefined,
  ) {}

  /** Start the listener; `maxStreamBufferBytes` is the agent server's bound, already resolved. */
  async start(
    options: AgentGrpcOptions,
    host: string,
    maxStreamBufferBytes: number,
  ): Promise<void> {
    const { startAgentGrpc } = await import('./agent-hook.js');
    // The public options spell grpc-js types as unknown; they are exactly what listenGrpc takes.
    this.handle = await startAgentGrpc(
      this.service,
      { host, ...options, maxStreamBufferBytes } as GrpcListenOptions,
      this.authNow,
      this.streams.track,
    );
  }

  stop(graceMs: number): Promise<void> {
    const g = this.handle;
    this.handle = undefined;
    return g ? g.close(graceMs) : Promise.resolve();
  }

  /**
   * The gRPC authentication of the current card. A call that arrives while the card is still being
   * built waits for it, so it is never judged against the placeholder card (which requires nothing).
   */
  readonly authNow = (): GrpcAuth =>
    this.auth ?? {
      authenticate: async (req) => {
        await this.preparing()?.catch(() => undefined);
        if (!this.auth)
          throw new A2AConfigError(
            'card',
            'the agent server has no card yet (listen() or prepare() did not succeed); it serves no calls',
          );
        return this.auth.authenticate?.(req);
      },
    };
}
