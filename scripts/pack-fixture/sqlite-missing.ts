/** Without better-sqlite3 installed: the subpath imports, and building the store names the package to install. */
import { SqliteTaskStore } from 'a2a-kit/server/sqlite';

try {
  new SqliteTaskStore({ path: ':memory:' });
  console.error('sqlite-missing: the store was built although better-sqlite3 is not installed');
  process.exit(1);
} catch (err) {
  const message = err instanceof Error ? err.message : String(err);
  if (!message.includes('better-sqlite3')) {
    console.error(`sqlite-missing: the error does not name better-sqlite3: ${message}`);
    process.exit(1);
  }
  console.log(`sqlite-missing: ok (${message})`);
}
