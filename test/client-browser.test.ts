/**
 * a2a-kit/client in a web page: bundled by esbuild for the browser (which refuses any Node built-in),
 * loaded by Debian's Chromium from the same origin as an agent whose card is signed, and run there —
 * the signature checked with the browser's Web Crypto, then send, stream (SSE over fetch's
 * ReadableStream) and get over JSON-RPC and HTTP+JSON. The minified size of the bundle is reported.
 */
import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { browserMissing, launch, type Browser } from './inspector-browser.js';
import { expectedLines } from './runtimes/client-checks.js';
import { signedEchoAgent, type SignedAgent } from './runtimes/runtimes-fixture.js';

const skip = browserMissing();

/** Bundles `source` (resolved from test/) for browsers; esbuild fails on anything Node-only. */
async function bundle(source: string, minify: boolean): Promise<string> {
  const esbuild = await import('esbuild');
  const out = await esbuild.build({
    stdin: { contents: source, resolveDir: import.meta.dirname, loader: 'ts' },
    bundle: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'es2022',
    minify,
    logLevel: 'silent',
  });
  return out.outputFiles[0]!.text;
}

describe('a2a-kit/client in Chromium', { skip }, () => {
  let agent: SignedAgent;
  let browser: Browser;
  let script: string;

  before(async () => {
    script = await bundle(`export { exerciseAgent } from './runtimes/client-checks.ts';`, false);
    const page = `<!doctype html><script type="module">
      import { exerciseAgent } from '/checks.js';
      window.exerciseAgent = exerciseAgent;
      document.title = 'ready';
    </script>`;
    agent = await signedEchoAgent((req, res) => {
      const type =
        req.url === '/' ? 'text/html' : req.url === '/checks.js' ? 'text/javascript' : '';
      if (!type) return false;
      res.writeHead(200, { 'content-type': type }).end(req.url === '/' ? page : script);
      return true;
    });
    browser = await launch();
  });

  after(async () => {
    await browser?.close();
    await agent?.close();
  });

  it('bundles without Node built-ins, and reports its size', async (t) => {
    const min = await bundle(`export * from 'a2a-kit/client';`, true);
    assert.doesNotMatch(script, /from ['"]node:/);
    const { gzipSync } = await import('node:zlib');
    t.diagnostic(
      `a2a-kit/client for browsers, esbuild --minify: ${(min.length / 1024).toFixed(0)} kB, ` +
        `${(gzipSync(min).length / 1024).toFixed(0)} kB gzipped`,
    );
  });

  it('verifies the signed card with Web Crypto, then sends, streams and gets on both bindings', async () => {
    const { page } = browser;
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    // A module script runs before the load event that goto waits for.
    await page.goto(agent.origin, { timeout: 60_000 });
    assert.equal(
      await page.title(),
      'ready',
      `the page's module did not run: ${errors.join('; ')}`,
    );
    const lines = await page.evaluate(
      ([origin, jwk]) => {
        const w = window as unknown as {
          exerciseAgent(o: string, opts: object): Promise<string[]>;
        };
        return w.exerciseAgent(origin, { trust: { keys: [{ kid: jwk.kid, key: jwk }] } });
      },
      [agent.origin, agent.jwk] as const,
    );
    assert.deepEqual(errors, []);
    assert.deepEqual(lines, expectedLines(true));
  });
});
