/**
 * The layering rules of docs/architecture.md, checked on the sources: no import cycle
 * (type-only imports included), `protocol` imports nothing of ours, `server` and `client` reach each
 * other only through `protocol`, and the command line, the inspector, the kit and the examples import the library by
 * package name; no entry point but `a2a-kit/server/grpc-js` imports `@grpc/grpc-js`, and none imports protobufjs;
 * the client reaches no Node built-in.
 */
import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (e.name !== 'node_modules' && e.name !== 'dist') out.push(...sources(p));
    } else if (/\.ts$/.test(e.name) && !e.name.endsWith('.d.ts')) out.push(p);
  }
  return out;
}

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const out: string[] = [];
  // No `;` before `from`: an `export type … ;` followed by a doc comment's example is not an import.
  for (const m of text.matchAll(/^\s*(?:import|export)\b[^'";]*?\bfrom\s*['"]([^'"]+)['"]/gm))
    out.push(m[1]!);
  for (const m of text.matchAll(/^\s*import\s*['"]([^'"]+)['"]/gm)) out.push(m[1]!);
  for (const m of text.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g)) out.push(m[1]!);
  return out;
}

function resolveRelative(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  return path.resolve(path.dirname(from), spec).replace(/\.js$/, '.ts');
}

const rel = (p: string) => path.relative(root, p);

