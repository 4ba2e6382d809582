/**
 * The gRPC wire rules our HTTP/2 server enforces itself (§10, and the gRPC-over-HTTP/2 protocol):
 * compressed messages and unknown encodings are refused with a status, `grpc-timeout` deadlines are
 * the server's to keep, a client reset mid-stream leaves no subscriber, a reader that stops reading
 * costs bounded memory, oversize requests name the limit in a field violation. Driven by a raw
 * node:http2 client, so that every frame is the test's choice (grpc-js would enforce some rules first).
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import http2, { type ServerHttp2Stream } from 'node:http2';
import { gzipSync } from 'node:zlib';
import {
  GRPC_CODES,
  GRPC_METHODS,
  STATUS_DETAILS_KEY,
  decodeMessage,
  decodeStatus,
  encodeMessage,
} from '../src/protocol/grpc/index.js';
import type { AgentExecutor } from '../src/server/index.js';
import { BOUND_MS, agent, message } from './rest-fixture.js';
import { closeRawClients, grpcCall, startGrpcAgent } from './grpc-fixture.js';

const MAX_BUFFERED = 256 * 1024;
const EVENT_BYTES = 32 * 1024;

/** The fixture agent, plus `flood N`: N artifact updates of 32 KiB each, as fast as it can. */
const flooding: AgentExecutor = async (ctx, task) => {
  const [cmd, n] = ctx.text.split(/\s+/);
  if (cmd !== 'flood') return agent(ctx, task);
  task.working();
  const chunk = 'x'.repeat(EVENT_BYTES);
  for (let i = 0; i < Number(n); i++)
    task.addArtifact({ name: `part-${i}`, parts: [{ text: chunk }] });
  task.complete();
};

let a: Awaited<ReturnType<typeof startGrpcAgent>>;
let session: http2.ClientHttp2Session;

before(async () => {
  a = await startGrpcAgent(
    'full',
    { executor: flooding },
    { maxReceiveMessageBytes: 64 * 1024, maxStreamBufferBytes: MAX_BUFFERED },
  );
  session = http2.connect(`http://${a.grpc.target}`);
  session.on('error', () => undefined);
});
after(async () => {
  session.close();
  closeRawClients();
  await a.close();
});

function frame(bytes: Uint8Array, flag = 0): Buffer {
  const b = Buffer.alloc(5 + bytes.length);
  b[0] = flag;
  b.writeUInt32BE(bytes.length, 1);
  b.set(bytes, 5);
  return b;
}

interface Answer {
  headers: http2.IncomingHttpHeaders;
  /** The trailers, or the headers of a trailers-only answer. */
  status: Record<string, string | string[] | undefined>;
  /** Bytes of messages received. */
  bytes: number;
  req: http2.ClientHttp2Stream;
}

/** Start a call; `done` resolves when the stream closes (bounded by BOUND_MS). */
function open(method: string, body: Buffer, extra: Record<string, string> = {}) {
  const req = session.request({
    ':method': 'POST',
    ':path': method,
    'content-type': 'application/grpc',
    te: 'trailers',
    'a2a-version': '1.0',
    ...extra,
  });
  const answer: Answer = { headers: {}, status: {}, bytes: 0, req };
  let first!: () => void;
  const firstMessage = new Promise<void>((r) => (first = r));
  req.on('response', (h) => {
    answer.headers = h;
    if (h['grpc-status'] !== undefined) answer.status = h;
  });
  req.on('trailers', (t) => (answer.status = t));
  req.on('data', (chunk: Buffer) => {
    answer.bytes += chunk.length;
    first();
  });
  req.on('error', () => undefined);
  const timer = setTimeout(() => req.close(http2.constants.NGHTTP2_CANCEL), BOUND_MS);
  const done = new Promise<Answer>((r) =>
    req.on('close', () => {
      clearTimeout(timer);
      r(answer);
    }),
  );
  req.end(body);
  return { req, done, firstMessage };
}

const send = (text: string, extra: Record<string, unknown> = {}) =>
  frame(encodeMessage('SendMessageRequest', { message: message(text), ...extra }));

function details(status: Answer['status']) {
  const bin = status[STATUS_DETAILS_KEY];
  assert.equal(typeof bin, 'string', 'grpc-status-details-bin is present');
  return decodeStatus(Buffer.from(bin as string, 'base64'));
}

