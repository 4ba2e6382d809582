/**
 * a2a-kit's agent for the cross-SDK integration kit (a2aproject/a2a-itk): it reads the ITK's
 * traversal instruction from the message (protobuf bytes in a raw part, or base64 text), answers it,
 * or calls the next agent over the binding the instruction names with a2a-kit's client — plain,
 * streaming, with a push config, or by resubscribing — and returns what came back. Written only on the
 * public API. It serves JSON-RPC (`/jsonrpc`), HTTP+JSON (`/rest`) and gRPC at 1.0, and 0.3 on the two
 * HTTP bindings, as the ITK's reference agents do.
 *
 *   node --import tsx conformance/itk/agent.ts --httpPort 10102 --grpcPort 11002
 *
 * The ITK starts a "current" agent this way (`npm run itk-agent -- --httpPort … --grpcPort …`).
 */
import type { AgentCard, Message, StreamResponse } from 'a2a-kit';
import { createAgentServer, type AgentExecutor, type TaskUpdater } from 'a2a-kit/server';
import { A2AClient } from 'a2a-kit/client';
import { grpcTransport } from 'a2a-kit/client/grpc';
import {
  decodeInstruction,
  encodeInstruction,
  holdsTask,
  type CallAgent,
  type Instruction,
} from './instruction.js';

const BINDINGS: Record<string, string> = {
  JSONRPC: 'JSONRPC',
  'HTTP+JSON': 'HTTP+JSON',
  HTTP_JSON: 'HTTP+JSON',
  REST: 'HTTP+JSON',
  GRPC: 'GRPC',
};
/** As the reference agents hold a task: a WORKING update every 2 s, five times, unless canceled. */
const HOLD_TICK_MS = 2000;
const HOLD_TICKS = 5;

function instructionOf(message: Message): Instruction | undefined {
  for (const part of message.parts) {
    const p = part;
    const candidates = [p.raw, p.text].filter((v): v is string => typeof v === 'string');
    for (const b64 of candidates) {
      try {
        return decodeInstruction(Buffer.from(b64, 'base64'));
      } catch {
        // not an instruction: try the next part
      }
    }
  }
  return undefined;
}

async function run(i: Instruction): Promise<string[]> {
  if (i.returnResponse) return [i.returnResponse.response ?? ''];
  if (i.callAgent) return call(i.callAgent);
  if (i.steps) {
    const out: string[] = [];
    for (const step of i.steps.instructions ?? []) out.push(...(await run(step)));
    return out;
  }
  throw new Error('Unknown instruction type');
}

const texts = (m: Message | undefined): string[] =>
  (m?.parts ?? []).flatMap((p) => ('text' in p && p.text ? [p.text] : []));

function messageOf(e: StreamResponse): Message | undefined {
  if ('message' in e) return e.message;
  if ('statusUpdate' in e) return e.statusUpdate.status.message;
  if ('task' in e) return e.task.status.message;
  return undefined;
}

async function call(c: CallAgent): Promise<string[]> {
  const binding = BINDINGS[(c.transport ?? '').toUpperCase()];
  if (!binding) throw new Error(`Unsupported transport: ${c.transport}`);
  const client = await A2AClient.connect(c.agentCardUri ?? '', {
    bindings: [binding],
    versions: ['1.0', '0.3'],
    transports: { GRPC: grpcTransport() },
  });
  const message: Message = {
    messageId: crypto.randomUUID(),
    role: 'ROLE_USER',
    parts: [
      {
        raw: Buffer.from(encodeInstruction(c.instruction ?? {})).toString('base64'),
        mediaType: 'application/x-protobuf',
        filename: 'instruction.bin',
      },
    ],
  };
  const push = c.pushNotification?.url;
  const configuration = push
    ? {
        taskPushNotificationConfig: {
          url: `${/^https?:\/\//.test(push) ? push : `http://${push}`}/notifications`,
          token: 'itk-token',
        },
      }
    : undefined;
  const request = { message, ...(configuration ? { configuration } : {}) } as Parameters<
    A2AClient['sendMessage']
  >[0];
  if (c.resubscribe) return resubscribe(client, request);
  if (c.streaming) {
    const out: string[] = [];
    for await (const e of client.sendStreamingMessage(request)) out.push(...texts(messageOf(e)));
    return out;
  }
  const r = await client.sendMessage(request);
  if ('message' in r) return texts(r.message);
  return [...texts(r.task.status.message), ...(r.task.history ?? []).flatMap(texts)];
}