describe('architecture', () => {
  const lib = sources(path.join(root, 'src'));

  it('the library has no import cycle, type-only imports included', () => {
    const graph = new Map(
      lib.map((f) => [
        f,
        specifiers(f)
          .map((s) => resolveRelative(f, s))
          .filter((t): t is string => !!t),
      ]),
    );
    const state = new Map<string, 'open' | 'done'>();
    const cycles: string[] = [];
    const visit = (f: string, trail: string[]): void => {
      if (state.get(f) === 'done') return;
      if (state.get(f) === 'open') {
        cycles.push([...trail.slice(trail.indexOf(f)), f].map(rel).join(' → '));
        return;
      }
      state.set(f, 'open');
      for (const t of graph.get(f) ?? []) visit(t, [...trail, f]);
      state.set(f, 'done');
    };
    for (const f of graph.keys()) visit(f, []);
    assert.deepEqual(cycles, []);
  });

  it('protocol imports nothing of ours; server and client meet only in protocol', () => {
    const wrong: string[] = [];
    for (const f of lib) {
      const area = rel(f).split(path.sep)[1];
      for (const s of specifiers(f)) {
        const t = resolveRelative(f, s);
        if (!t) continue;
        const to = rel(t).split(path.sep)[1];
        const ok =
          area === to ||
          to === 'protocol' ||
          (area === 'index.ts' && to === 'protocol') ||
          ((area === 'server' || area === 'client') && to === 'index.ts');
        if (!ok || (area === 'protocol' && to !== 'protocol')) wrong.push(`${rel(f)} imports ${s}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('no binding imports another binding’s folder, and the layers below the bindings import none', () => {
    // The bindings translate one wire each; what several share (the request auth sees, the caller,
    // error mapping, limits, gRPC stream basics) lives in kernel/, below all of them.
    const bindings = ['bindings', 'grpc', 'grpc-js'];
    // What the bindings stand on: none of these may reach up into a binding (or into what mounts them).
    const below = ['kernel', 'auth', 'dispatch', 'tasks', 'store', 'events', 'push', 'agent'];
    const above = [...bindings, 'compat', 'mount', 'adapters'];
    const server = path.join(root, 'src', 'server');
    const folderOf = (f: string) => path.relative(server, f).split(path.sep)[0]!;
    const wrong: string[] = [];
    const files = lib.filter((f) => f.startsWith(server + path.sep));
    assert.ok(files.length > 50, 'found the server');
    for (const f of files) {
      const from = folderOf(f);
      for (const s of specifiers(f)) {
        const t = resolveRelative(f, s);
        if (!t || !t.startsWith(server + path.sep)) continue;
        const to = folderOf(t);
        if (to === from) continue;
        const crossBinding = bindings.includes(from) && bindings.includes(to);
        const upward = below.includes(from) && above.includes(to);
        if (crossBinding || upward) wrong.push(`${rel(f)} imports ${s}`);
      }
    }
    assert.deepEqual(wrong, []);
  });

  it('only a2a-kit/server/grpc-js reaches @grpc/grpc-js, and nothing reaches protobufjs, type-only imports included', () => {
    // gRPC users install neither: no module may load them, and no .d.ts may name them.
    const reached = (entry: string): string[] => {
      const seen = new Set<string>();
      const found: string[] = [];
      const todo = [path.join(root, 'src', entry)];
      for (let f = todo.pop(); f !== undefined && seen.size < 2000; f = todo.pop()) {
        if (seen.has(f)) continue;
        seen.add(f);
        for (const s of specifiers(f)) {
          if (/^(@grpc\/grpc-js|protobufjs)(\/|$)/.test(s)) found.push(`${rel(f)} imports ${s}`);
          const t = resolveRelative(f, s);
          if (t) todo.push(t);
        }
      }
      assert.ok(
        seen.size > 5 && seen.size < 2000,
        `walked the module graph of ${entry} (${seen.size} modules)`,
      );
      return found;
    };
    for (const entry of [
      ['server', 'grpc', 'index.ts'],
      ['server', 'index.ts'],
      ['client', 'grpc', 'index.ts'],
      ['client', 'index.ts'],
      ['cli', 'a2a.ts'],
    ]) {
      assert.deepEqual(reached(path.join(...entry)), [], entry.join('/'));
    }
    // The check itself sees grpc-js where it is: the grpc-js entry point reaches it.
    assert.ok(reached(path.join('server', 'grpc-js', 'index.ts')).length > 0);
  });

  it('the client (a2a-kit/client) reaches no Node built-in: it bundles for browsers, Bun and Deno', () => {
    // Type-only imports count too: a browser project must type-check the client without @types/node.
    const code = (f: string) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line));
    const packages = new Set<string>();
    const wrong: string[] = [];
    const seen = new Set<string>();
    const todo = [path.join(root, 'src', 'client', 'index.ts')];
    for (let f = todo.pop(); f !== undefined && seen.size < 2000; f = todo.pop()) {
      if (seen.has(f)) continue;
      seen.add(f);
      for (const s of specifiers(f)) {
        const t = resolveRelative(f, s);
        if (t) todo.push(t);
        else if (s.startsWith('node:') || !s.includes('/') || s.startsWith('@'))
          packages.add(s.startsWith('node:') ? s : s.split('/')[0]!);
        if (s.startsWith('node:')) wrong.push(`${rel(f)} imports ${s}`);
      }
      for (const line of code(f))
        if (/\b(Buffer|process|require)\s*[.(]/.test(line)) wrong.push(`${rel(f)}: ${line.trim()}`);
    }
    assert.ok(seen.size > 20, `walked the client's module graph (${seen.size} modules)`);
    assert.deepEqual(wrong, []);
    // Its packages run on any runtime with Web APIs; a new one has to be checked and added here.
    assert.deepEqual([...packages].sort(), ['canonicalize', 'eventsource-parser', 'jose', 'zod']);
  });

  it('the a2a command line imports the library by package name, never by path', () => {
    const cli = path.join(root, 'src', 'cli');
    const files = sources(cli);
    assert.ok(files.length > 10, 'found the command line');
    const wrong = files.flatMap((f) =>
      specifiers(f)
        .filter((s) =>
          s.startsWith('.')
            ? !resolveRelative(f, s)!.startsWith(cli + path.sep)
            : s.startsWith('a2a-kit/dist') || s.startsWith('a2a-kit/src'),
        )
        .map((s) => `${rel(f)} imports ${s}`),
    );
    assert.deepEqual(wrong, []);
    const byName = new Set(
      files.flatMap((f) => specifiers(f).filter((s) => s.startsWith('a2a-kit'))),
    );
    assert.ok(
      byName.has('a2a-kit/client') && byName.has('a2a-kit'),
      'it is built on the public entry points',
    );
  });

  it('the inspector imports the library by package name, and its page only page modules', () => {
    const dir = path.join(root, 'src', 'inspector');
    const page = path.join(dir, 'page');
    const files = sources(dir);
    assert.ok(files.length > 10, 'found the inspector');
    const wrong = files.flatMap((f) =>
      specifiers(f)
        .filter((s) =>
          s.startsWith('.')
            ? !resolveRelative(f, s)!.startsWith(dir + path.sep)
            : s.startsWith('a2a-kit/dist') || s.startsWith('a2a-kit/src'),
        )
        .map((s) => `${rel(f)} imports ${s}`),
    );
    assert.deepEqual(wrong, []);
    const byName = new Set(
      files.flatMap((f) => specifiers(f).filter((s) => s.startsWith('a2a-kit'))),
    );
    assert.ok(
      byName.has('a2a-kit/client') && byName.has('a2a-kit'),
      'it is built on the public entry points',
    );
    // The page runs in the browser as served: at run time it may load only its own modules (types are erased).
    const loaded = (f: string) => {
      const text = readFileSync(f, 'utf8');
      return [...text.matchAll(/^\s*import\s+(?!type\b)[^'"]*?from\s*['"]([^'"]+)['"]/gm)].map(
        (m) => m[1]!,
      );
    };
    const escapes = sources(page).flatMap((f) =>
      loaded(f)
        .filter((s) => !s.startsWith('./'))
        .map((s) => `${rel(f)} loads ${s}`),
    );
    assert.deepEqual(escapes, []);
  });

  it('the kit and the examples import the library by package name, never by path', () => {
    const users = [
      ...sources(path.join(root, 'kit', 'src')),
      ...sources(path.join(root, 'examples')),
    ];
    assert.ok(users.length > 20, 'found the kit and the examples');
    const wrong = users.flatMap((f) =>
      specifiers(f)
        .filter(
          (s) =>
            s.startsWith('.') &&
            !resolveRelative(f, s)!.startsWith(
              path.dirname(
                f.includes(`${path.sep}kit${path.sep}`)
                  ? path.join(root, 'kit', 'src')
                  : path.join(root, 'examples'),
              ),
            ),
        )
        .map((s) => `${rel(f)} imports ${s}`),
    );
    assert.deepEqual(wrong, []);
  });

  it('the task run owns its state: no public mutable field, and nothing outside it writes to a run', () => {
    const tasks = path.join(root, 'src', 'server', 'tasks');
    const runFiles = readdirSync(tasks)
      .filter((f) => /^run(-[a-z]+)?\.ts$/.test(f))
      .map((f) => path.join(tasks, f));
    assert.ok(runFiles.length >= 4, 'found the run and its parts');
    // A class member that is neither private (#), readonly, an accessor nor a method is writable from outside.
    const field = /^ {2}(?!readonly |static |get |set |#|private readonly )(\w+)\s*[?!]?\s*[:=]/gm;
    const open = runFiles.flatMap((f) =>
      [...readFileSync(f, 'utf8').matchAll(field)].map((m) => `${rel(f)}: ${m[1]}`),
    );
    assert.deepEqual(open, [], 'public mutable fields of the run');
    // Outside those files, no assignment to a member of a run, nor a change to its task's lists.
    const write =
      /\b(?:run|#run)\.[\w.!?]+\s*(?:=(?!=)|\+=|-=|\?\?=|\+\+|--)|\brun\.task!?\.(?:history|artifacts)!?\.(?:push|splice)\(/;
    const writes = sources(path.join(root, 'src', 'server'))
      .filter((f) => !runFiles.includes(f))
      .flatMap((f) =>
        readFileSync(f, 'utf8')
          .split('\n')
          .filter((line) => write.test(line))
          .map((line) => `${rel(f)}: ${line.trim()}`),
      );
    assert.deepEqual(writes, [], 'writes to a run from outside its module');
  });
});
