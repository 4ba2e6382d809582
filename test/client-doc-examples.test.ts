/**
 * The `@example` blocks in the client's doc comments are what an editor shows a newcomer: each one
 * is compiled here, as its own module that imports the package by name (`a2a-kit`,
 * `a2a-kit/client`, `a2a-kit/client/push-receiver`, mapped onto the sources), so an example that no
 * longer type-checks fails the build instead of misleading a reader.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

const root = path.resolve(import.meta.dirname, '..');
const clientDir = path.join(root, 'src', 'client');

interface Example {
  /** Where the example is written, for the failure message. */
  origin: string;
  /** The virtual file it is compiled as. */
  file: string;
  code: string;
}

/** The ```ts blocks inside the doc comments of one source file, with the comment's ` * ` removed. */
function examplesOf(source: string, name: string): Example[] {
  const out: Example[] = [];
  for (const comment of source.matchAll(/\/\*\*[\s\S]*?\*\//g)) {
    const lines = comment[0].split('\n').map((l) => l.replace(/^\s*\*\s?/, ''));
    const text = lines.join('\n');
    const startLine = source.slice(0, comment.index).split('\n').length;
    for (const block of text.matchAll(/```ts\n([\s\S]*?)```/g)) {
      const line = startLine + text.slice(0, block.index).split('\n').length;
      out.push({
        origin: `src/client/${name}:${line}`,
        file: path.join(root, 'test', `.doc-example-${name.replace(/\.ts$/, '')}-${line}.ts`),
        code: block[1] ?? '',
      });
    }
  }
  return out;
}

test('every @example in the client doc comments type-checks against the package names', () => {
  const examples = readdirSync(clientDir)
    .filter((f) => f.endsWith('.ts'))
    .flatMap((f) => examplesOf(readFileSync(path.join(clientDir, f), 'utf8'), f));
  // The main entry points each carry one; fewer means the extraction broke.
  assert.ok(examples.length >= 10, `found only ${examples.length} examples`);

  const base = JSON.parse(readFileSync(path.join(root, 'tsconfig.base.json'), 'utf8')) as {
    compilerOptions: object;
  };
  const { options, errors } = ts.convertCompilerOptionsFromJson(base.compilerOptions, root);
  assert.deepEqual(errors, []);
  Object.assign(options, {
    noEmit: true,
    baseUrl: root,
    paths: {
      'a2a-kit': ['src/index.ts'],
      'a2a-kit/client': ['src/client/index.ts'],
      'a2a-kit/client/push-receiver': ['src/client/push-receiver.ts'],
      'a2a-kit/client/otel': ['src/client/otel.ts'],
    },
  } satisfies ts.CompilerOptions);

  const virtual = new Map(examples.map((e) => [e.file, e.code]));
  const host = ts.createCompilerHost(options);
  const { fileExists, readFile, getSourceFile } = host;
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
  for (const e of examples) {
    const sf = program.getSourceFile(e.file);
    assert.ok(sf, `${e.origin} was not compiled`);
    for (const d of [
      ...program.getSyntacticDiagnostics(sf),
      ...program.getSemanticDiagnostics(sf),
    ]) {
      const at = d.start !== undefined ? sf.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      problems.push(
        `${e.origin} (example line ${at}): ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`,
      );
    }
  }
  assert.deepEqual(problems, []);
});
