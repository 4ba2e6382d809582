/**
 * A foreign gRPC peer for the tests: grpc-js carrying messages that protobufjs encodes and decodes
 * (grpc-foreign-proto.ts) — a client that calls our servers and a server our client calls, with no
 * byte of our codec on the peer's side.
 */
import {
  Metadata,
  Server,
  ServerCredentials,
  status,
  type ServerUnaryCall,
  type ServerWritableStream,
  type ServiceDefinition,
  type ServiceError,
  type UntypedServiceImplementation,
  type sendUnaryData,
} from '@grpc/grpc-js';
import { closeRawClients, rawClient } from './grpc-fixture.js';
import {
  RPCS,
  foreignDecode,
  foreignEncode,
  foreignEncodeAnswer,
  type ForeignRpc,
} from './grpc-foreign-proto.js';

export type { ForeignRpc } from './grpc-foreign-proto.js';
/** Close the channels {@link foreignCall} opened (grpc-js channels, one per target, shared with grpc-fixture). */
export const closeForeignChannels = closeRawClients;

const pass = (b: Buffer): Buffer => b;
const DEADLINE_MS = 5000;
const isStreaming = (rpc: ForeignRpc): boolean =>
  rpc === 'SendStreamingMessage' || rpc === 'SubscribeToTask';

/**
 * A foreign A2AService on grpc-js at 127.0.0.1 (a free port): every method answers with the
 * protobufjs encoding of `answers[rpc]` (a list of messages for a stream); a method without an
 * answer is UNIMPLEMENTED. Resolves with its `host:port` and a function that stops it.
 */
export async function foreignServer(
  answers: Partial<Record<ForeignRpc, object | object[]>>,
): Promise<{ target: string; close: () => void }> {
  const server = new Server();
  const definition: Record<string, ServiceDefinition[string]> = {};
  const impl: UntypedServiceImplementation = {};
  for (const rpc of Object.keys(RPCS) as ForeignRpc[]) {
    definition[rpc] = {
      path: `/lf.a2a.v1.A2AService/${rpc}`,
      requestStream: false,
      responseStream: isStreaming(rpc),
      requestSerialize: pass,
      requestDeserialize: pass,
      responseSerialize: pass,
      responseDeserialize: pass,
    };
    const answer = answers[rpc];
    impl[rpc] = isStreaming(rpc)
      ? (call: ServerWritableStream<Buffer, Buffer>) => {
          for (const m of (answer as object[] | undefined) ?? [])
            call.write(foreignEncodeAnswer(rpc, m));
          call.end();
        }
      : (_call: ServerUnaryCall<Buffer, Buffer>, done: sendUnaryData<Buffer>) =>
          answer
            ? done(null, foreignEncodeAnswer(rpc, answer))
            : done({ code: status.UNIMPLEMENTED, details: `${rpc} is not answered here` });
  }
  server.addService(definition, impl);
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (err, p) =>
      err ? reject(err) : resolve(p),
    ),
  );
  return { target: `127.0.0.1:${port}`, close: () => server.forceShutdown() };
}

/**
 * Call `rpc` at `target` with a request encoded by protobufjs; resolves with the answer decoded by
 * protobufjs (for a stream: every message, read to its end within the deadline), rejects with
 * grpc-js's ServiceError. `headers` go as metadata, after `a2a-version: 1.0`; `onEvent` sees each
 * stream message as it arrives.
 */
export function foreignCall(
  target: string,
  rpc: ForeignRpc,
  request: object,
  o: { headers?: Record<string, string>; onEvent?: (event: any) => void } = {},
): Promise<any> {
  const path = `/lf.a2a.v1.A2AService/${rpc}`;
  const md = new Metadata();
  for (const [k, v] of Object.entries({ 'a2a-version': '1.0', ...o.headers })) md.set(k, v);
  const bytes = foreignEncode(rpc, request);
  const deadline = Date.now() + DEADLINE_MS;
  if (!isStreaming(rpc)) {
    return new Promise((resolve, reject) =>
      rawClient(target).makeUnaryRequest(path, pass, pass, bytes, md, { deadline }, (err, value) =>
        err ? reject(err) : resolve(foreignDecode(rpc, value!)),
      ),
    );
  }
  const call = rawClient(target).makeServerStreamRequest(path, pass, pass, bytes, md, { deadline });
  const events: any[] = [];
  return new Promise((resolve, reject) => {
    call.on('data', (b: Buffer) => {
      const event = foreignDecode(rpc, b);
      events.push(event);
      o.onEvent?.(event);
    });
    call.on('error', (err: ServiceError) => reject(err));
    call.on('status', (st) => {
      if (st.code === 0) resolve(events);
    });
  });
}
