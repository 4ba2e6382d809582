/**
 * The compiler host of a review: a closed, virtual file system. Reviewed files live under
 * {@link REVIEW_ROOT}; the compiler's own declarations (TypeScript's lib files, `@types/node` and what it
 * depends on) are mounted read-only under {@link LIB_ROOT}. Every other path does not exist, so an `import`,
 * a `/// <reference path>` or a `../` escape in reviewed code can neither read a file on disk nor learn
 * whether one exists: the answer is the same "cannot find" as for a path that was never there.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type * as TS from 'typescript';

/** Where reviewed files appear to the compiler; nothing is read from or written to this path on disk. */
export const REVIEW_ROOT = '/__kit_review__';
/** Where the compiler's declaration files appear to it. */
export const LIB_ROOT = '/__kit_lib__';
const TS_LIB = `${LIB_ROOT}/typescript/lib`;
const MODULES = `${LIB_ROOT}/node_modules`;
const TYPE_ROOT = `${MODULES}/@types`;

/** A virtual directory backed by a real one. */
interface Mount {
  at: string;
  real: string;
}

/** The mounts of one compiler: its lib directory, and `@types/node` with its dependencies when installed. */
export interface LibMounts {
  mounts: Mount[];
  hasNodeTypes: boolean;
}

/** Finds the declaration directories to mount; run once per worker. */
export function libMounts(ts: typeof TS): LibMounts {
  const mounts: Mount[] = [{ at: TS_LIB, real: path.dirname(ts.getDefaultLibFilePath({})) }];
  let hasNodeTypes = false;
  try {
    const pkgFile = createRequire(import.meta.url).resolve('@types/node/package.json');
    mounts.push({ at: `${TYPE_ROOT}/node`, real: path.dirname(pkgFile) });
    hasNodeTypes = true;
    // @types/node imports its own dependencies (undici-types); they resolve from next to it.
    const deps = Object.keys(
      (JSON.parse(readFileSync(pkgFile, 'utf8')) as { dependencies?: Record<string, string> })
        .dependencies ?? {},
    );
    const fromTypes = createRequire(pkgFile);
    for (const dep of deps) {
      try {
        mounts.push({
          at: `${MODULES}/${dep}`,
          real: path.dirname(fromTypes.resolve(`${dep}/package.json`)),
        });
      } catch {
        // A missing dependency shows up as diagnostics inside @types/node, which skipLibCheck hides.
      }
    }
  } catch {
    // Without @types/node, reviews use the DOM lib for console and timers.
  }
  return { mounts, hasNodeTypes };
}

/** Strict checking of JavaScript and TypeScript, no emit, declarations only from the mounts. */
export function reviewCompilerOptions(ts: typeof TS, libs: LibMounts): TS.CompilerOptions {
  return {
    strict: true,
    noEmit: true,
    allowJs: true,
    checkJs: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: libs.hasNodeTypes ? ['lib.es2022.d.ts'] : ['lib.es2022.d.ts', 'lib.dom.d.ts'],
    types: libs.hasNodeTypes ? ['node'] : [],
    typeRoots: [TYPE_ROOT],
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

function under(dir: string, p: string): boolean {
  return p === dir || p.startsWith(`${dir}/`);
}

/** Parsed declaration files, shared by every review of a worker: parsing them is most of a cold review's cost. */
const libCache = new Map<string, TS.SourceFile>();

/**
 * A compiler host over `contents` (absolute virtual paths under {@link REVIEW_ROOT}) and the lib mounts.
 * Module resolution from a reviewed file only ever lands on another reviewed file.
 */
export function reviewHost(
  ts: typeof TS,
  libs: LibMounts,
  contents: Map<string, string>,
): TS.CompilerHost {
  const clean = (p: string): string => path.posix.normalize(p.replace(/\\/g, '/'));
  const isReview = (p: string): boolean => under(REVIEW_ROOT, p);
  /** The real path behind a mounted virtual path; undefined for anything else. */
  const realOf = (p: string): string | undefined => {
    for (const m of libs.mounts) {
      if (!under(m.at, p)) continue;
      const rest = p.slice(m.at.length).replace(/^\//, '');
      return rest === '' ? m.real : path.join(m.real, ...rest.split('/'));
    }
    return undefined;
  };
  const mountAncestor = (d: string): boolean => libs.mounts.some((m) => m.at.startsWith(`${d}/`));
  const fileExists = (f: string): boolean => {
    const p = clean(f);
    if (isReview(p)) return contents.has(p);
    const real = realOf(p);
    return real !== undefined && ts.sys.fileExists(real);
  };
  const readFile = (f: string): string | undefined => {
    const p = clean(f);
    if (isReview(p)) return contents.get(p);
    const real = realOf(p);
    return real === undefined ? undefined : ts.sys.readFile(real);
  };
  const host: TS.CompilerHost = {
    getSourceFile: (fileName, langOrOptions) => {
      const p = clean(fileName);
      if (isReview(p)) {
        const text = contents.get(p);
        return text === undefined ? undefined : ts.createSourceFile(p, text, langOrOptions, true);
      }
      const lang =
        typeof langOrOptions === 'object' ? langOrOptions.languageVersion : langOrOptions;
      const format =
        typeof langOrOptions === 'object' ? String(langOrOptions.impliedNodeFormat) : '';
      const key = `${p}|${lang}|${format}`;
      const cached = libCache.get(key);
      if (cached) return cached;
      const text = readFile(p);
      if (text === undefined) return undefined;
      const sf = ts.createSourceFile(p, text, langOrOptions, false);
      libCache.set(key, sf);
      return sf;
    },
    getDefaultLibFileName: (o) => `${TS_LIB}/${ts.getDefaultLibFileName(o)}`,
    getDefaultLibLocation: () => TS_LIB,
    writeFile: () => undefined,
    getCurrentDirectory: () => REVIEW_ROOT,
    getCanonicalFileName: (f) => f,
    useCaseSensitiveFileNames: () => true,
    getNewLine: () => '\n',
    fileExists,
    readFile,
    realpath: (f) => clean(f),
    directoryExists: (d) => {
      const p = clean(d);
      if (isReview(p))
        return p === REVIEW_ROOT || [...contents.keys()].some((k) => k.startsWith(`${p}/`));
      if (mountAncestor(p)) return true;
      const real = realOf(p);
      return real !== undefined && existsSync(real);
    },
    getDirectories: (d) => {
      const p = clean(d);
      const names = libs.mounts
        .filter((m) => path.posix.dirname(m.at) === p)
        .map((m) => path.posix.basename(m.at));
      return [...new Set(names)];
    },
    resolveModuleNameLiterals: (literals, containingFile, redirected, opts, containingSourceFile) =>
      literals.map((lit) => {
        const mode = ts.getModeForUsageLocation(containingSourceFile, lit, opts);
        const r = ts.resolveModuleName(
          lit.text,
          containingFile,
          opts,
          host,
          undefined,
          redirected,
          mode,
        );
        const target = r.resolvedModule?.resolvedFileName;
        // Reviewed code may import reviewed code only, never the compiler's own mounts by path.
        if (target !== undefined && isReview(clean(containingFile)) && !isReview(clean(target)))
          return { resolvedModule: undefined };
        return r;
      }),
  };
  return host;
}