/** Bounded wait for a condition the server reaches asynchronously (no timing is asserted). */
async function eventually(what: string, check: () => boolean): Promise<void> {
  const until = Date.now() + BOUND_MS;
  while (!check()) {
    assert.ok(Date.now() < until, `timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const scope = { tenant: '', owner: '' };
const listening = (id: string) => a.server.service.tasks.liveRun(scope, id)?.listening === true;

async function slowTask(): Promise<string> {
  const started = await grpcCall(a.grpc.target, 'SendMessage', {
    message: message('slow'),
    configuration: { returnImmediately: true },
  });
  return started.result.task.id;
}
const subscribeBody = (id: string) => frame(encodeMessage('SubscribeToTaskRequest', { id }));

describe('gRPC wire rules', () => {
  test('a message with the compressed flag set and no grpc-encoding → INTERNAL, trailers-only, and the server keeps serving', async () => {
    const { done } = open(GRPC_METHODS.SendMessage.path, send('echo hi').fill(1, 0, 1));
    const answer = await done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.INTERNAL));
    assert.match(String(answer.status['grpc-message']), /compressed/);
    assert.equal(answer.bytes, 0);
    assert.equal(
      (await grpcCall(a.grpc.target, 'SendMessage', { message: message('echo after') })).status,
      0,
    );
  });

  test('an encoding this server does not read (br) → UNIMPLEMENTED, naming gzip and identity as accepted', async () => {
    const answer = await open(GRPC_METHODS.SendMessage.path, frame(Buffer.from([1, 2, 3]), 1), {
      'grpc-encoding': 'br',
    }).done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.UNIMPLEMENTED));
    assert.equal(answer.status['grpc-accept-encoding'], 'gzip,identity');
  });

  test('grpc-encoding gzip: a compressed request is inflated and answered; an uncompressed one in the same call style too', async () => {
    const zipped = frame(
      gzipSync(encodeMessage('SendMessageRequest', { message: message('echo zipped') })),
      1,
    );
    const answer = await open(GRPC_METHODS.SendMessage.path, zipped, { 'grpc-encoding': 'gzip' })
      .done;
    assert.equal(answer.status['grpc-status'], '0');
    assert.ok(answer.bytes > 0);
    // The flag decides per message: grpc-encoding only names the algorithm.
    const plain = await open(GRPC_METHODS.SendMessage.path, send('echo plain'), {
      'grpc-encoding': 'gzip',
    }).done;
    assert.equal(plain.status['grpc-status'], '0');
  });

  test('a gzip bomb is refused by what it inflates to: RESOURCE_EXHAUSTED with a field violation stating the limit', async () => {
    const bomb = frame(gzipSync(Buffer.alloc(16 * 65536)), 1);
    assert.ok(bomb.length < 4096, 'the bomb itself is small');
    const answer = await open(GRPC_METHODS.SendMessage.path, bomb, { 'grpc-encoding': 'gzip' })
      .done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.RESOURCE_EXHAUSTED));
    const bad = details(answer.status).details.find(
      (d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
    ) as any;
    assert.match(
      bad.fieldViolations[0].description,
      /inflates to more than the limit of 65536 bytes/,
    );
  });

  test('bytes marked gzip that do not inflate → INTERNAL saying so', async () => {
    const answer = await open(
      GRPC_METHODS.SendMessage.path,
      frame(Buffer.from('not gzip at all'), 1),
      { 'grpc-encoding': 'gzip' },
    ).done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.INTERNAL));
    assert.match(decodeURIComponent(String(answer.status['grpc-message'])), /does not inflate/);
  });

  test('an oversize message → RESOURCE_EXHAUSTED with a field violation stating the limit', async () => {
    const answer = await open(GRPC_METHODS.SendMessage.path, send(`echo ${'y'.repeat(70 * 1024)}`))
      .done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.RESOURCE_EXHAUSTED));
    const bad = details(answer.status).details.find(
      (d) => d['@type'] === 'type.googleapis.com/google.rpc.BadRequest',
    ) as any;
    assert.equal(bad.fieldViolations[0].field, '(request)');
    assert.match(bad.fieldViolations[0].description, /over the limit of 65536 bytes/);
  });

  test('an unknown method → UNIMPLEMENTED with a METHOD_NOT_FOUND ErrorInfo', async () => {
    const answer = await open('/lf.a2a.v1.A2AService/SendTelegram', frame(Buffer.alloc(0))).done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.UNIMPLEMENTED));
    assert.ok(details(answer.status).details.some((d: any) => d.reason === 'METHOD_NOT_FOUND'));
  });

  test('a body that is not exactly one message → a status, not a hang', async () => {
    const two = Buffer.concat([frame(Buffer.alloc(0)), frame(Buffer.alloc(0))]);
    assert.equal(
      (await open(GRPC_METHODS.ListTasks.path, two).done).status['grpc-status'],
      String(GRPC_CODES.UNIMPLEMENTED),
    );
    assert.equal(
      (await open(GRPC_METHODS.ListTasks.path, Buffer.alloc(0)).done).status['grpc-status'],
      String(GRPC_CODES.INTERNAL),
    );
    assert.equal(
      (await open(GRPC_METHODS.ListTasks.path, Buffer.from([0, 0, 0, 0, 9, 1])).done).status[
        'grpc-status'
      ],
      String(GRPC_CODES.INTERNAL),
    );
  });

  test('a status message outside printable ASCII is percent-encoded', async () => {
    const answer = await open(
      GRPC_METHODS.GetTask.path,
      frame(encodeMessage('GetTaskRequest', { id: 'tâche-∅' })),
    ).done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.NOT_FOUND));
    const raw = String(answer.status['grpc-message']);
    assert.match(raw, /^[\x20-\x7e]*$/);
    assert.match(decodeURIComponent(raw), /tâche-∅/);
  });
});

describe('deadlines, resets and slow readers', () => {
  test('grpc-timeout on a unary call the agent does not finish → DEADLINE_EXCEEDED from the server', async () => {
    const answer = await open(GRPC_METHODS.SendMessage.path, send('slow'), {
      'grpc-timeout': '200m',
    }).done;
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.DEADLINE_EXCEEDED));
  });

  test('grpc-timeout on a subscription → DEADLINE_EXCEEDED trailers after the events, and no subscriber left', async () => {
    const id = await slowTask();
    const answer = await open(GRPC_METHODS.SubscribeToTask.path, subscribeBody(id), {
      'grpc-timeout': '300m',
    }).done;
    assert.equal(answer.headers[':status'], 200);
    assert.ok(answer.bytes > 0, 'the task came first');
    assert.equal(answer.status['grpc-status'], String(GRPC_CODES.DEADLINE_EXCEEDED));
    await eventually('the subscription is closed', () => !listening(id));
    await grpcCall(a.grpc.target, 'CancelTask', { id });
  });

  test('RST_STREAM mid-stream ends the subscription and leaves no subscriber', async () => {
    const id = await slowTask();
    const call = open(GRPC_METHODS.SubscribeToTask.path, subscribeBody(id));
    await call.firstMessage;
    assert.ok(listening(id));
    call.req.close(http2.constants.NGHTTP2_CANCEL);
    await call.done;
    await eventually('the subscription is closed', () => !listening(id));
    await grpcCall(a.grpc.target, 'CancelTask', { id });
  });

  test('a reader that stops reading: unsent bytes stay under the bound plus one event, then RESOURCE_EXHAUSTED (SLOW_READER)', async () => {
    let served: ServerHttp2Stream | undefined;
    const watch = (s: ServerHttp2Stream) => (served = s);
    a.grpc.server.on('stream', watch);
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, served?.writableLength ?? 0)), 2);
    try {
      const call = open(GRPC_METHODS.SendStreamingMessage.path, send('flood 400'));
      await call.firstMessage;
      call.req.pause();
      await eventually(
        'the server cut the stream off',
        () => served !== undefined && served.writableEnded,
      );
      peak = Math.max(peak, served!.writableLength);
      assert.ok(peak > MAX_BUFFERED / 2, `flow control held bytes back (peak ${peak})`);
      assert.ok(peak <= MAX_BUFFERED + EVENT_BYTES + 1024, `peak unsent ${peak} bytes`);
      call.req.resume();
      const answer = await call.done;
      assert.equal(answer.status['grpc-status'], String(GRPC_CODES.RESOURCE_EXHAUSTED));
      assert.match(String(answer.status['grpc-message']), /read too slowly/);
    } finally {
      clearInterval(sampler);
      a.grpc.server.off('stream', watch);
    }
  });
});

test('a grpc-js client that compresses every message (gzip) is served as any other', async () => {
  const { Client, Metadata, credentials } = await import('@grpc/grpc-js');
  const a = await startGrpcAgent('bare');
  const client = new Client(a.grpc.target, credentials.createInsecure(), {
    'grpc.default_compression_algorithm': 2,
  });
  try {
    const m = GRPC_METHODS.SendMessage;
    const answer = await new Promise<Buffer>((resolve, reject) => {
      const md = new Metadata();
      md.set('a2a-version', '1.0');
      client.makeUnaryRequest(
        m.path,
        (b: Buffer) => b,
        (b: Buffer) => b,
        encodeMessage(m.request, { message: message('echo compressed') }),
        md,
        { deadline: Date.now() + BOUND_MS },
        (err, value) => (err ? reject(err) : resolve(value!)),
      );
    });
    const result = decodeMessage(m.response, answer) as { task?: { status: { state: string } } };
    assert.equal(result.task?.status.state, 'TASK_STATE_COMPLETED');
  } finally {
    client.close();
    await a.close();
  }
});
