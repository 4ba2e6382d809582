/**
 * Preloaded (NODE_OPTIONS=--import) in the test runs on Node 22 and 24: better-sqlite3's addon is
 * loaded from A2A_NATIVE_DIR/abi-<this node's ABI>/ (built by .ci/native-sqlite.mjs) instead of the
 * repository's node_modules, whose build belongs to the machine's node. Only that one file is
 * redirected, and only when a build for this very ABI exists, so a child process running another node
 * (npm, the machine's node) loads what it always did.
 */
import fs from 'node:fs';
import path from 'node:path';

const dir = process.env.A2A_NATIVE_DIR;
const addon = dir && path.join(dir, `abi-${process.versions.modules}`, 'better_sqlite3.node');
if (addon && fs.existsSync(addon)) {
  const dlopen = process.dlopen;
  process.dlopen = function (module, filename, ...rest) {
    const target = path.basename(filename) === 'better_sqlite3.node' ? addon : filename;
    return dlopen.call(this, module, target, ...rest);
  };
}
