/**
 * Every declaration a user can import from a published entry point carries a doc comment, so an
 * editor shows something on hover. Checked with the TypeScript compiler over the entry points' sources.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import ts from 'typescript';
import pkg from '../package.json' with { type: 'json' };

const root = path.resolve(import.meta.dirname, '..');

/** `./dist/server/index.js` → `src/server/index.ts`. */
function sourceOf(target: string): string {
  return path.join(root, target.replace(/^\.\/dist\//, 'src/').replace(/\.js$/, '.ts'));
}

const entries = Object.entries(pkg.exports as Record<string, string | { default: string }>)
  .filter(([, t]) => typeof t === 'object')
  .map(([name, t]) => [name, sourceOf((t as { default: string }).default)] as const);

function undocumented(): Record<string, string[]> {
  const program = ts.createProgram(
    entries.map(([, f]) => f),
    {
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      strict: true,
      noEmit: true,
      skipLibCheck: true,
    },
  );
  const checker = program.getTypeChecker();
  const out: Record<string, string[]> = {};
  for (const [name, file] of entries) {
    const sf = program.getSourceFile(file);
    assert.ok(sf, `${file} is part of the program`);
    const moduleSymbol = checker.getSymbolAtLocation(sf);
    if (!moduleSymbol) continue;
    const missing: string[] = [];
    for (const exported of checker.getExportsOfModule(moduleSymbol)) {
      const symbol =
        exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
      const docs = symbol.getDocumentationComment(checker);
      if (ts.displayPartsToString(docs).trim() === '') missing.push(exported.name);
    }
    if (missing.length) out[name] = missing.sort();
  }
  return out;
}

describe('public API documentation', () => {
  it('every export of every entry point has a doc comment an editor shows', () => {
    assert.ok(entries.length >= 5, 'the package exports its entry points');
    assert.deepEqual(undocumented(), {});
  });
});
