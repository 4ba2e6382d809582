#!/usr/bin/env node
/**
 * `npm run docs`: the API reference, built by TypeDoc from the doc comments of every entry point in
 * package.json "exports" (read here, so a new subpath is documented without editing this file).
 * Warnings are errors: an exported declaration without a doc comment, or a broken {@link}, fails the
 * build. Output goes to docs/api/ (git-ignored)
 * or to `--out DIR`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Application, LogLevel } from 'typedoc';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out = outAt >= 0 ? path.resolve(args[outAt + 1] ?? '') : path.join(root, 'docs/api');

/** Source file → the import specifier it is published as (`src/server/index.ts` → `a2a-kit/server`). */
function entryPoints(pkg) {
  const entries = new Map();
  for (const [subpath, target] of Object.entries(pkg.exports)) {
    if (typeof target !== 'object' || !target.types) continue;
    const source = target.types.replace(/^\.\/dist\//, 'src/').replace(/\.d\.ts$/, '.ts');
    entries.set(path.join(root, source), pkg.name + subpath.slice(1));
  }
  return entries;
}

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const entries = entryPoints(pkg);
const app = await Application.bootstrapWithPlugins({
  name: `${pkg.name} ${pkg.version}`,
  entryPoints: [...entries.keys()],
  entryPointStrategy: 'resolve',
  tsconfig: path.join(root, 'tsconfig.docs.json'),
  out,
  readme: 'none',
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  treatWarningsAsErrors: true,
  // Every exported declaration needs a comment; their members are checked by review, not here (the
  // protocol model's fields carry their names from the proto). Internal types that public ones reach
  // are listed apart in api/*.api.md, where a leak shows in review, so TypeDoc does not flag them.
  validation: { notExported: false, invalidLink: true, rewrittenLink: true, notDocumented: true },
  requiredToBeDocumented: [
    'Enum',
    'Variable',
    'Function',
    'Class',
    'Interface',
    'TypeAlias',
    'Namespace',
  ],
  logLevel: LogLevel.Warn,
  githubPages: false,
  // The repository has no public URL yet (and a checkout may have no git remote): source links point
  // into the checkout itself, from the pages' folders (docs/api/<kind>/) up to the repository's root.
  disableGit: true,
  sourceLinkTemplate: '../../../{path}#L{line}',
});
const project = await app.convert();
if (!project || app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('docs: TypeDoc reported problems (above); nothing written');
  process.exit(1);
}
// Modules are named as users import them, not by their file's path.
for (const mod of project.children ?? []) {
  const file = mod.sources?.[0]?.fullFileName;
  const specifier = file === undefined ? undefined : entries.get(path.resolve(file));
  if (specifier) mod.name = specifier;
}
app.validate(project);
if (app.logger.hasErrors() || app.logger.hasWarnings()) {
  console.error('docs: the API has undocumented or unexported declarations (above)');
  process.exit(1);
}
await app.generateDocs(project, out);
if (app.logger.hasErrors()) process.exit(1);
console.log(
  `docs: API reference of ${entries.size} entry points in ${path.relative(process.cwd(), out) || '.'}`,
);
