/**
 * Preloaded (NODE_OPTIONS=--import) in CI's Node 22 and 24 runs: `better-sqlite3` and its package.json
 * resolve to this folder's better-sqlite3 13 instead of the repository's 12 (the devDependency, for
 * Node 20). 12 aborts a Node 24 process when the collector frees its objects; 13 is what users on
 * Node 22 and 24 install. Child processes inherit NODE_OPTIONS and so load 13 too;
 * a child on an older Node (no module.registerHooks, or Node 20, where 13 cannot run) is left alone.
 */
import module from 'node:module';
import { pathToFileURL } from 'node:url';

// Resolved before the hook exists: on Node 24 require.resolve itself goes through the hook.
const here = module.createRequire(import.meta.url);
const urls = new Map(
  ['better-sqlite3', 'better-sqlite3/package.json'].map((s) => [
    s,
    pathToFileURL(here.resolve(s)).href,
  ]),
);
if (module.registerHooks && Number.parseInt(process.versions.node, 10) >= 22)
  module.registerHooks({
    resolve(specifier, context, next) {
      const url = urls.get(specifier);
      return url ? { url, shortCircuit: true } : next(specifier, context);
    },
  });
