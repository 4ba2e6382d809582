/**
 * The fuzz target in a child process, so that a crash shows as the process dying (with its stack
 * on stderr) instead of taking the test runner down with it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const ENTRY = fileURLToPath(new URL('./fuzz-child.ts', import.meta.url));
const START_BOUND_MS = 30_000;

/** A running child target. `exited` resolves when the process ends, whatever the reason. */
export class ChildTarget {
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  #alive = true;

  private constructor(
    readonly proc: ChildProcess,
    readonly origin: string,
    readonly hook: string,
  ) {
    proc.stderr!.on('data', (d: Buffer) => {
      // Keep the tail: that is where a fatal error's stack is.
      this.#stderr = (this.#stderr + d.toString('utf8')).slice(-20_000);
    });
    this.exited = new Promise((resolve) =>
      proc.once('exit', (code, signal) => {
        this.#alive = false;
        resolve({ code, signal });
      }),
    );
  }

  get alive(): boolean {
    return this.#alive;
  }

  /** What the process wrote to stderr (the last 20 KB). */
  get stderr(): string {
    return this.#stderr;
  }

  /** Spawn `node --import tsx test/fuzz-child.ts` and wait (bounded) until it listens. */
  static async start(): Promise<ChildTarget> {
    // Without the test runner's context variable: the child is a plain server, not a test file.
    const { NODE_TEST_CONTEXT: _ignored, ...env } = process.env;
    const proc = spawn(process.execPath, ['--import', 'tsx', ENTRY], {
      stdio: ['ignore', 'pipe', 'pipe'],
      env,
    });
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    const line = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the fuzz target did not start in ${START_BOUND_MS} ms: ${stderr}`)),
        START_BOUND_MS,
      );
      let out = '';
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString('utf8');
        const m = /READY (\S+) (\S+)\n/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[0]);
        }
      });
      proc.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the fuzz target exited (${code}) before it listened: ${stderr}`));
      });
    });
    const [, origin, hook] = line.trim().split(' ');
    const t = new ChildTarget(proc, origin!, hook!);
    t.#stderr = stderr;
    return t;
  }

  /** Stop the process (if it still runs) and wait for it. */
  async stop(): Promise<void> {
    if (this.#alive) this.proc.kill('SIGKILL');
    await this.exited;
  }
}