/** Start a stream, leave it once the task id is known, resubscribe until "task-finished", cancel. */
async function resubscribe(
  client: A2AClient,
  request: Parameters<A2AClient['sendMessage']>[0],
): Promise<string[]> {
  let taskId: string | undefined;
  for await (const e of client.sendStreamingMessage(request)) {
    taskId = 'task' in e ? e.task.id : 'statusUpdate' in e ? e.statusUpdate.taskId : undefined;
    if (taskId) break;
  }
  if (!taskId) throw new Error('Resubscribe: the first stream named no task');
  const out: string[] = [];
  const collect = (m: Message | undefined): boolean => {
    let finished = false;
    for (const t of texts(m)) {
      const kept = t.replace(/task-finished/g, '').trim();
      if (kept) out.push(kept);
      finished ||= t.includes('task-finished');
    }
    return finished;
  };
  for await (const e of client.subscribeToTask(taskId)) {
    const agentHistory =
      'task' in e ? (e.task.history ?? []).filter((m) => m.role === 'ROLE_AGENT') : [];
    if (agentHistory.some(collect) || collect(messageOf(e))) break;
  }
  await client.cancelTask(taskId).catch(() => undefined);
  return out;
}

async function hold(task: TaskUpdater, finished: string): Promise<boolean> {
  task.working(finished);
  for (let i = 0; i < HOLD_TICKS; i++) {
    await new Promise((resolve) => setTimeout(resolve, HOLD_TICK_MS));
    if (task.signal.aborted) return false;
    task.working();
  }
  return true;
}

const executor: AgentExecutor = async (ctx, task) => {
  task.submit();
  task.working();
  const instruction = instructionOf(ctx.message);
  if (!instruction) return task.fail('No valid instruction found in request');
  const text = (await run(instruction)).join('\n');
  if (holdsTask(instruction) && !(await hold(task, `${text}\ntask-finished`))) return;
  task.complete(text);
};

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  const inline = process.argv.find((a) => a.startsWith(`--${name}=`));
  const value = at >= 0 ? process.argv[at + 1] : inline?.split('=')[1];
  return value ? Number(value) : fallback;
}

const httpPort = argument('httpPort', 10102);
const grpcPort = argument('grpcPort', 11002);
const card = (origin: string): AgentCard => ({
  name: 'ITK a2a-kit agent',
  description: 'a2a-kit agent for ITK interoperability tests',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
    // Bare host:port, as the ITK's agents write it: @a2a-js/sdk's gRPC client hands the URL to grpc-js
    // unchanged and cannot resolve the `http://host:port` form (README, Interoperability).
    { url: `127.0.0.1:${grpcPort}`, protocolBinding: 'GRPC', protocolVersion: '1.0' },
    { url: `${origin}/rest`, protocolBinding: 'HTTP+JSON', protocolVersion: '1.0' },
  ],
  capabilities: { streaming: true, pushNotifications: true },
  defaultInputModes: ['text/plain', 'application/x-protobuf'],
  defaultOutputModes: ['text/plain'],
  skills: [],
});
const server = createAgentServer({
  executor,
  card,
  grpc: { port: grpcPort },
  compat: { v03: true },
  // The ITK's notification service and every agent are on this machine.
  push: { policy: { allowLoopback: true } },
});
console.log(`ITK a2a-kit agent at ${await server.listen(httpPort, '127.0.0.1')}`);
