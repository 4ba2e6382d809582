/**
 * The transcript docs/kit.md shows is what `npm start` really prints: the built demo runs on free ports
 * in a temp work dir, and its output is compared with the doc's block once what changes every run is
 * normalised (ids, versions, keys, ports, times, the work dir). `UPDATE_TRANSCRIPT=1` writes the run
 * into the doc instead (ports shown as the defaults 41241-41243, the work dir as .kit-work).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_BOUND_MS, runBuilt } from './kit-planner-fixture.js';

const DOC = 'docs/kit.md';
/** The transcript's block: the code block after this line of docs/kit.md. */
const INTRO = 'What the transcript looks like';
const DEFAULT_PORTS = ['41241', '41242', '41243'];

/** The doc's transcript block: its text and where it sits in the file. */
function docBlock(doc: string): { text: string; start: number; end: number } {
  const intro = doc.indexOf(INTRO);
  assert.ok(intro >= 0, `${DOC} has "${INTRO}"`);
  const start = doc.indexOf('```\n', intro) + 4;
  const end = doc.indexOf('```\n', start);
  assert.ok(start > 3 && end > start, `${DOC} has a code block after "${INTRO}"`);
  return { text: doc.slice(start, end), start, end };
}

/** A run's output as the doc shows it: the default ports for the agents, .kit-work for the work dir. */
function asDoc(stdout: string, workDir: string): string {
  const ports = /listening on ports (\d+), (\d+), (\d+)/.exec(stdout)?.slice(1);
  assert.ok(ports, `the demo says where the agents listen:\n${stdout}`);
  let text = stdout.split(workDir).join('.kit-work');
  ports.forEach((p, i) => {
    text = text.replace(new RegExp(`\\b${p}\\b`, 'g'), DEFAULT_PORTS[i]!);
  });
  return text;
}

/**
 * What changes from run to run, replaced by placeholders. Push notifications and call answers of the
 * deploy race each other (both are real), so that section is compared as a set of lines.
 */
function normalise(text: string): string[] {
  const lines = text
    .replace(/kid=kit-demo-[0-9a-f]+/g, 'kid=<kid>')
    .replace(/\btask [0-9a-f]{8}\b/g, 'task <id>')
    .replace(/\+\d{8}\.\d{6}\.\d{3}\b/g, '+<build>')
    .replace(/(127\.0\.0\.1|localhost):\d+/g, '$1:<port>')
    .replace(/\bports \d+, \d+, \d+/g, 'ports <ports>')
    .replace(/\b\d+(\.\d+)? (ms|s)\b/g, '<time>')
    .trimEnd()
    .split('\n');
  const deploy = lines.findIndex((l) => l.startsWith('4 · Deploy'));
  if (deploy < 0) return lines;
  const end = lines.indexOf('', deploy);
  const section = lines.slice(deploy + 1, end < 0 ? undefined : end).sort();
  return [...lines.slice(0, deploy + 1), ...section, ...(end < 0 ? [] : lines.slice(end))];
}

let dir: string;
let env: Record<string, string>;
before(() => {
  assert.ok(
    existsSync('kit/dist/cli/demo.js'),
    'kit/dist/cli/demo.js: run npm run build:kit first',
  );
  dir = mkdtempSync(path.join(os.tmpdir(), 'kit-transcript-'));
  const workspace = path.join(dir, 'samples');
  cpSync(path.join('samples', 'change-ok'), path.join(workspace, 'change-ok'), { recursive: true });
  env = { KIT_PORTS: '0,0,0', KIT_WORK_DIR: path.join(dir, 'work'), KIT_WORKSPACE: workspace };
});
after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test(`the transcript in ${DOC} is what npm start prints`, { timeout: CLI_BOUND_MS }, async () => {
  const r = await runBuilt([], env);
  assert.equal(r.code, 0, `${r.stdout}\n${r.stderr}`);
  const run = asDoc(r.stdout, env.KIT_WORK_DIR!);
  const doc = readFileSync(DOC, 'utf8');
  const block = docBlock(doc);
  if (process.env.UPDATE_TRANSCRIPT === '1') {
    writeFileSync(DOC, doc.slice(0, block.start) + run + doc.slice(block.end));
    return;
  }
  assert.deepEqual(
    normalise(block.text),
    normalise(run),
    `${DOC}'s transcript differs from a real run; UPDATE_TRANSCRIPT=1 node --import tsx --test kit/test/kit-transcript-doc.test.ts rewrites it`,
  );
});
