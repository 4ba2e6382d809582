/**
 * The sentences the three agents understand, read word by word (see words.ts for why not with
 * regular expressions). Each reader accepts what its former pattern accepted: keywords in any case,
 * "please" first, optional little words ("the", "in"…) taken only when something follows them.
 */
import { Sentence } from './words.js';

/** A target or source that spans a line break is not one: the old patterns' `.` stopped there too. */
const hasLineBreak = (s: string): boolean => /[\n\r\u2028\u2029]/.test(s);
const NAME = /^[\w-]+$/;

/** "run tests in <target>", "test <target>", "please run the tests on <target>" → the target text. */
export function testTargetText(text: string): string | undefined {
  const s = Sentence.of(text);
  if (!s) return undefined;
  s.take(['please'], 2);
  if (s.take(['run'], 2)) {
    s.take(['the'], 2);
    if (!s.take(['test', 'tests'])) return undefined;
  } else if (!s.take(['test'])) return undefined;
  s.take(['in', 'on', 'for', 'under', 'of']);
  const target = s.rest();
  return target && !hasLineBreak(target) ? target : undefined;
}

/** "review <dir>", "please review the code in <dir>" → the directory (one word). */
export function reviewTargetText(text: string): string | undefined {
  const s = Sentence.of(text);
  if (!s) return undefined;
  s.take(['please'], 2);
  if (!s.take(['review'])) return undefined;
  s.take(['the']);
  s.take(['code', 'directory', 'dir', 'folder']);
  s.take(['in', 'of', 'at']);
  return s.left === 1 ? s.rest() : undefined;
}

/** What "deploy <source> to <target> [as] [version] [v]<version>[.]" asks for. */
export interface DeployText {
  source: string;
  target: string;
  version?: string;
}

/** A version word: a leading `v` and one final `.` (the sentence's end) are not part of it. */
function versionWord(w: string, finalDot: boolean): string {
  const v = w.length > 1 && (w[0] === 'v' || w[0] === 'V') ? w.slice(1) : w;
  return finalDot && v.length > 1 && v.endsWith('.') ? v.slice(0, -1) : v;
}

/** The words after "to": a target, then an optional version in one of the accepted spellings. */
function deployTail(ws: readonly string[]): Omit<DeployText, 'source'> | undefined {
  const [first, ...rest] = ws;
  if (first === undefined) return undefined;
  const lower = rest.map((w) => w.toLowerCase());
  const dotEnds = rest.at(-1) === '.';
  let version: string | undefined;
  if (rest.length === 0) {
    const target = first.endsWith('.') ? first.slice(0, -1) : first;
    return NAME.test(target) ? { target } : undefined;
  }
  if (rest.length === 1) version = versionWord(rest[0]!, true);
  else if (rest.length === 2 && (lower[0] === 'as' || lower[0] === 'version'))
    version = versionWord(rest[1]!, true);
  else if (rest.length === 2 && dotEnds) version = versionWord(rest[0]!, false);
  else if (rest.length === 3 && lower[0] === 'as' && lower[1] === 'version')
    version = versionWord(rest[2]!, true);
  else if (rest.length === 3 && dotEnds && (lower[0] === 'as' || lower[0] === 'version'))
    version = versionWord(rest[1]!, false);
  else if (rest.length === 4 && lower[0] === 'as' && lower[1] === 'version' && dotEnds)
    version = versionWord(rest[2]!, false);
  else return undefined;
  return NAME.test(first) ? { target: first, version } : undefined;
}

/** "deploy change-ok to staging as 1.2.0" → source, target and version. */
export function deployText(text: string): DeployText | undefined {
  const s = Sentence.of(text);
  if (!s) return undefined;
  s.take(['please'], 2);
  if (!s.take(['deploy', 'publish', 'release'], 3)) return undefined;
  const words = s.remaining();
  // The source ends at the first "to" whose following words read as a target and a version.
  for (let i = 1; i < words.length - 1; i++) {
    if (words[i]!.toLowerCase() !== 'to' || words.length - i - 1 > 5) continue;
    const tail = deployTail(words.slice(i + 1));
    const source = s.span(0, i);
    if (!tail || hasLineBreak(source)) continue;
    return { source, target: tail.target, ...(tail.version ? { version: tail.version } : {}) };
  }
  return undefined;
}

/** The spellings of "rollback" across words: "rollback", "roll back", "roll-back", "roll - back"… */
const ROLLBACK = ['rollback', 'roll-back', 'roll back', 'roll- back', 'roll -back', 'roll - back'];

/** "rollback staging", "please roll back the production release." → the target. */
export function rollbackTarget(text: string): string | undefined {
  const s = Sentence.of(text);
  if (!s) return undefined;
  s.take(['please'], 2);
  let verb = 0;
  for (let n = 1; n <= 3 && verb === 0; n++)
    if (ROLLBACK.includes(s.remaining().slice(0, n).join(' ').toLowerCase())) verb = n;
  if (verb === 0) return undefined;
  const ws = s.remaining().slice(verb);
  if (ws.at(-1) === '.') ws.pop();
  else if (ws.length > 0) ws[ws.length - 1] = ws.at(-1)!.replace(/\.$/, '');
  if (ws.length > 1 && ws[0]!.toLowerCase() === 'the') ws.shift();
  if (ws.length === 2 && ws[1]!.toLowerCase() === 'release') ws.pop();
  return ws.length === 1 && NAME.test(ws[0]!) ? ws[0] : undefined;
}
