import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { AxeBuilder } from '@axe-core/playwright';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** Where each checked page's screenshot goes: the run's artefacts, kept out of git. */
export const SCREENSHOT_DIR = `${ROOT}test-results/console`;

/**
 * The chromium that infra/test.sh installed (Debian's package) and names in CHROMIUM_BIN. playwright-core
 * drives it over its debugging pipe; it never downloads a browser of its own.
 */
export function chromiumBin(): string {
  const bin = process.env.CHROMIUM_BIN;
  if (!bin) throw new Error('CHROMIUM_BIN is not set: run the tests with `npm test` (infra/test.sh sets it)');
  return bin;
}

/**
 * A headless chromium. launch() gives it a fresh temporary profile (user-data dir) that it deletes on
 * close, so nothing carries over from another run. The flags keep it off the network except for the pages
 * a test opens: no component updates, sync, QUIC or background requests.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumBin(),
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
}

/** A page and what went wrong on it so far: uncaught errors, CSP violations and console errors. */
export type WatchedPage = {
  page: Page;
  /** Every problem seen since the page opened, one line each. */
  problems: string[];
};

/**
 * "Failed to load resource: … 404": the browser's own note about an answer the page asked for and handles
 * (a link nobody can read). The page's own errors still count, and so does a 401: no console page gets one
 * just for being visited signed out (the session is asked of GET /api/auth/state, 200 either way). A test
 * that provokes one on purpose (a wrong password, a share link that wants a sign-in) takes it out of
 * `problems` itself, as the sign-up test does with its refused password's 400.
 */
const HANDLED_HTTP_ERROR = /^Failed to load resource: the server responded with a status of 404\b/;

/**
 * Opens a page in `context` that records every uncaught page error, every Content-Security-Policy
 * violation (reported by the document's `securitypolicyviolation` event, before any page script runs) and
 * every console error. checkPage fails on any of them.
 */
export async function watchPage(context: BrowserContext): Promise<WatchedPage> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`uncaught error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !HANDLED_HTTP_ERROR.test(message.text()))
      problems.push(`console error: ${message.text()} (${message.location().url})`);
  });
  await page.exposeFunction('__verdictCspViolation', (report: string) =>
    problems.push(`CSP violation: ${report}`),
  );
  // Page-side code as text: it runs in the browser, which the tests' type library does not describe.
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    window.__verdictCspViolation(
      event.violatedDirective + ' blocked ' + (event.blockedURI || 'inline') + ' at ' + event.sourceFile + ':' + event.lineNumber,
    );
  });`);
  return { page, problems };
}

/**
 * The checks every console page gets, once it shows what the test waited for: a full-page screenshot to
 * test-results/console/<mode>-<name>.png, axe's WCAG 2 A and AA rules with no serious or critical
 * violation, and no uncaught error, CSP violation or console error since the page opened.
 */
export async function checkPage(watched: WatchedPage, mode: string, name: string) {
  const { page, problems } = watched;
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${mode}-${name}.png`, fullPage: true });
  const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const serious = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect(serious, `axe on ${name} (${page.url()}):\n${JSON.stringify(serious, null, 2)}`).toEqual([]);
  expect(problems, `problems on ${name} (${page.url()})`).toEqual([]);
}

/**
 * The JavaScript a page downloaded, in bytes as sent (gzip-encoded: chromium asks for it), from each script
 * response's Content-Length. Collect from before the first navigation: `stop()` returns the total and each
 * script's size.
 */
export function countScriptBytes(page: Page) {
  const scripts: { url: string; bytes: number; encoding: string | null }[] = [];
  const pending: Promise<void>[] = [];
  const onResponse = (response: import('playwright-core').Response) => {
    const isScript =
      response.request().resourceType() === 'script' ||
      /javascript/.test(response.headers()['content-type'] ?? '');
    if (!isScript) return;
    pending.push(
      (async () => {
        const length = await response.headerValue('content-length');
        const encoding = await response.headerValue('content-encoding');
        scripts.push({ url: response.url(), bytes: Number(length ?? Number.NaN), encoding });
      })(),
    );
  };
  page.on('response', onResponse);
  return {
    stop: async () => {
      page.off('response', onResponse);
      await Promise.all(pending);
      return { total: scripts.reduce((sum, s) => sum + s.bytes, 0), scripts };
    },
  };
}
