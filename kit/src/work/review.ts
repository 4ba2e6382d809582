import { readFile, stat } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';
import { plainRules } from './review-rules.js';
import type { ReviewFinding, RuleOptions, Severity } from './review-rules.js';
import { WorkspaceError, resolveInWorkspace, walkFiles } from './workspace.js';

export type { ReviewFinding, Severity } from './review-rules.js';

/** A file handed to the reviewer; `path` is relative ('/' separators, no `..`). */
export interface SourceInput {
  path: string;
  content: string;
}

/** Findings for one file, streamed through `onFile` as soon as that file is done. */
export interface FileReview {
  file: string;
  findings: ReviewFinding[];
  errors: number;
  warnings: number;
}

/** The whole review. */
export interface ReviewReport {
  /** Source files that were reviewed, in order. */
  files: string[];
  findings: ReviewFinding[];
  errors: number;
  warnings: number;
  infos: number;
  /** `request-changes` exactly when there is at least one error. */
  verdict: 'approve' | 'request-changes';
}

/** Options for every review entry point. */
export interface ReviewOptions extends RuleOptions {
  onFile?: (review: FileReview) => void | Promise<void>;
  /** Checked between files; an aborted review throws the signal's reason. */
  signal?: AbortSignal;
}

/** Thrown when the TypeScript compiler cannot be loaded. */
export class ReviewUnavailableError extends Error {
  override readonly name = 'ReviewUnavailableError';
}

const SOURCE_EXT = /\.(?:[cm]?[jt]s|[jt]sx)$/;
const MAX_FILES = 500;
const MAX_FILE_BYTES = 1_000_000;
const MAX_TOTAL_BYTES = 8_000_000;
/** Files under review live here in the in-memory host; nothing is read from or written to this path. */
const VIRTUAL_ROOT = '/__kit_review__';

let tsModule: Promise<typeof TS> | undefined;

async function loadTypeScript(): Promise<typeof TS> {
  tsModule ??= import('typescript').then(
    (m) => ((m as unknown as { default?: typeof TS }).default ?? m) as typeof TS,
    (err: unknown) => {
      tsModule = undefined;
      throw new ReviewUnavailableError(`the code reviewer needs the "typescript" package, which could not be loaded: ${String(err)}`);
    },
  );
  return tsModule;
}

/** Where `@types/node` lives, so `node:*` imports and `console`/`process` type-check; undefined if absent. */
function nodeTypesRoot(): string | undefined {
  try {
    return path.dirname(path.dirname(createRequire(import.meta.url).resolve('@types/node/package.json')));
  } catch {
    return undefined;
  }
}

/** Parsed lib and `@types` files, shared by every review: parsing them is most of a cold review's cost. */
const libCache = new Map<string, TS.SourceFile>();

function compilerOptions(ts: typeof TS, typeRoot: string | undefined): TS.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    allowJs: true,
    checkJs: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: typeRoot ? ['lib.es2022.d.ts'] : ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: typeRoot ? ['node'] : [],
    ...(typeRoot ? { typeRoots: [typeRoot] } : {}),
    jsx: ts.JsxEmit.Preserve,
    skipLibCheck: true,
    allowImportingTsExtensions: true,
    resolveJsonModule: true,
    esModuleInterop: true,
    maxNodeModuleJsDepth: 0,
    // Each reviewed file is its own module, so two scripts declaring the same top-level name do not clash.
    moduleDetection: ts.ModuleDetectionKind.Force,
  };
}

function normalizeInputPath(p: string): string {
  if (typeof p !== 'string' || p.trim() === '' || p.includes('\0')) {
    throw new WorkspaceError('INVALID_INPUT', 'every file needs a non-empty path');
  }
  const norm = path.posix.normalize(p.replace(/\\/g, '/'));
  if (norm.startsWith('/') || norm === '..' || norm.startsWith('../')) {
    throw new WorkspaceError('INVALID_INPUT', `file path "${p}" must be relative and stay inside the reviewed tree`);
  }
  return norm;
}

