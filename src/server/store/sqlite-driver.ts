/**
 * Loading better-sqlite3, the SQLite store's optional peer dependency: a clear error naming the package
 * to install when it is missing, or when its major cannot run on this Node (checked before loading: the
 * wrong major does not throw, it takes the whole process down).
 */
import { createRequire } from 'node:module';

// Nothing here names better-sqlite3's types: this module's declarations ship to users who may not have it.
const require = createRequire(import.meta.url);

/**
 * Why a `SqliteTaskStore` cannot be built in this process — better-sqlite3 is not installed, or
 * its version would crash this Node (13 before Node 22, 12 on Node 24) — with the command that fixes
 * it; undefined when it can. Lets an application choose another store before it tries.
 */
export function sqliteUnavailable(): string | undefined {
  let version: string;
  try {
    version = (require('better-sqlite3/package.json') as { version: string }).version;
  } catch (err) {
    if ((err as { code?: string }).code !== 'MODULE_NOT_FOUND') throw err;
    return `SqliteTaskStore needs the package better-sqlite3: ${install(process.versions.node)}`;
  }
  const problem = driverMismatch(process.versions.node, version);
  return problem && `SqliteTaskStore: ${problem}`;
}

/**
 * Why a better-sqlite3 version cannot run on a Node version, or undefined when it can. 13 is built on
 * Node-API 10, which Node 20 lacks (it crashes there); 12 aborts a Node 24 process when the collector
 * frees one of its objects (Node 24's ObjectWrap).
 */
export function driverMismatch(node: string, driver: string): string | undefined {
  const [n, d] = [major(node), major(driver)];
  if (n < 22 && d >= 13)
    return `better-sqlite3 ${driver} needs Node 22 or later (this is Node ${node}): ${install(node)}`;
  if (n >= 24 && d < 13)
    return `better-sqlite3 ${driver} aborts Node ${n} processes; version 13 or later is needed: ${install(node)}`;
  return undefined;
}

/** The install line for the better-sqlite3 major that runs on a Node version: 12 before 22, 13 from it on. */
function install(node: string): string {
  return `npm install better-sqlite3@${major(node) >= 22 ? 13 : 12}`;
}

function major(version: string): number {
  return Number.parseInt(version.replace(/^v/, ''), 10);
}
