/**
 * The public surface, entry point by entry point: what each subpath of package.json `exports` offers at
 * run time (imported by package name, so through `exports` and `dist/`) and as types (read from its
 * `.d.ts` with the TypeScript compiler), compared to the committed test/exports.snapshot.json. An export
 * cannot appear or vanish without that file changing in the same commit.
 *
 * After an intended change: UPDATE_EXPORTS=1 node --import tsx --test test/exports.test.ts
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { declarationProgram } from '../scripts/api-report.mjs';

const root = path.resolve(import.meta.dirname, '..');
const snapshotFile = path.join(root, 'test', 'exports.snapshot.json');
const UPDATE = process.env.UPDATE_EXPORTS === '1';
const HOW_TO_UPDATE =
  'If the change is intended, run `npm run build && UPDATE_EXPORTS=1 node --import tsx --test test/exports.test.ts` ' +
  'and commit test/exports.snapshot.json with it.';

interface Surface {
  /** Names present on the imported module object. */
  runtime: string[];
  /** Names that exist only as types (interfaces, type aliases, `export type`). */
  types: string[];
}

type Entries = Record<string, { types: string; default: string }>;

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
  name: string;
  exports: Record<string, unknown>;
};
const entries = Object.fromEntries(
  Object.entries(pkg.exports).filter(([, target]) => typeof target === 'object'),
) as Entries;
const specifier = (subpath: string) =>
  subpath === '.' ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;

let declaredCache: Map<string, { values: string[]; types: string[] }> | undefined;

/** Exports of each entry's declaration file, split into values and type-only names (one compiler run per test file). */
function declaredSurfaces(): Map<string, { values: string[]; types: string[] }> {
  declaredCache ??= readDeclarations();
  return declaredCache;
}

function readDeclarations(): Map<string, { values: string[]; types: string[] }> {
  const { program, checker } = declarationProgram();
  const out = new Map<string, { values: string[]; types: string[] }>();
  for (const [subpath, e] of Object.entries(entries)) {
    const source = program.getSourceFile(path.join(root, e.types));
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    assert.ok(moduleSymbol, `${e.types} is not a module`);
    const values: string[] = [];
    const types: string[] = [];
    for (const symbol of checker.getExportsOfModule(moduleSymbol)) {
      const target =
        symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
      // `export type { X }` of a value is an alias the compiler marks type-only: it is not there at run time.
      const typeOnly =
        symbol.declarations?.some((d) => ts.isTypeOnlyImportOrExportDeclaration(d)) ?? false;
      (target.flags & ts.SymbolFlags.Value && !typeOnly ? values : types).push(symbol.name);
    }
    out.set(subpath, { values: values.sort(), types: types.sort() });
  }
  return out;
}

async function currentSurfaces(): Promise<Record<string, Surface>> {
  const declared = declaredSurfaces();
  const out: Record<string, Surface> = {};
  for (const subpath of Object.keys(entries)) {
    const mod = (await import(specifier(subpath))) as Record<string, unknown>;
    out[specifier(subpath)] = {
      runtime: Object.keys(mod).sort(),
      types: declared.get(subpath)!.types,
    };
  }
  return out;
}

function difference(label: string, was: string[] = [], now: string[] = []): string[] {
  const added = now.filter((n) => !was.includes(n));
  const removed = was.filter((n) => !now.includes(n));
  return [
    ...(added.length ? [`  ${label} added: ${added.join(', ')}`] : []),
    ...(removed.length ? [`  ${label} removed: ${removed.join(', ')}`] : []),
  ];
}

test('every entry point exports exactly the names in test/exports.snapshot.json', async (t) => {
  const now = await currentSurfaces();
  if (UPDATE) {
    writeFileSync(snapshotFile, `${JSON.stringify(now, null, 2)}\n`);
    t.diagnostic(`wrote ${path.relative(root, snapshotFile)}`);
    return;
  }
  assert.ok(existsSync(snapshotFile), `test/exports.snapshot.json is missing. ${HOW_TO_UPDATE}`);
  const was = JSON.parse(readFileSync(snapshotFile, 'utf8')) as Record<string, Surface>;
  const problems: string[] = [];
  for (const name of new Set([...Object.keys(was), ...Object.keys(now)])) {
    if (!now[name]) problems.push(`${name}: the entry point is gone from package.json exports`);
    else if (!was[name]) problems.push(`${name}: a new entry point`);
    const lines = [
      ...difference('runtime', was[name]?.runtime, now[name]?.runtime),
      ...difference('type', was[name]?.types, now[name]?.types),
    ];
    if (lines.length && was[name] && now[name]) problems.push(`${name}:`, ...lines);
  }
  assert.equal(
    problems.length,
    0,
    `The public surface changed:\n${problems.join('\n')}\n${HOW_TO_UPDATE}`,
  );
});

test('what each entry point declares as a value is what it exports at run time', async () => {
  const declared = declaredSurfaces();
  for (const subpath of Object.keys(entries)) {
    const mod = (await import(specifier(subpath))) as Record<string, unknown>;
    assert.deepEqual(
      Object.keys(mod).sort(),
      declared.get(subpath)!.values,
      `${specifier(subpath)}: .d.ts values vs. the module object`,
    );
  }
});
