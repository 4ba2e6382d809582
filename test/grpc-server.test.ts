/**
 * The gRPC server (§10) on its own: bad input of every kind gets a status with a field violation and
 * never takes the process down; deadlines, cancellations and slow readers end streams without
 * leaving a subscriber behind; shutdown drains. Real servers on 127.0.0.1:0, raw grpc-js clients.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Client,
  Metadata,
  credentials,
  status as Status,
  type ClientReadableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import {
  GRPC_METHODS,
  STATUS_DETAILS_KEY,
  decodeStatus,
  encodeMessage,
} from '../src/protocol/grpc/index.js';
import type { AgentExecutor } from '../src/server/index.js';
import { agent, message, BOUND_MS } from './rest-fixture.js';
import { closeRawClients, grpcCall, rawClient, startGrpcAgent } from './grpc-fixture.js';

const passBytes = (b: Buffer): Buffer => b;
const v1 = () => {
  const md = new Metadata();
  md.set('a2a-version', '1.0');
  return md;
};

/** The fixture agent, plus `flood N`: N artifact updates of 32 KiB each, as fast as it can. */
const flooding: AgentExecutor = async (ctx, task) => {
  const [cmd, n] = ctx.text.split(/\s+/);
  if (cmd !== 'flood') return agent(ctx, task);
  task.working();
  const chunk = 'x'.repeat(32 * 1024);
  for (let i = 0; i < Number(n); i++)
    task.addArtifact({ name: `part-${i}`, parts: [{ text: chunk }] });
  task.complete();
};

type Running = Awaited<ReturnType<typeof startGrpcAgent>>;
let a: Running;

before(async () => {
  a = await startGrpcAgent(
    'full',
    { executor: flooding },
    { maxReceiveMessageBytes: 64 * 1024, maxStreamBufferBytes: 256 * 1024 },
  );
});
after(async () => {
  closeRawClients();
  await a.close();
});

/** A unary call with raw request bytes; resolves with the error (or undefined on success). */
function rawUnary(method: string, bytes: Buffer, md = v1()): Promise<ServiceError | undefined> {
  return new Promise((resolve) => {
    rawClient(a.grpc.target).makeUnaryRequest(
      method,
      passBytes,
      passBytes,
      bytes,
      md,
      { deadline: Date.now() + BOUND_MS },
      (err) => resolve(err ?? undefined),
    );
  });
}

