import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { TestServer } from '../harness.ts';

/** Debian's Chromium: the tests never download a browser. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const screenshotDir = join(import.meta.dirname, '..', '..', 'test-output', 'screenshots');

const laptop = { width: 1280, height: 800 };
const phone = { width: 390, height: 844 };

export interface TestBrowser {
  browser: Browser;
  /** A fresh browser profile's worth of cookies and storage. */
  context(): Promise<BrowserContext>;
  close(): Promise<void>;
}

export async function launchBrowser(): Promise<TestBrowser> {
  // Playwright gives each launch a fresh profile in a temporary directory of its own, and removes it on close.
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  mkdirSync(screenshotDir, { recursive: true });
  return {
    browser,
    context: () => browser.newContext({ viewport: laptop, permissions: ['clipboard-read', 'clipboard-write'] }),
    close: () => browser.close(),
  };
}

/** The page as a laptop and as a phone show it, into test-output/screenshots/NAME-laptop.png and NAME-phone.png. */
export async function screenshots(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(screenshotDir, `${name}-laptop.png`), fullPage: true });
  await page.setViewportSize(phone);
  await page.screenshot({ path: join(screenshotDir, `${name}-phone.png`), fullPage: true });
  // Nothing may scroll sideways on a phone.
  const overflow = await page.evaluate<number>('document.documentElement.scrollWidth - document.documentElement.clientWidth');
  await page.setViewportSize(laptop);
  if (overflow > 0) throw new Error(`${name}: the page is ${overflow} px wider than a phone's screen`);
}

export async function signInWith(page: Page, server: TestServer, email: string, password: string): Promise<void> {
  await page.goto(`${server.url}/dashboard`);
  await page.waitForURL(/\/dashboard\/login/);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/dashboard\/test\/keys$/);
}
