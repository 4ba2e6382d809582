/**
 * The kit's commands take their flags from one table each (commands.ts): parsing, `--help` and docs/kit.md's
 * flag tables come from it. Tested here: the parser, "did you mean", each command's `--help` run as a user
 * runs it, and the docs/kit.md tables being exactly what the commands accept.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { promisify } from 'node:util';
import {
  AGENTS_COMMAND,
  DEMO_COMMAND,
  KIT_COMMANDS,
  PLANNER_COMMAND,
  REPLAY_COMMAND,
} from '../src/cli/commands.js';
import {
  UsageError,
  didYouMean,
  flagLabel,
  helpText,
  parseFlags,
  type Command,
} from '../src/cli/flags.js';
import { missingFlagTables, withFlagTables } from '../src/cli/readme-flags.js';

const run = promisify(execFile);

describe('flag tables', () => {
  it('parse: --name value, --name=value, -x value, switches, repeated flags, positionals after --', () => {
    const { values, positionals } = parseFlags(REPLAY_COMMAND, [
      '-v',
      'a=1',
      '--var=b=2',
      '--timeout',
      '500',
      '--json',
      'one.http',
      '--',
      '--two.http',
    ]);
    assert.deepEqual(values.list('var'), ['a=1', 'b=2']);
    assert.equal(values.string('timeout'), '500');
    assert.equal(values.bool('json'), true);
    assert.equal(values.bool('help'), false);
    assert.deepEqual(positionals, ['one.http', '--two.http']);
    assert.throws(() => values.string('nope'), /no flag --nope in this command's table/);
  });

  it('bad usage is a UsageError that says what is wrong', () => {
    const bad: Array<[Command, string[], RegExp]> = [
      [PLANNER_COMMAND, ['--projct', 'x'], /^unknown flag --projct \(did you mean --project\?\)$/],
      [
        PLANNER_COMMAND,
        ['--ports', '1,2,3'],
        /^unknown flag --ports: the planner finds the agents with --agents LIST/,
      ],
      [AGENTS_COMMAND, ['--port', '1,2,3'], /^unknown flag --port \(did you mean --ports\?\)$/],
      [AGENTS_COMMAND, ['--new-tokne'], /did you mean --new-token\?/],
      [AGENTS_COMMAND, ['--bogus'], /^unknown flag --bogus$/],
      [DEMO_COMMAND, ['--target'], /^--target needs a value \(staging\|production\)$/],
      [DEMO_COMMAND, ['--project', '--no-confirm'], /^--project needs a value \(DIR\)$/],
      [DEMO_COMMAND, ['--no-confirm=yes'], /^--no-confirm takes no value$/],
      [DEMO_COMMAND, ['change-ok'], /^unexpected argument "change-ok" \(demo takes flags only\)$/],
    ];
    for (const [cmd, argv, message] of bad) {
      assert.throws(
        () => parseFlags(cmd, argv),
        (err: unknown) => err instanceof UsageError && message.test(err.message),
        `${cmd.name} ${argv.join(' ')}`,
      );
    }
  });

  it('did you mean: a slip of one or two letters, a swap, or the start of one name; nothing for a stranger', () => {
    const names = PLANNER_COMMAND.flags.map((f) => f.name);
    assert.equal(didYouMean('projct', names), 'project');
    assert.equal(didYouMean('traget', names), 'target');
    assert.equal(didYouMean('verify-card', names), 'verify-cards');
    assert.equal(didYouMean('webhook-p', names), 'webhook-port');
    assert.equal(didYouMean('agent', names), 'agents');
    assert.equal(didYouMean('banana', names), undefined);
    assert.equal(
      didYouMean('webhook', names),
      undefined,
      'the start of two names is no suggestion',
    );
  });

  it('every flag has a unique name and one line of help; planner flags are in the planner and the demo', () => {
    for (const cmd of KIT_COMMANDS) {
      const names = cmd.flags.map((f) => f.name);
      assert.equal(new Set(names).size, names.length, `${cmd.name}: a flag is listed twice`);
      for (const f of cmd.flags)
        assert.ok(f.help && !f.help.includes('\n'), `${cmd.name} --${f.name}`);
      assert.ok(names.includes('help'), `${cmd.name} has --help`);
    }
    for (const name of ['agents', 'project', 'target', 'no-confirm', 'verify-cards', 'config']) {
      assert.ok(PLANNER_COMMAND.flags.some((f) => f.name === name));
      assert.ok(DEMO_COMMAND.flags.some((f) => f.name === name));
    }
  });

  it("the flag tables of docs/kit.md are exactly the commands' tables (node --import tsx kit/src/cli/readme-flags.ts rewrites them)", () => {
    const readme = readFileSync('docs/kit.md', 'utf8');
    assert.deepEqual(missingFlagTables(readme), []);
    assert.equal(
      withFlagTables(readme),
      readme,
      'docs/kit.md flag tables are stale: run node --import tsx kit/src/cli/readme-flags.ts',
    );
  });
});

describe('--help of each command, run as a user runs it', () => {
  for (const [cmd, file] of [
    [DEMO_COMMAND, 'demo'],
    [AGENTS_COMMAND, 'agents'],
    [PLANNER_COMMAND, 'planner'],
    [REPLAY_COMMAND, 'replay'],
  ] as const) {
    it(`${cmd.run} --help: usage, every flag, exit 0`, async () => {
      const { stdout, stderr } = await run(
        process.execPath,
        ['--import', 'tsx', `kit/src/cli/${file}.ts`, '--help'],
        { timeout: 60_000 },
      );
      assert.equal(stderr, '');
      assert.equal(stdout, helpText(cmd));
      assert.ok(stdout.startsWith(`usage: ${cmd.run} [flags]`));
      for (const f of cmd.flags)
        assert.ok(stdout.includes(flagLabel(f)), `${cmd.name} --help lists ${flagLabel(f)}`);
      for (const line of stdout.split('\n'))
        assert.ok(line.length <= 100, `help line too wide for a terminal: ${line}`);
    });
  }
});
