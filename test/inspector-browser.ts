/**
 * Debian's Chromium driven by playwright-core, for the inspector's browser tests: never a downloaded
 * browser, a fresh profile each time. Without /usr/bin/chromium the tests skip and say why — except
 * under CI=true, where a missing browser is a failure (`mustHave`; .ci/run installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { mustHave } from './service-fixture.js';

/** Where Debian's package puts Chromium. */
export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * Why the browser tests cannot run here, or undefined when they can. Under CI=true the missing
 * browser is also a failing test, so a broken setup never passes as skipped. Call it at the top level.
 */
export function browserMissing(): string | undefined {
  if (existsSync(CHROMIUM)) return undefined;
  return mustHave(
    `${CHROMIUM} is not installed (apt-get install -y chromium) for the browser tests`,
  );
}

/** A browser with a fresh profile directory, removed on close. */
export interface Browser {
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

/** Launches Chromium (headless, no network beyond what the page asks for) with one page open. */
export async function launch(viewport = { width: 1280, height: 900 }): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  const profile = mkdtempSync(path.join(tmpdir(), 'a2a-inspector-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    args: ARGS,
    viewport,
    timeout: 60_000,
  });
  context.setDefaultTimeout(15_000);
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    async close() {
      await context.close().catch(() => undefined);
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