function category(ts: typeof TS, c: TS.DiagnosticCategory): Severity {
  if (c === ts.DiagnosticCategory.Error) return 'error';
  return c === ts.DiagnosticCategory.Warning ? 'warning' : 'info';
}

function toFinding(ts: typeof TS, d: TS.Diagnostic, file: string): ReviewFinding {
  const pos = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : undefined;
  return {
    file,
    line: pos ? pos.line + 1 : 0,
    column: pos ? pos.character + 1 : 0,
    rule: `TS${d.code}`,
    code: d.code,
    severity: category(ts, d.category),
    message: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  };
}

function count(findings: ReviewFinding[], s: Severity): number {
  return findings.filter((f) => f.severity === s).length;
}

/**
 * Reviews in-memory sources: one TypeScript Program over all of them (strict, allowJs + checkJs, no emit,
 * nothing touches the disk except lib and `@types/node` declarations), then the plain rules.
 * Non-source entries (package.json, …) are visible to module resolution but not reviewed.
 */
export async function reviewFiles(files: SourceInput[], opts: ReviewOptions = {}): Promise<ReviewReport> {
  if (!Array.isArray(files)) throw new WorkspaceError('INVALID_INPUT', 'files must be an array');
  if (files.length > MAX_FILES) throw new WorkspaceError('LIMIT_EXCEEDED', `at most ${MAX_FILES} files per review`);
  const contents = new Map<string, string>();
  let total = 0;
  for (const f of files) {
    const rel = normalizeInputPath(f.path);
    if (typeof f.content !== 'string') throw new WorkspaceError('INVALID_INPUT', `file "${f.path}" has no text content`);
    const size = Buffer.byteLength(f.content);
    if (size > MAX_FILE_BYTES) throw new WorkspaceError('LIMIT_EXCEEDED', `file "${f.path}" is larger than ${MAX_FILE_BYTES} bytes`);
    total += size;
    if (total > MAX_TOTAL_BYTES) throw new WorkspaceError('LIMIT_EXCEEDED', `review input exceeds ${MAX_TOTAL_BYTES} bytes`);
    if (contents.has(`${VIRTUAL_ROOT}/${rel}`)) throw new WorkspaceError('INVALID_INPUT', `file "${rel}" is listed twice`);
    contents.set(`${VIRTUAL_ROOT}/${rel}`, f.content);
  }
  const roots = [...contents.keys()].filter((p) => SOURCE_EXT.test(p));
  if (roots.length === 0) throw new WorkspaceError('INVALID_INPUT', 'nothing to review: no .js/.ts (or .mjs, .cjs, .jsx, .tsx, …) files given');
  const ts = await loadTypeScript();
  opts.signal?.throwIfAborted();
  const options = compilerOptions(ts, nodeTypesRoot());
  const host = createHost(ts, options, contents);
  const program = ts.createProgram({ rootNames: roots, options, host });
  const rel = (abs: string): string => abs.slice(VIRTUAL_ROOT.length + 1);

  const findings: ReviewFinding[] = [];
  for (const d of [...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics()]) {
    findings.push(toFinding(ts, d, '(program)'));
  }
  for (const abs of roots) {
    opts.signal?.throwIfAborted();
    const sf = program.getSourceFile(abs);
    if (!sf) continue;
    const file = rel(abs);
    const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)].map((d) => toFinding(ts, d, file));
    const own = [...diags, ...(sf.isDeclarationFile ? [] : plainRules(ts, sf, file, opts))].sort(
      (a, b) => a.line - b.line || a.column - b.column,
    );
    findings.push(...own);
    await opts.onFile?.({ file, findings: own, errors: count(own, 'error'), warnings: count(own, 'warning') });
  }
  const errors = count(findings, 'error');
  return {
    files: roots.map(rel),
    findings,
    errors,
    warnings: count(findings, 'warning'),
    infos: count(findings, 'info'),
    verdict: errors > 0 ? 'request-changes' : 'approve',
  };
}

