/** With better-sqlite3 installed: a task written by one server is read back by the next on the same file. */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AgentCard } from 'a2a-kit';
import { createAgentServer, type AgentExecutor } from 'a2a-kit/server';
import { SqliteTaskStore } from 'a2a-kit/server/sqlite';
import { A2AClient, userMessage } from 'a2a-kit/client';

const done: AgentExecutor = (ctx, task) => task.complete(`got ${ctx.text}`);
const card = (origin: string): AgentCard => ({
  name: 'keeper',
  description: 'Remembers tasks across restarts',
  version: '1.0.0',
  supportedInterfaces: [
    { url: `${origin}/a2a/jsonrpc`, protocolBinding: 'JSONRPC', protocolVersion: '1.0' },
  ],
  capabilities: {},
  defaultInputModes: ['text/plain'],
  defaultOutputModes: ['text/plain'],
  skills: [{ id: 'keep', name: 'Keep', description: 'Keeps tasks', tags: ['demo'] }],
});

const dir = mkdtempSync(join(tmpdir(), 'a2a-kit-sqlite-'));
try {
  const path = join(dir, 'tasks.db');
  const first = createAgentServer({ executor: done, card, store: new SqliteTaskStore({ path }) });
  const res = await (
    await A2AClient.connect(await first.listen(0))
  ).sendMessage({ message: userMessage('keep me') });
  assert.ok('task' in res && res.task);
  await first.close();

  const second = createAgentServer({ executor: done, card, store: new SqliteTaskStore({ path }) });
  const again = await (await A2AClient.connect(await second.listen(0))).getTask(res.task.id);
  assert.equal(again.status.state, 'TASK_STATE_COMPLETED');
  await second.close();
  console.log('sqlite: ok (a task survived a restart)');
} finally {
  rmSync(dir, { recursive: true, force: true });
}
