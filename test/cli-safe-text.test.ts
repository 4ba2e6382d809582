/** The one function that makes peer text safe for a terminal (src/cli/safe-text.ts), on its own. */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { oneLine, safeLine, visible } from '../src/cli/safe-text.js';

describe('safe text for the terminal', () => {
  it('C0, ESC, DEL, C1, bidi overrides and isolates are shown as escapes; newlines and tabs kept', () => {
    assert.equal(
      visible('a\x1b[2Jb\x07\r\x7f\x9b\u202e\u2066\u2069\n\tz'),
      'a\\x1b[2Jb\\x07\\x0d\\x7f\\x9b\\u202e\\u2066\\u2069\n\tz',
    );
    assert.equal(oneLine('a\nb\tc'), 'a\\x0ab\\x09c');
    assert.equal(visible('héllo wörld ✓ 日本'), 'héllo wörld ✓ 日本');
  });

  it("keeps only our palette's colour codes; any other escape in the line is shown", () => {
    const ours = '\x1b[1mbold\x1b[22m \x1b[31mred\x1b[39m';
    assert.equal(safeLine(ours), ours);
    assert.equal(safeLine(`\x1b[32mok\x1b[39m \x1b]0;t\x07`), '\x1b[32mok\x1b[39m \\x1b]0;t\\x07');
    assert.equal(safeLine('\x1b[2J\x1b[31'), '\\x1b[2J\\x1b[31');
  });

  it('cuts to max and stays linear on a long hostile string', () => {
    const long = '\x1b'.repeat(1_000_000);
    assert.equal(visible(long).length, 4_000_000);
    assert.equal(safeLine(long).length, 4_000_000);
    assert.equal(oneLine('abcdef', 3), 'abc…(6 chars)');
  });
});