function createHost(ts: typeof TS, options: TS.CompilerOptions, contents: Map<string, string>): TS.CompilerHost {
  const base = ts.createCompilerHost(options, true);
  const isVirtual = (f: string): boolean => f === VIRTUAL_ROOT || f.startsWith(`${VIRTUAL_ROOT}/`);
  return {
    ...base,
    getCurrentDirectory: () => VIRTUAL_ROOT,
    writeFile: () => undefined,
    fileExists: (f) => (isVirtual(f) ? contents.has(f) : base.fileExists(f)),
    readFile: (f) => (isVirtual(f) ? contents.get(f) : base.readFile(f)),
    directoryExists: (d) => (isVirtual(d) ? [...contents.keys()].some((k) => k.startsWith(`${d}/`)) || d === VIRTUAL_ROOT : (base.directoryExists?.(d) ?? true)),
    getDirectories: (d) => (isVirtual(d) ? [] : (base.getDirectories?.(d) ?? [])),
    realpath: (f) => (isVirtual(f) ? f : (base.realpath?.(f) ?? f)),
    getSourceFile: (fileName, langOrOptions, onError) => {
      if (isVirtual(fileName)) {
        const text = contents.get(fileName);
        return text === undefined ? undefined : ts.createSourceFile(fileName, text, langOrOptions, true);
      }
      const lang = typeof langOrOptions === 'object' ? langOrOptions.languageVersion : langOrOptions;
      const format = typeof langOrOptions === 'object' ? String(langOrOptions.impliedNodeFormat) : '';
      const key = `${fileName}|${lang}|${format}`;
      const cached = libCache.get(key);
      if (cached) return cached;
      const sf = base.getSourceFile(fileName, langOrOptions, onError);
      if (sf) libCache.set(key, sf);
      return sf;
    },
  };
}

/** Reviews one snippet as if it were a file named `filename`. */
export async function reviewSnippet(code: string, filename = 'snippet.ts', opts: ReviewOptions = {}): Promise<ReviewReport> {
  return reviewFiles([{ path: filename, content: code }], opts);
}

/**
 * Reviews the source files under `dir` (a directory or one file inside `workspaceRoot`, with the same
 * confinement as the test runner). `package.json` files are loaded too so imports resolve as they would.
 * Finding paths are relative to the reviewed directory.
 */
export async function reviewDirectory(workspaceRoot: string, dir: string, opts: ReviewOptions = {}): Promise<ReviewReport> {
  const target = await resolveInWorkspace(workspaceRoot, dir);
  if (!target.isDirectory) {
    if (!SOURCE_EXT.test(target.absolute)) throw new WorkspaceError('INVALID_INPUT', `"${dir}" is not a JavaScript or TypeScript file`);
    return reviewFiles([{ path: path.basename(target.absolute), content: await readFile(target.absolute, 'utf8') }], opts);
  }
  const names = await walkFiles(target.absolute, (rel) => SOURCE_EXT.test(rel) || rel.endsWith('package.json'), {
    maxDepth: 12,
    maxEntries: 20_000,
    maxFiles: MAX_FILES,
  });
  if (!names.some((n) => SOURCE_EXT.test(n))) {
    throw new WorkspaceError('INVALID_INPUT', `no JavaScript or TypeScript files under "${dir}"`);
  }
  const files: SourceInput[] = [];
  for (const name of names) {
    opts.signal?.throwIfAborted();
    if ((await stat(path.join(target.absolute, name))).size > MAX_FILE_BYTES) {
      throw new WorkspaceError('LIMIT_EXCEEDED', `file "${name}" is larger than ${MAX_FILE_BYTES} bytes`);
    }
    files.push({ path: name, content: await readFile(path.join(target.absolute, name), 'utf8') });
  }
  return reviewFiles(files, opts);
}

/** Loads the compiler and parses the shared declarations ahead of time, so the first real review is quick. */
export async function warmUpReviewer(): Promise<void> {
  await reviewSnippet('export {};\n');
}
