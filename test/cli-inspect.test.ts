/** `a2a inspect` starts the inspector, prints where it is, serves the page, and stops on Ctrl-C. */
import { it } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import path from 'node:path';

const A2A = path.resolve(import.meta.dirname, '..', 'dist', 'cli', 'a2a.js');

it('a2a inspect <url> prints the link that opens the agent, serves the page, and exits 0 on SIGINT', async () => {
  const child = spawn(process.execPath, [A2A, 'inspect', 'http://localhost:41242', '--port', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const killer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  try {
    let out = '';
    child.stdout.setEncoding('utf8');
    const link = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (d: string) => {
        out += d;
        const m = /http:\/\/127\.0\.0\.1:\d+\/\S*/.exec(out);
        if (m) resolve(m[0]);
      });
      child.once('exit', (code) => reject(new Error(`a2a inspect exited ${code}: ${out}`)));
    });
    assert.match(link, /agent=http%3A%2F%2Flocalhost%3A41242/);
    const page = await fetch(link, { signal: AbortSignal.timeout(10_000) });
    assert.equal(page.status, 200);
    assert.match(await page.text(), /<html/i);
    child.kill('SIGINT');
    const [code] = await once(child, 'exit');
    assert.equal(code, 0);
  } finally {
    clearTimeout(killer);
    child.kill('SIGKILL');
  }
});
