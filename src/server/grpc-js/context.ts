/**
 * The call context of one gRPC call (§10.2): `A2A-Version` and `A2A-Extensions` from metadata, the
 * caller from the same {@link Authenticator} the HTTP bindings use, and an abort signal tied to the
 * call. The authenticator reads requests as node:http sees them, so the call is shown to it as one:
 * metadata as headers, the TLS client certificate (mTLS) as the socket's.
 */
import type { PeerCertificate } from 'node:tls';
import type { Metadata, ServerUnaryCall } from '@grpc/grpc-js';
import { GRPC_EXTENSIONS_KEY, GRPC_VERSION_KEY } from '../../protocol/grpc/index.js';
import type { Caller, CallContext } from '../dispatch/call-context.js';
import { withCaller, type AuthRequest, type Authenticator } from '../kernel/request.js';
import { grpcRequestView } from '../kernel/grpc-request.js';

/** What every server call offers (grpc-js does not export the name of this type). */
export type ServerSurfaceCall = Omit<ServerUnaryCall<unknown, unknown>, 'request'>;

// Shared by every call without the key; frozen so that no call can change it for the others.
const NO_EXTENSIONS = Object.freeze([]) as unknown as string[];

/** The text values of a metadata key (binary `-bin` keys never carry service parameters). */
function texts(md: Metadata, key: string): string[] {
  const out: string[] = [];
  for (const v of md.get(key)) if (typeof v === 'string') out.push(v);
  return out;
}

/** Extension URIs from `a2a-extensions` (comma-separated, possibly repeated). */
export function extensionsOf(md: Metadata): string[] {
  const values = texts(md, GRPC_EXTENSIONS_KEY);
  if (values.length === 0) return NO_EXTENSIONS;
  return values
    .join(',')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0);
}

/** The call context of a gRPC call; its signal is made on first use. */
export class GrpcCallContext implements CallContext {
  caller?: Caller;
  version?: string;
  readonly requestedExtensions: string[];
  #activated: Set<string> | undefined;
  #ac: AbortController | undefined;
  #call: ServerSurfaceCall;
  /** Set once the final status is sent: the call ending after that is no cancellation. */
  finished = false;
  /** The binding, for hooks and logs. */
  readonly binding = 'GRPC';

  constructor(call: ServerSurfaceCall) {
    this.#call = call;
    const md = call.metadata;
    const version = texts(md, GRPC_VERSION_KEY)[0];
    if (version !== undefined) this.version = version;
    this.requestedExtensions = extensionsOf(md);
  }

  get activatedExtensions(): Set<string> {
    return (this.#activated ??= new Set());
  }

  /** The extensions activated so far, without making the set. */
  get activated(): ReadonlySet<string> | undefined {
    return this.#activated;
  }

  header(name: string): string | undefined {
    return texts(this.#call.metadata, name)[0];
  }

  get signal(): AbortSignal {
    if (!this.#ac) {
      const ac = (this.#ac = new AbortController());
      const call = this.#call as ServerSurfaceCall & { cancelled?: boolean };
      if (call.cancelled && !this.finished) ac.abort();
      else call.once('cancelled', () => void (this.finished || ac.abort()));
    }
    return this.#ac.signal;
  }
}

/** The headers an authenticator looks at: every text metadata entry, keys in lower case. */
function headersOf(md: Metadata): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  for (const [key, values] of Object.entries(md.toJSON())) {
    if (key.endsWith('-bin')) continue;
    const list = values.filter((v): v is string => typeof v === 'string');
    if (list.length === 0) continue;
    // As node:http does: cookies joined with '; ', authorization and other singletons take the first.
    headers[key] =
      key === 'cookie'
        ? list.join('; ')
        : list.length === 1 || key === 'authorization'
          ? list[0]!
          : list;
  }
  return headers;
}

/** The call as the request an authenticator reads; the socket shows grpc-js's view of the client certificate (mTLS). */
export function requestView(call: ServerSurfaceCall): AuthRequest {
  const socket = tlsView(call);
  return grpcRequestView(
    () => call.getPath(),
    () => headersOf(call.metadata),
    () => socket,
  );
}

/** What the mutualTls verifier asks of a socket: the peer certificate and whether TLS authorized it. */
function tlsView(call: ServerSurfaceCall): {
  getPeerCertificate(): PeerCertificate | Record<string, never>;
  authorized: boolean;
} {
  let cert: PeerCertificate | undefined;
  let read = false;
  const peer = (): PeerCertificate | undefined => {
    if (!read) {
      read = true;
      // grpc-js only reports a certificate the TLS layer authorized against the server's CA list.
      cert =
        typeof call.getAuthContext === 'function'
          ? call.getAuthContext().sslPeerCertificate
          : undefined;
    }
    return cert;
  };
  return {
    getPeerCertificate: () => peer() ?? {},
    get authorized() {
      return peer() !== undefined;
    },
  };
}

/** Build the call context: service parameters, then the caller. Synchronous unless the authenticator is not. */
export function grpcContextOf(
  call: ServerSurfaceCall,
  authenticate: Authenticator | undefined,
): GrpcCallContext | Promise<GrpcCallContext> {
  return withCaller(new GrpcCallContext(call), authenticate, () => requestView(call));
}
