/**
 * `a2a` as a user meets it before any agent answers: help, version, usage errors with "did you mean",
 * and the exit codes of an unreachable agent — all through the built binary.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { a2a, closedPort } from './cli-fixture.js';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
  version: string;
  bin: Record<string, string>;
  files: string[];
};

describe('a2a: help, version and usage errors', () => {
  it("is the package's bin, inside the published files", () => {
    assert.equal(pkg.bin.a2a, './dist/cli/a2a.js');
    assert.ok(pkg.files.includes('dist'));
    assert.match(
      readFileSync(new URL('../dist/cli/a2a.js', import.meta.url), 'utf8'),
      /^#!\/usr\/bin\/env node\n/,
    );
  });

  it('--help lists every command, the common flags and the exit codes', async () => {
    const r = await a2a(['--help']);
    assert.equal(r.code, 0);
    for (const c of [
      'card <url>',
      'send <url> [text]',
      'get <url> <task-id>',
      'list <url>',
      'cancel <url> <task-id>',
      'subscribe <url> <task-id>',
      'push listen',
    ]) {
      assert.ok(r.stdout.includes(`  ${c}`), `lists ${c}`);
    }
    for (const f of [
      '--token',
      '--header',
      '--binding',
      '--tenant',
      '--json',
      '--timeout',
      '--verbose',
      '--version',
    ])
      assert.ok(r.stdout.includes(f), f);
    for (const code of ['0', '2', '3', '4', '5', '6', '7', '8', '9', '10', '130'])
      assert.match(r.stdout, new RegExp(`^ +${code}  \\S`, 'm'));
    assert.equal(r.stderr, '');
  });

  it("docs/cli.md's exit-code table lists the codes `a2a --help` documents", async () => {
    const section = readFileSync(new URL('../docs/cli.md', import.meta.url), 'utf8');
    const documented = [...section.matchAll(/^\| ([\d /]+) \|/gm)].flatMap((m) =>
      m[1]!.split('/').map((c) => Number(c.trim())),
    );
    const help = (await a2a(['--help'])).stdout;
    const listed = [...help.matchAll(/^ +(\d+) {2}\S/gm)].map((m) => Number(m[1]));
    assert.deepEqual(
      documented.sort((a, b) => a - b),
      listed.sort((a, b) => a - b),
    );
  });

  it("a command's --help shows its own flags and examples", async () => {
    const r = await a2a(['send', '--help']);
    assert.equal(r.code, 0);
    assert.match(r.stdout, /^usage: a2a send <url> \[text\] \[flags\]/);
    for (const f of [
      '--file PATH',
      '--data JSON',
      '--task ID',
      '--context ID',
      '--out DIR',
      '--no-input',
      '--token TOKEN',
      'examples',
    ])
      assert.ok(r.stdout.includes(f), f);
    assert.equal(
      (await a2a(['help', 'push', 'listen'])).stdout.split('\n')[0],
      'usage: a2a push listen [flags]',
    );
  });

  it('--version prints the package version and the protocol version', async () => {
    const r = await a2a(['--version']);
    assert.equal(r.code, 0);
    assert.match(
      r.stdout,
      new RegExp(`^a2a ${pkg.version.replace(/\./g, '\\.')} .*A2A protocol 1\\.0`),
    );
    assert.equal((await a2a(['card', '--version'])).code, 0);
  });

  it('no arguments: the help on stderr, exit 2', async () => {
    const r = await a2a([]);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /usage: a2a <command>/);
  });

  it('a mistyped command or flag: exit 2 with "did you mean"', async () => {
    const cmd = await a2a(['sned', 'http://127.0.0.1:1', 'hi']);
    assert.equal(cmd.code, 2);
    assert.match(cmd.stderr, /unknown command "sned"; did you mean send\?/);
    const flag = await a2a(['send', 'http://127.0.0.1:1', 'hi', '--jsn']);
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /unknown flag --jsn; did you mean --json\?/);
    assert.match(flag.stderr, /usage: a2a send <url> \[text\] \[flags\]/);
    const sub = await a2a(['push', 'lisen']);
    assert.equal(sub.code, 2);
    assert.match(
      sub.stderr,
      /a2a push needs a subcommand \(listen\); unknown "lisen"; did you mean listen\?/,
    );
    const prefix = await a2a(['card', 'http://127.0.0.1:1', '--ext']);
    assert.match(prefix.stderr, /did you mean --extended\?/);
  });

  it('malformed values are usage errors that name the flag', async () => {
    const cases: Array<[string[], RegExp]> = [
      [['card'], /a2a card needs <url>/],
      [['get', 'http://127.0.0.1:1'], /needs <url> <task-id>/],
      [
        ['send', 'http://127.0.0.1:1', 'two', 'words'],
        /unexpected "words" \(quote text that contains spaces\)/,
      ],
      [
        ['card', 'http://127.0.0.1:1', '--timeout', 'soon'],
        /--timeout expects a duration such as 30, 500ms, 2m or 1h, got "soon"/,
      ],
      [['card', 'http://127.0.0.1:1', '--header', 'no-colon'], /--header expects "Name: value"/],
      [
        ['card', 'http://127.0.0.1:1', '--binding', 'soap'],
        /--binding "soap": this client speaks JSONRPC, HTTP\+JSON, GRPC/,
      ],
      [
        ['list', 'http://127.0.0.1:1', '--status', 'complted'],
        /--status "complted" is not a task state .*did you mean completed\?/,
      ],
      [
        ['list', 'http://127.0.0.1:1', '--page-size', '0'],
        /--page-size expects a whole number from 1 to 100/,
      ],
      [['send', 'http://127.0.0.1:1', '--data', '{nope'], /--data expects JSON/],
      [
        ['send', 'http://127.0.0.1:1', '--file', '/nonexistent/file.txt'],
        /--file \/nonexistent\/file.txt: no such file/,
      ],
      [['send', 'http://127.0.0.1:1'], /nothing to send: give a text, --file or --data/],
      [['card', 'not a url'], /is not an absolute URL/],
      [['card', 'http://127.0.0.1:1', '--token'], /--token needs a value/],
    ];
    for (const [args, re] of cases) {
      const r = await a2a(args);
      assert.equal(r.code, 2, `${args.join(' ')} → exit 2\n${r.stderr}`);
      assert.match(r.stderr, re, args.join(' '));
      assert.equal(r.stdout, '');
    }
  });

  it('an agent nobody listens for: exit 3 (unreachable)', async () => {
    const port = await closedPort();
    const r = await a2a(['card', `http://127.0.0.1:${port}`]);
    assert.equal(r.code, 3);
    assert.match(
      r.stderr,
      /^a2a: Fetching the agent card: could not reach http:\/\/127\.0\.0\.1:\d+\/\.well-known\/agent-card\.json \(ECONNREFUSED\)/m,
    );
    const send = await a2a(['send', `http://127.0.0.1:${port}`, 'hi', '--json']);
    assert.equal(send.code, 3);
    assert.equal(send.stdout, '');
  });
});
