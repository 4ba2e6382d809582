/**
 * docs/migrating-from-a2a-js-sdk.md shows @a2a-js/sdk 1.x code next to ours: every ```ts block in it
 * is compiled here as a module of its own, the SDK from node_modules and `a2a-kit` subpaths mapped
 * onto the sources, so a guide that no longer matches either API fails instead of misleading a reader.
 * A block that exports a const is the module `./<its-name-in-kebab-case>.js` to the blocks after it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const guide = 'docs/migrating-from-a2a-js-sdk.md';

interface Block {
  line: number;
  file: string;
  code: string;
}

function blocksOf(text: string): Block[] {
  const out: Block[] = [];
  for (const m of text.matchAll(/^```ts\n([\s\S]*?)^```/gm)) {
    const code = m[1] ?? '';
    const line = text.slice(0, m.index).split('\n').length;
    const exported = /^export const (\w+)/m.exec(code)?.[1];
    const name = exported
      ? exported.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      : `block-${line}`;
    out.push({ line, file: path.join(root, 'test', '.migration-doc', `${name}.ts`), code });
  }
  return out;
}

/** `./dist/server/index.d.ts` → `src/server/index.ts`, per package.json export. */
function sourcePaths(): Record<string, string[]> {
  const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    name: string;
    exports: Record<string, string | { types?: string }>;
  };
  const paths: Record<string, string[]> = {};
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || !target.types) continue;
    paths[pkg.name + subpath.slice(1)] = [
      target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts'),
    ];
  }
  return paths;
}

test(`every ts block of ${guide} type-checks against @a2a-js/sdk and a2a-kit`, () => {
  const blocks = blocksOf(readFileSync(path.join(root, guide), 'utf8'));
  assert.ok(blocks.length >= 7, `found only ${blocks.length} blocks`);
  const sdkBlocks = blocks.filter((b) => b.code.includes("from '@a2a-js/sdk"));
  assert.ok(sdkBlocks.length >= 3, 'the SDK side is compiled too');

  const base = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: object;
  };
  const { options, errors } = ts.convertCompilerOptionsFromJson(base.compilerOptions, root);
  assert.deepEqual(errors, []);
  Object.assign(options, {
    noEmit: true,
    baseUrl: root,
    paths: sourcePaths(),
  } satisfies ts.CompilerOptions);

  const virtual = new Map(blocks.map((b) => [b.file, b.code]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile, directoryExists } = host;
  const dir = path.join(root, 'test', '.migration-doc');
  host.directoryExists = (d) => d === dir || (directoryExists?.call(host, d) ?? true);
  host.fileExists = (f) => virtual.has(f) || fileExists.call(host, f);
  host.readFile = (f) => virtual.get(f) ?? readFile.call(host, f);
  host.getSourceFile = (f, lang, ...rest) => {
    const code = virtual.get(f);
    return code !== undefined
      ? ts.createSourceFile(f, code, lang)
      : getSourceFile.call(host, f, lang, ...rest);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });

  const problems: string[] = [];
  for (const b of blocks) {
    const sf = program.getSourceFile(b.file);
    assert.ok(sf, `${guide}:${b.line} was not compiled`);
    for (const d of [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ]) {
      const at = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      problems.push(
        `${guide}:${b.line + at}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    }
  }
  assert.deepEqual(problems, []);
});
