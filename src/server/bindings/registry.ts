/** The bindings this server can mount, by `protocolBinding` name, and what a path of the server maps to. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { CardResponder } from '../card/responder.js';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { BindingOptions } from './common.js';
import type { HttpExchange } from './exchange.js';
import { jsonRpcBinding, type JsonRpcOtherVersion } from './jsonrpc.js';
import { NodeExchange } from './node-exchange.js';
import { restBinding, type RestOtherVersion } from './rest.js';

/**
 * A mounted binding: called as a node:http listener, `subpath` being the request path below the
 * interface URL's path; `serve` answers any {@link HttpExchange} (the Web fetch path uses it).
 */
export interface MountedBinding {
  (req: IncomingMessage, res: ServerResponse, subpath: string): Promise<void> | void;
  serve(ex: HttpExchange, subpath: string): Promise<void>;
}

/** What answers one path of an agent server: the card, the push JWKS, or a binding (with the path below its URL). */
export type ServedRoute =
  | { kind: 'card'; card: CardResponder }
  | { kind: 'jwks'; jwks: object }
  | { kind: 'binding'; binding: MountedBinding; subpath: string };

type Serve = (ex: HttpExchange, subpath: string) => Promise<void>;

function mounted(serve: Serve, opts: BindingOptions): MountedBinding {
  const opened = opts.sse?.onOpen;
  const node = ((req: IncomingMessage, res: ServerResponse, subpath: string) =>
    serve(new NodeExchange(req, res, opened), subpath)) as MountedBinding;
  node.serve = serve;
  return node;
}

/**
 * The bindings by `protocolBinding`. `other` is the handler of another protocol version served at the
 * same URL (the 0.3 compatibility layer's), which the binding hands matching requests to.
 */
export const SERVED_BINDINGS: Record<
  string,
  (service: OperationDispatcher, opts: BindingOptions, other?: unknown) => MountedBinding
> = {
  JSONRPC: (service, opts, other) =>
    mounted(jsonRpcBinding(service, opts, other as JsonRpcOtherVersion | undefined), opts),
  'HTTP+JSON': (service, opts, other) =>
    mounted(restBinding(service, opts, other as RestOtherVersion | undefined), opts),
};
