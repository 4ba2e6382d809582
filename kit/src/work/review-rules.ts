import type * as TS from 'typescript';

/** How much a finding matters; any `error` makes the verdict `request-changes`. */
export type Severity = 'error' | 'warning' | 'info';

/** One problem in one file. `rule` is a plain-rule id or `TS<code>` for compiler diagnostics. */
export interface ReviewFinding {
  file: string;
  /** 1-based; 0 for findings that are not tied to a position. */
  line: number;
  /** 1-based; 0 for findings that are not tied to a position. */
  column: number;
  rule: string;
  /** TypeScript diagnostic code, present for compiler findings only. */
  code?: number;
  severity: Severity;
  message: string;
}

/** Knobs for the plain rules. */
export interface RuleOptions {
  /** Lines longer than this get a warning (default 120). */
  maxLineLength?: number;
  /** Findings one review lists (default 1,000); the rest are counted, not listed. */
  maxFindings?: number;
}

const CONSOLE_DEBUG = new Set(['log', 'debug', 'info', 'trace', 'dir', 'table']);
const MARKER = /\b(TODO|FIXME|XXX)\b[:\s]*(.{0,80})/;

/**
 * Plain rules that need no type information: leftover debugging (`console.log`, `debugger`), `eval`,
 * explicit `any` in TypeScript, TODO/FIXME markers in comments and very long lines.
 */
export function plainRules(
  ts: typeof TS,
  sf: TS.SourceFile,
  file: string,
  opts: RuleOptions = {},
): ReviewFinding[] {
  const out: ReviewFinding[] = [];
  const isTs = /\.(?:c|m)?tsx?$/.test(file);
  const at = (pos: number, rule: string, severity: Severity, message: string): void => {
    const lc = sf.getLineAndCharacterOfPosition(pos);
    out.push({ file, line: lc.line + 1, column: lc.character + 1, rule, severity, message });
  };
  const text = sf.text;
  const commentStarts = new Set<number>();
  const collectComments = (ranges: TS.CommentRange[] | undefined): void => {
    for (const r of ranges ?? []) {
      if (commentStarts.has(r.pos)) continue;
      commentStarts.add(r.pos);
      const m = MARKER.exec(text.slice(r.pos, r.end));
      if (m)
        at(
          r.pos,
          'todo-comment',
          'info',
          `${m[1]} left in a comment${m[2]?.trim() ? `: ${m[2].trim()}` : ''}`,
        );
    }
  };
  const visit = (node: TS.Node): void => {
    collectComments(ts.getLeadingCommentRanges(text, node.pos));
    collectComments(ts.getTrailingCommentRanges(text, node.end));
    if (ts.isDebuggerStatement(node)) {
      at(node.getStart(sf), 'no-debugger', 'error', '`debugger` statement left in the code');
    } else if (ts.isCallExpression(node) || ts.isNewExpression(node)) {
      const callee = node.expression;
      if (ts.isIdentifier(callee) && callee.text === 'eval' && ts.isCallExpression(node)) {
        at(
          node.getStart(sf),
          'no-eval',
          'error',
          '`eval` runs arbitrary code; parse or dispatch explicitly instead',
        );
      } else if (
        ts.isIdentifier(callee) &&
        callee.text === 'Function' &&
        ts.isNewExpression(node)
      ) {
        at(node.getStart(sf), 'no-eval', 'error', '`new Function(...)` is `eval` in disguise');
      } else if (
        ts.isPropertyAccessExpression(callee) &&
        ts.isIdentifier(callee.expression) &&
        callee.expression.text === 'console' &&
        CONSOLE_DEBUG.has(callee.name.text)
      ) {
        at(
          node.getStart(sf),
          'no-console',
          'warning',
          `\`console.${callee.name.text}\` left in; use a logger or remove it`,
        );
      }
    } else if (isTs && node.kind === ts.SyntaxKind.AnyKeyword) {
      at(
        node.getStart(sf),
        'no-explicit-any',
        'warning',
        '`any` turns off type checking here; prefer `unknown` or a real type',
      );
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  collectComments(ts.getLeadingCommentRanges(text, sf.endOfFileToken.pos));

  const max = opts.maxLineLength ?? 120;
  const lineStarts = sf.getLineStarts();
  for (let i = 0; i < lineStarts.length; i += 1) {
    const start = lineStarts[i] ?? 0;
    const end = lineStarts[i + 1] ?? text.length;
    const length = text.slice(start, end).replace(/\r?\n$/, '').length;
    if (length > max) {
      out.push({
        file,
        line: i + 1,
        column: max + 1,
        rule: 'max-line-length',
        severity: 'warning',
        message: `line is ${length} characters long (limit ${max})`,
      });
    }
  }
  return out.sort((a, b) => a.line - b.line || a.column - b.column);
}
