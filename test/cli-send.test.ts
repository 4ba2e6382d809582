/**
 * `a2a send` against a2a-kit agents on 127.0.0.1:0, through the built binary: streamed and polled
 * transcripts, NDJSON, exit codes per final state, INPUT_REQUIRED without a terminal (exit 9) and
 * answered with --task, files and data parts, --out, --timeout.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { a2a, ndjson, startAgents, type TestAgents } from './cli-fixture.js';

describe('a2a send', () => {
  let agents: TestAgents;
  before(async () => {
    agents = await startAgents();
  });
  after(() => agents.close());

  it('streams from an agent that streams: one plain line per event, exit 0', async () => {
    const r = await a2a(['send', agents.streaming.url, 'work 2']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.lines[0]!, /^task [0-9a-f-]{36} \(context [0-9a-f-]{36}\) SUBMITTED$/);
    assert.deepEqual(r.lines.slice(1), [
      'WORKING  step 1 of 2',
      'WORKING  step 2 of 2',
      'artifact story: once upon',
      'artifact story (more): a time',
      'artifact numbers (data)',
      'COMPLETED  did 2 steps',
    ]);
    assert.ok(!r.stdout.includes('\x1b'), 'no colours when piped');
  });

  it('--json: NDJSON, one StreamResponse per line', async () => {
    const r = await a2a(['send', agents.streaming.url, 'work 1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const events = ndjson(r);
    assert.ok('task' in events[0]);
    assert.deepEqual(
      events.map((e) => Object.keys(e)[0]),
      [
        'task',
        'statusUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'artifactUpdate',
        'statusUpdate',
      ],
    );
    assert.equal(events.at(-1).statusUpdate.status.state, 'TASK_STATE_COMPLETED');
    assert.ok(
      events.every(
        (e) =>
          (e.task?.id ?? e.statusUpdate?.taskId ?? e.artifactUpdate?.taskId) === events[0].task.id,
      ),
    );
  });

  it('falls back to send + GetTask polling when the agent does not stream', async () => {
    const r = await a2a([
      'send',
      agents.plain.url,
      'work 2',
      '--out',
      path.join(agents.dir, 'plain-out'),
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.lines[0]!,
      /^task [0-9a-f-]{36} \(context [0-9a-f-]{36}\) (SUBMITTED|WORKING|COMPLETED)/,
    );
    assert.equal(r.lines.at(-1), 'COMPLETED  did 2 steps');
    assert.equal(
      r.lines.filter((l) => l === 'artifact story: once upon a time').length,
      1,
      r.stdout,
    );
    assert.deepEqual(readdirSync(path.join(agents.dir, 'plain-out')).sort(), [
      'numbers.json',
      'story.txt',
    ]);
  });

  it('--no-stream on a streaming agent: SendMessage, then SubscribeToTask', async () => {
    const r = await a2a(['send', agents.streaming.url, 'work 1', '--no-stream', '--verbose']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /→ SendMessage JSONRPC/);
    assert.doesNotMatch(r.stderr, /→ SendStreamingMessage/);
    assert.equal(r.lines.at(-1), 'COMPLETED  did 1 steps');
  });

  it('a direct message reply: "message" line, exit 0', async () => {
    const r = await a2a(['send', agents.streaming.url, 'echo hello there']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.lines, ['message  hello there']);
  });

  it('exit codes follow the final state: FAILED 6, REJECTED 8', async () => {
    const failed = await a2a(['send', agents.streaming.url, 'fail']);
    assert.equal(failed.code, 6);
    assert.equal(failed.lines.at(-1), 'FAILED  it broke');
    const rejected = await a2a(['send', agents.plain.url, 'reject']);
    assert.equal(rejected.code, 8);
    assert.match(rejected.lines.at(-1)!, /REJECTED {2}not for me$/);
  });

  it('INPUT_REQUIRED without a terminal: exit 9, the question, and how to answer with --task', async () => {
    for (const agent of [agents.streaming, agents.plain]) {
      const r = await a2a(['send', agent.url, 'ask']);
      assert.equal(r.code, 9, r.stderr);
      assert.match(r.lines.at(-1)!, /^(task .* )?INPUT_REQUIRED {2}What is your name\?$/);
      const id = /task ([0-9a-f-]{36})/.exec(r.stdout)![1]!;
      assert.match(
        r.stderr,
        new RegExp(
          `a2a: task ${id} waits for input \\(stdin is not a terminal\\): What is your name\\?`,
        ),
      );
      assert.ok(
        r.stderr.includes(`answer with: a2a send ${agent.url} "<answer>" --task ${id}`),
        r.stderr,
      );

      const answered = await a2a(['send', agent.url, 'Ada', '--task', id]);
      assert.equal(answered.code, 0, answered.stderr);
      assert.match(answered.lines.at(-1)!, /COMPLETED {2}hello Ada$/);
    }
  });

  it('--no-input refuses to prompt even if it could', async () => {
    const r = await a2a(['send', agents.streaming.url, 'ask', '--no-input']);
    assert.equal(r.code, 9);
    assert.match(r.stderr, /waits for input \(--no-input\)/);
  });

  it('--file and --data become file and data parts; --out saves every artifact part', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'a2a-cli-files-'));
    const file = path.join(dir, 'notes.md');
    writeFileSync(file, '# notes\n');
    writeFileSync(path.join(dir, 'req.json'), '{"from":"file"}');
    const out = path.join(dir, 'out');
    const r = await a2a([
      'send',
      agents.streaming.url,
      'files',
      '--file',
      file,
      '--data',
      '{"inline":true}',
      '--data',
      `@${path.join(dir, 'req.json')}`,
      '--out',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.lines.at(-1), 'COMPLETED  got 1 file(s) and 2 data part(s)');
    const received = JSON.parse(readFileSync(path.join(out, 'received.json'), 'utf8'));
    assert.deepEqual(received, {
      files: [{ filename: 'notes.md', mediaType: 'text/markdown', bytes: 8 }],
      data: [{ inline: true }, { from: 'file' }],
    });
    assert.equal(readFileSync(path.join(out, 'hello.bin'), 'utf8'), 'hello bytes');
    assert.match(r.stderr, /saved .*received\.json/);
  });

  it('--context keeps the conversation; the task it starts is in that context', async () => {
    const r = await a2a(['send', agents.streaming.url, 'hi', '--context', 'ctx-cli-1', '--json']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(ndjson(r)[0].task.contextId, 'ctx-cli-1');
  });

  it('--timeout: exit 10 when the task takes longer, and the task id to come back to', async () => {
    const r = await a2a(['send', agents.streaming.url, 'wait', '--timeout', '1s']);
    assert.equal(r.code, 10, r.stderr);
    assert.match(r.stderr, /a2a: timed out after 1s \(--timeout\)/);
    assert.match(r.stderr, /the task goes on at the agent: a2a get .* [0-9a-f-]{36}/);
    const id = /task ([0-9a-f-]{36})/.exec(r.stdout)![1]!;
    assert.equal((await a2a(['cancel', agents.streaming.url, id])).code, 0);
  });
});
