/**
 * Helpers of the kit-agent tests: the three agents on 127.0.0.1:0 over a temp workspace (copies of the
 * samples plus a project whose test hangs), raw JSON-RPC and HTTP+JSON over fetch, and an SSE reader
 * with bounded waits. Everything is real: servers, child processes, files.
 */
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createParser } from 'eventsource-parser';
import { startKitAgents, type KitAgentsOptions, type RunningKit } from '../src/agents/start.js';
import type { KitAgentName } from '../src/agents/cards.js';

export const TOKEN = 'test-token-0123456789abcdef';
export const AUTH = { authorization: `Bearer ${TOKEN}` };
export const UNKNOWN_TASK = '00000000-0000-4000-8000-000000000000';
/** Upper bound for one wait; a hang fails the test instead of blocking the run. */
export const BOUND_MS = 30_000;

export interface KitFixture {
  kit: RunningKit;
  dir: string;
  workspace: string;
  releases: string;
  /** The hanging test writes its pid here. */
  pidFile: string;
  close(): Promise<void>;
}

const HANG_TEST = (pidFile: string) => `import { test } from 'node:test';
import { writeFileSync } from 'node:fs';
test('waits until it is killed', async () => {
  writeFileSync(${JSON.stringify(pidFile)}, String(process.pid));
  await new Promise((r) => setTimeout(r, 600000));
});
`;

export async function startKit(extra: Partial<KitAgentsOptions> = {}): Promise<KitFixture> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kit-agents-'));
  const workspace = path.join(dir, 'workspace');
  const releases = path.join(dir, 'releases');
  const pidFile = path.join(dir, 'hang.pid');
  for (const s of ['change-ok', 'change-broken'])
    cpSync(path.join('samples', s), path.join(workspace, s), { recursive: true });
  mkdirSync(path.join(workspace, 'hang', 'test'), { recursive: true });
  writeFileSync(path.join(workspace, 'hang', 'test', 'hang.test.js'), HANG_TEST(pidFile));
  writeFileSync(path.join(dir, 'outside.test.js'), 'throw new Error("must never run")\n');
  mkdirSync(releases);
  const kit = await startKitAgents({
    workspaceRoot: workspace,
    releasesDir: releases,
    deployerToken: TOKEN,
    ports: { 'test-runner': 0, 'code-reviewer': 0, deployer: 0 },
    testTimeoutMs: 60_000,
    ...extra,
  });
  return {
    kit,
    dir,
    workspace,
    releases,
    pidFile,
    close: async () => {
      await kit.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Where to send requests: the server's real origin with the path of the card's interface URL. */
export function endpoint(
  f: KitFixture,
  agent: KitAgentName,
  binding: 'JSONRPC' | 'HTTP+JSON',
): string {
  const a = f.kit.agents[agent];
  const i = a.card.supportedInterfaces.find((x) => x.protocolBinding === binding)!;
  return `${a.origin}${new URL(i.url).pathname}`;
}

export interface RpcAnswer {
  status: number;
  headers: Headers;
  body: any;
}

export async function rpc(
  f: KitFixture,
  agent: KitAgentName,
  method: string,
  params: unknown,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const r = await fetch(endpoint(f, agent, 'JSONRPC'), {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: randomUUID(), method, params }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  return { status: r.status, headers: r.headers, body: await r.json() };
}

export async function rest(
  f: KitFixture,
  agent: KitAgentName,
  verb: string,
  subpath: string,
  body?: unknown,
  headers: Record<string, string> = {},
): Promise<RpcAnswer> {
  const r = await fetch(`${endpoint(f, agent, 'HTTP+JSON')}${subpath}`, {
    method: verb,
    headers: { 'content-type': 'application/json', 'a2a-version': '1.0', ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  const text = await r.text();
  return { status: r.status, headers: r.headers, body: text ? JSON.parse(text) : undefined };
}

/** A SendMessage params object with a fresh message id. */
export function send(
  parts: unknown[],
  extra: Record<string, unknown> = {},
  configuration?: Record<string, unknown>,
) {
  return {
    message: { messageId: randomUUID(), role: 'ROLE_USER', parts, ...extra },
    ...(configuration ? { configuration } : {}),
  };
}

/** The first data part of a task's artifact named `name`. */
export function artifactData(task: any, name: string): any {
  const a = (task.artifacts ?? []).find((x: any) => x.name === name);
  return a?.parts.find((p: any) => p.data !== undefined)?.data;
}

export function statusText(task: any): string {
  return (task.status.message?.parts ?? [])
    .filter((p: any) => typeof p.text === 'string')
    .map((p: any) => p.text)
    .join('\n');
}

/** SendStreamingMessage over JSON-RPC; returns every `result` until the stream ends (bounded). */
export async function stream(f: KitFixture, agent: KitAgentName, params: unknown): Promise<any[]> {
  const r = await fetch(endpoint(f, agent, 'JSONRPC'), {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'a2a-version': '1.0',
      accept: 'text/event-stream',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'SendStreamingMessage', params }),
    signal: AbortSignal.timeout(BOUND_MS),
  });
  if (!r.headers.get('content-type')?.startsWith('text/event-stream'))
    throw new Error(`not a stream: ${await r.text()}`);
  const events: any[] = [];
  const parser = createParser({ onEvent: (e) => events.push(JSON.parse(e.data).result) });
  const decoder = new TextDecoder();
  for await (const chunk of r.body as unknown as AsyncIterable<Uint8Array>) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (events.length > 10_000) throw new Error('runaway stream');
  }
  return events;
}

/** Poll GetTask until `done(task)` or the bound passes. */
export async function waitTask(
  f: KitFixture,
  agent: KitAgentName,
  id: string,
  done: (t: any) => boolean,
  headers: Record<string, string> = {},
): Promise<any> {
  const deadline = Date.now() + BOUND_MS;
  for (let i = 0; i < 3000 && Date.now() < deadline; i++) {
    const r = await rpc(f, agent, 'GetTask', { id }, headers);
    if (r.body.result && done(r.body.result)) return r.body.result;
    await new Promise((res) => setTimeout(res, 50));
  }
  throw new Error(`task ${id} did not reach the expected state in time`);
}

/** Resolves true once `pid` no longer exists (bounded). */
export async function processGone(pid: number): Promise<boolean> {
  const deadline = Date.now() + BOUND_MS;
  for (let i = 0; i < 3000 && Date.now() < deadline; i++) {
    try {
      process.kill(pid, 0);
    } catch {
      return true;
    }
    await new Promise((res) => setTimeout(res, 50));
  }
  return false;
}