function violations(err: ServiceError | undefined): Array<{ field: string; description: string }> {
  const bin = err?.metadata.get(STATUS_DETAILS_KEY)[0];
  assert.ok(bin instanceof Buffer, 'grpc-status-details-bin is present');
  const bad = decodeStatus(bin).details.find(
    (d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
  ) as any;
  assert.ok(bad, 'a google.rpc.BadRequest detail');
  return bad.fieldViolations;
}

/** Bounded wait for a condition the server reaches asynchronously (no timing is asserted). */
async function eventually(what: string, check: () => boolean): Promise<void> {
  const until = Date.now() + BOUND_MS;
  while (!check()) {
    assert.ok(Date.now() < until, `timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const send = GRPC_METHODS.SendMessage.path;

describe('§10.6 bad input → INVALID_ARGUMENT with a field violation', () => {
  test('bytes that are not protobuf (an invalid wire type)', async () => {
    const err = await rawUnary(send, Buffer.from([0xff, 0xff, 0xff, 0xff, 0x0f]));
    assert.equal(err?.code, Status.INVALID_ARGUMENT);
    assert.ok(violations(err).length === 1);
  });

  test('a truncated message names the field it broke off in', async () => {
    const whole = encodeMessage('SendMessageRequest', { message: message('echo hi') });
    const err = await rawUnary(send, whole.subarray(0, whole.length - 3));
    assert.equal(err?.code, Status.INVALID_ARGUMENT);
    assert.match(violations(err)[0]!.field, /^message/);
  });

  test('a field with the wrong wire type', async () => {
    // field 2 (message) sent as a varint
    const err = await rawUnary(send, Buffer.from([0x10, 0x01]));
    assert.equal(err?.code, Status.INVALID_ARGUMENT);
    assert.equal(violations(err)[0]!.field, 'message');
  });

  test('§5.7 an unknown enum value (role 7) is named, not guessed', async () => {
    const bytes = encodeMessage('SendMessageRequest', {
      message: { ...message('echo'), role: 7 },
    });
    const err = await rawUnary(send, bytes);
    assert.equal(err?.code, Status.INVALID_ARGUMENT);
    assert.deepEqual(
      violations(err).map((v) => v.field),
      ['message.role'],
    );
  });

  test('§5.7 a missing required field (messageId) is named', async () => {
    const { messageId: _drop, ...rest } = message('echo');
    const err = await rawUnary(send, encodeMessage('SendMessageRequest', { message: rest }));
    assert.equal(err?.code, Status.INVALID_ARGUMENT);
    assert.deepEqual(
      violations(err).map((v) => v.field),
      ['message.messageId'],
    );
  });

  test('a message over the stated limit → RESOURCE_EXHAUSTED, and the server keeps serving', async () => {
    const big = encodeMessage('SendMessageRequest', {
      message: message(`echo ${'y'.repeat(70 * 1024)}`),
    });
    const err = await rawUnary(send, big);
    assert.equal(err?.code, Status.RESOURCE_EXHAUSTED);
    assert.match(err.details, /65536/, 'the message states the limit');
    assert.equal(
      (await grpcCall(a.grpc.target, 'SendMessage', { message: message('echo after') })).result.task
        .status.state,
      'TASK_STATE_COMPLETED',
    );
  });

  test('an unknown method → UNIMPLEMENTED', async () => {
    const err = await rawUnary('/lf.a2a.v1.A2AService/SendTelegram', Buffer.alloc(0));
    assert.equal(err?.code, Status.UNIMPLEMENTED);
  });

  test('random bytes to every method never crash the server (bounded fuzz)', async () => {
    let seed = 42;
    const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    for (let i = 0; i < 120; i++) {
      const m = Object.values(GRPC_METHODS)[i % 11]!;
      const bytes = Buffer.from(
        Array.from({ length: Math.floor(rnd() * 40) }, () => Math.floor(rnd() * 256)),
      );
      if (m.streaming) {
        const call = rawClient(a.grpc.target).makeServerStreamRequest(
          m.path,
          passBytes,
          passBytes,
          bytes,
          v1(),
          { deadline: Date.now() + BOUND_MS },
        );
        await new Promise<void>((r) => {
          call.on('data', () => undefined);
          call.on('error', () => r());
          call.on('status', () => r());
        });
      } else {
        const err = await rawUnary(m.path, bytes);
        if (err)
          assert.ok(err.code !== Status.UNKNOWN, `${m.operation}: ${err.code} ${err.details}`);
      }
    }
    assert.equal((await grpcCall(a.grpc.target, 'ListTasks', { pageSize: 1 })).status, 0);
  });
});

describe('streams end cleanly', () => {
  const scope = { tenant: '', owner: '' };
  const listening = (id: string) => a.server.service.tasks.liveRun(scope, id)?.listening === true;

  async function slowTask(): Promise<string> {
    const started = await grpcCall(a.grpc.target, 'SendMessage', {
      message: message('slow'),
      configuration: { returnImmediately: true },
    });
    return started.result.task.id;
  }

  function subscribe(id: string, deadline = Date.now() + BOUND_MS): ClientReadableStream<Buffer> {
    const bytes = encodeMessage('SubscribeToTaskRequest', { id });
    return rawClient(a.grpc.target).makeServerStreamRequest(
      GRPC_METHODS.SubscribeToTask.path,
      passBytes,
      passBytes,
      bytes,
      v1(),
      { deadline },
    );
  }

  const ended = (call: ClientReadableStream<Buffer>) =>
    new Promise<ServiceError | undefined>((r) => {
      call.on('data', () => undefined);
      call.on('error', (e: ServiceError) => r(e));
      call.on('status', (s) => s.code === 0 && r(undefined));
    });

  test('a client deadline ends the subscription with DEADLINE_EXCEEDED and leaves no subscriber', async () => {
    const id = await slowTask();
    const call = subscribe(id, Date.now() + 300);
    const err = await ended(call);
    assert.equal(err?.code, Status.DEADLINE_EXCEEDED);
    await eventually('the subscription is closed', () => !listening(id));
    await grpcCall(a.grpc.target, 'CancelTask', { id });
  });

  test('a cancelled call ends the subscription and leaves no subscriber', async () => {
    const id = await slowTask();
    const call = subscribe(id);
    call.on('error', () => undefined); // CANCELLED, our own doing
    await new Promise<void>((r) => call.once('data', () => r()));
    assert.ok(listening(id));
    call.cancel();
    await eventually('the subscription is closed', () => !listening(id));
    await grpcCall(a.grpc.target, 'CancelTask', { id });
  });

  test('a reader that stops reading is cut off past the buffer bound (RESOURCE_EXHAUSTED, SLOW_READER), not buffered without limit', async () => {
    const bytes = encodeMessage('SendMessageRequest', { message: message('flood 400') });
    const call = rawClient(a.grpc.target).makeServerStreamRequest(
      GRPC_METHODS.SendStreamingMessage.path,
      passBytes,
      passBytes,
      bytes,
      v1(),
      {
        deadline: Date.now() + BOUND_MS,
      },
    );
    let first = true;
    let received = 0;
    const err = await new Promise<ServiceError | undefined>((r) => {
      call.on('data', () => {
        received++;
        // Read one event, then stop reading: HTTP/2 flow control backs up into the server.
        if (first) {
          first = false;
          call.pause();
          setTimeout(() => call.resume(), 1500).unref();
        }
      });
      call.on('error', (e: ServiceError) => r(e));
      call.on('status', (s) => s.code === 0 && r(undefined));
    });
    assert.equal(
      err?.code,
      Status.RESOURCE_EXHAUSTED,
      `ended with ${err?.code} after ${received} events`,
    );
    assert.match(err.details, /read too slowly/);
    assert.ok(received < 401, 'the stream did not deliver everything');
  });
});

test('close() ends open streams with UNAVAILABLE, then refuses new calls', async () => {
  const b = await startGrpcAgent('full');
  const client = new Client(b.grpc.target, credentials.createInsecure());
  try {
    const started = await grpcCall(b.grpc.target, 'SendMessage', {
      message: message('slow'),
      configuration: { returnImmediately: true },
    });
    const bytes = encodeMessage('SubscribeToTaskRequest', { id: started.result.task.id });
    const call = client.makeServerStreamRequest(
      GRPC_METHODS.SubscribeToTask.path,
      passBytes,
      passBytes,
      bytes,
      v1(),
      { deadline: Date.now() + BOUND_MS },
    );
    const streamEnd = new Promise<ServiceError>((r) => {
      call.on('data', () => undefined);
      call.on('error', r);
    });
    await new Promise<void>((r) => call.once('metadata', () => r()));
    await b.grpc.close(2000);
    const err = await streamEnd;
    assert.equal(err.code, Status.UNAVAILABLE);
    assert.match(err.details, /shutting down/);
    const after = await new Promise<ServiceError | null>((r) =>
      client.makeUnaryRequest(
        GRPC_METHODS.ListTasks.path,
        passBytes,
        passBytes,
        Buffer.alloc(0),
        v1(),
        { deadline: Date.now() + 2000 },
        (e) => r(e),
      ),
    );
    assert.ok(
      after && (after.code === Status.UNAVAILABLE || after.code === Status.DEADLINE_EXCEEDED),
      `refused: ${after?.code}`,
    );
  } finally {
    client.close();
    await b.close();
  }
});
