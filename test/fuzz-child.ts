/**
 * Entry point of the fuzz target in a child process (started by fuzz-proc.ts): prints
 * `READY <origin> <hook>` once listening, then serves until killed. Nothing here catches errors:
 * an uncaught one must end the process, which is exactly what the fuzz suite watches for.
 */
import { startFuzzTarget } from './fuzz-server.js';

const target = await startFuzzTarget();
process.stdout.write(`READY ${target.origin} ${target.hook}\n`);
