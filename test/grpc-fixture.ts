/**
 * Shared by the gRPC tests: the agents of the HTTP fixture served over gRPC as well (127.0.0.1:0),
 * and a raw gRPC driver — grpc-js with the A2AService method table, bytes in and out — that reduces
 * an answer to the same binding-neutral outcome as the HTTP driver: a result, the stream's events,
 * or an error kind (from the ErrorInfo of `grpc-status-details-bin`).
 */
import assert from 'node:assert/strict';
import {
  Client,
  Metadata,
  credentials,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { ERRORS, type A2AErrorKind, type OperationName } from '../src/protocol/index.js';
import {
  A2A_ENUMS,
  GRPC_CODES,
  GRPC_METHODS,
  STATUS_DETAILS_KEY,
  decodeMessage,
  decodeStatus,
  encodeMessage,
} from '../src/protocol/grpc/index.js';
import {
  serveGrpc,
  type GrpcServeOptions,
  type GrpcServerHandle,
} from '../src/server/grpc/index.js';
import type { AgentServerOptions } from '../src/server/index.js';
import { BOUND_MS, startAgent, type CallOptions, type Kind, type Outcome } from './rest-fixture.js';

const passBytes = (b: Buffer): Buffer => b;

/** An agent of the HTTP fixture, served over HTTP and gRPC from one dispatcher. */
export async function startGrpcAgent(
  kind: Kind,
  extra: Partial<AgentServerOptions> = {},
  grpc: GrpcServeOptions = {},
) {
  const a = await startAgent(kind, extra);
  let g: GrpcServerHandle;
  try {
    g = await serveGrpc(a.server, {
      authenticate: (req) =>
        req.headers.authorization === 'Bearer good' ? { id: 'alice' } : undefined,
      challenge: 'Bearer realm="test"',
      ...grpc,
    });
  } catch (err) {
    await a.close();
    throw err;
  }
  return {
    ...a,
    grpc: g,
    close: async () => {
      await g.close(1000);
      await a.close();
    },
  };
}

const clients = new Map<string, Client>();

/** One channel per target for the whole test file. */
export function rawClient(target: string): Client {
  let c = clients.get(target);
  if (!c) clients.set(target, (c = new Client(target, credentials.createInsecure())));
  return c;
}

/** Close the channels opened by {@link rawClient}. */
export function closeRawClients(): void {
  for (const c of clients.values()) c.close();
  clients.clear();
}

function metadataOf(o: CallOptions): Metadata {
  const md = new Metadata();
  const headers: Record<string, string> = { 'a2a-version': '1.0', ...o.headers };
  for (const [k, v] of Object.entries(headers))
    if (k.toLowerCase() !== 'content-type') md.set(k.toLowerCase(), v);
  return md;
}

/** ProtoJSON cannot carry an enum name the schema lacks: send it as a number no enum uses, as a peer with a newer schema would. */
function wireable(params: Record<string, any>): Record<string, any> {
  const out = { ...params };
  if (typeof out.status === 'string' && !(A2A_ENUMS.TaskState ?? []).includes(out.status))
    out.status = 99;
  return out;
}

/** A started gRPC call whose answer is read later (a stream that must be open before the next step). */
export interface GrpcOpened {
  done: Promise<Outcome>;
}

function headersOf(...mds: Array<Metadata | undefined>): Headers {
  const h = new Headers();
  for (const md of mds)
    for (const [k, vs] of Object.entries(md?.toJSON() ?? {}))
      for (const v of vs) if (typeof v === 'string') h.append(k, v);
  return h;
}

function errorOutcome(err: ServiceError, initial: Metadata | undefined): Outcome {
  const bin = err.metadata?.get(STATUS_DETAILS_KEY)[0];
  assert.ok(
    bin instanceof Buffer,
    `every error carries grpc-status-details-bin: ${err.code} ${err.details}`,
  );
  const status = decodeStatus(bin);
  assert.equal(status.code, err.code, 'google.rpc.Status code = the gRPC status');
  assert.equal(status.message, err.details, 'google.rpc.Status message = the gRPC status message');
  const info = status.details.find(
    (d: any) => d['@type'] === 'type.googleapis.com/google.rpc.ErrorInfo',
  ) as any;
  assert.ok(info, `every error carries an ErrorInfo: ${JSON.stringify(status)}`);
  const kind = (Object.keys(ERRORS) as A2AErrorKind[]).find(
    (k) => ERRORS[k].reason === info.reason,
  );
  assert.ok(kind, `unknown reason ${info.reason}`);
  assert.equal(
    err.code,
    GRPC_CODES[ERRORS[kind].grpcStatus as keyof typeof GRPC_CODES],
    "the status code is the catalogue's",
  );
  assert.equal(info.domain, ERRORS[kind].a2a ? 'a2a-protocol.org' : 'a2a-kit');
  return {
    status: err.code,
    headers: headersOf(initial, err.metadata),
    error: { kind, message: err.details, details: status.details },
  };
}

/** Perform `op` over gRPC at `target`; streams are read to their end (bounded). */
export function grpcOpen(
  target: string,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions = {},
): Promise<GrpcOpened> {
  const m = GRPC_METHODS[op];
  const p = o.tenant !== undefined ? { ...params, tenant: o.tenant } : params;
  const bytes = encodeMessage(m.request, wireable(p));
  const client = rawClient(target);
  const deadline = Date.now() + BOUND_MS;
  if (!m.streaming) {
    let initial: Metadata | undefined;
    const done = new Promise<Outcome>((resolve, reject) => {
      const call = client.makeUnaryRequest(
        m.path,
        passBytes,
        passBytes,
        bytes,
        metadataOf(o),
        { deadline },
        (err, value) => {
          try {
            resolve(
              err
                ? errorOutcome(err, initial)
                : {
                    status: 0,
                    headers: headersOf(initial),
                    result: decodeMessage(m.response, value!),
                  },
            );
          } catch (e) {
            reject(e);
          }
        },
      );
      call.on('metadata', (md: Metadata) => (initial = md));
    });
    return Promise.resolve({ done });
  }
  const call: ClientReadableStream<Buffer> = client.makeServerStreamRequest(
    m.path,
    passBytes,
    passBytes,
    bytes,
    metadataOf(o),
    { deadline },
  );
  const events: unknown[] = [];
  let initial: Metadata | undefined;
  let started!: () => void;
  const opened = new Promise<void>((r) => (started = r));
  call.on('metadata', (md: Metadata) => {
    initial = md;
    started();
  });
  const done = new Promise<Outcome>((resolve, reject) => {
    call.on('data', (b: Buffer) => events.push(decodeMessage('StreamResponse', b)));
    call.on('error', (err: ServiceError) => {
      started();
      try {
        resolve(
          events.length > 0
            ? { status: err.code, headers: headersOf(initial, err.metadata), events }
            : errorOutcome(err, initial),
        );
      } catch (e) {
        reject(e);
      }
    });
    call.on('status', (s) => {
      started();
      if (s.code === 0) resolve({ status: 0, headers: headersOf(initial, s.metadata), events });
    });
  });
  return opened.then(() => ({ done }));
}

/** Perform `op` over gRPC and wait for its whole answer. */
export async function grpcCall(
  target: string,
  op: OperationName,
  params: Record<string, any> = {},
  o: CallOptions = {},
): Promise<Outcome> {
  return (await grpcOpen(target, op, params, o)).done;
}
