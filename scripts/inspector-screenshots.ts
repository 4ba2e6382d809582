/**
 * The README's two inspector screenshots, taken from a real run: `npm start -- --ui` on free ports,
 * then Debian's Chromium opens the kit view once the run is over and the deployer's card view.
 *
 *   npm run build:kit && npx tsx scripts/inspector-screenshots.ts [outDir]   (default docs/)
 */
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { launch } from '../test/inspector-browser.js';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.resolve(process.argv[2] ?? path.join(root, 'docs'));
mkdirSync(outDir, { recursive: true });
const work = mkdtempSync(path.join(tmpdir(), 'a2a-inspector-shots-'));

const demo = spawn(process.execPath, ['kit/dist/cli/demo.js', '--ui', '--ports', '0,0,0'], {
  cwd: root,
  env: { ...process.env, KIT_UI_PORT: '0', KIT_WORK_DIR: work, NO_COLOR: '1' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
let output = '';
const finished = new Promise<void>((resolve, reject) => {
  const timer = setTimeout(
    () => reject(new Error(`the demo did not finish in 180 s:\n${output}`)),
    180_000,
  );
  demo.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString('utf8');
    if (output.includes('the inspector stays open')) {
      clearTimeout(timer);
      resolve();
    }
  });
  demo.once('exit', (code) =>
    reject(new Error(`the demo exited ${code} before the run ended:\n${output}`)),
  );
});

try {
  await finished;
  const kitUrl = /inspector: (\S+)/.exec(output)?.[1];
  const deployer = /^ {2}deployer +(http:\/\/127\.0\.0\.1:\d+\/\?agent=\S+)$/m.exec(output)?.[1];
  if (!kitUrl || !deployer) throw new Error(`no inspector links in the demo's output:\n${output}`);
  const browser = await launch({ width: 1200, height: 900 });
  try {
    const { page } = browser;
    await page.goto(kitUrl);
    await page.locator('.kit-outcome.ok').waitFor();
    await page.screenshot({ path: path.join(outDir, 'inspector-kit.png'), fullPage: true });
    await page.goto(deployer);
    await page.locator('#card-name', { hasText: 'deployer' }).waitFor();
    // Down to the card's JSON, which the README does not need to show.
    const json = await page.locator('#card-the-card-as-json').boundingBox();
    const height = json ? Math.round(json.y - 20) : 1400;
    await page.screenshot({
      path: path.join(outDir, 'inspector-card.png'),
      fullPage: true,
      clip: { x: 0, y: 0, width: 1200, height },
    });
  } finally {
    await browser.close();
  }
  process.stdout.write(
    `wrote ${path.join(outDir, 'inspector-kit.png')} and ${path.join(outDir, 'inspector-card.png')}\n`,
  );
} finally {
  demo.kill('SIGINT');
  await new Promise((r) => (demo.exitCode !== null ? r(undefined) : demo.once('exit', r)));
  rmSync(work, { recursive: true, force: true });
}
