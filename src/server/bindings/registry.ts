/** The bindings this server can mount, by `protocolBinding` name. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { OperationDispatcher } from '../dispatch/dispatcher.js';
import type { BindingOptions } from './common.js';
import { jsonRpcListener } from './jsonrpc.js';
import { restListener } from './rest.js';

/** A mounted binding: `subpath` is the request path below the interface URL's path. */
export type MountedBinding = (req: IncomingMessage, res: ServerResponse, subpath: string) => Promise<void> | void;

export const SERVED_BINDINGS: Record<string, (service: OperationDispatcher, opts: BindingOptions) => MountedBinding> = {
  JSONRPC: (service, opts) => jsonRpcListener(service, opts),
  'HTTP+JSON': (service, opts) => restListener(service, opts),
};
