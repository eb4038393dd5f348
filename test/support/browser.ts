import fs from "node:fs";
import path from "node:path";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";
import { ROOT } from "./paths";

/**
 * Debian's chromium driven by playwright-core (test/support/ensure-chromium.sh installs it).
 * Every page records what the browser refused under the Content-Security-Policy, and script errors,
 * so that a test can assert that none happened.
 */

export const SCREENSHOTS = path.join(ROOT, "test-artifacts/dashboard");

export function chromiumPath(): string {
  const candidates = [process.env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"].filter(Boolean) as string[];
  const found = candidates.find((p) => fs.existsSync(p));
  if (!found) throw new Error("chromium not found: run test/support/ensure-chromium.sh (or set CHROMIUM_PATH)");
  return found;
}

export async function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath(), args: ["--no-sandbox", "--disable-dev-shm-usage"] });
}

export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** CSP violations and script errors seen so far. */
  problems: string[];
}

export async function watchedPage(browser: Browser, baseUrl: string): Promise<WatchedPage> {
  const context = await browser.newContext({ baseURL: baseUrl, viewport: { width: 1280, height: 860 } });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseUrl });
  // Runs in every document before the page's own scripts; as an init script it is not subject to the page's CSP.
  await context.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) => {
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI}`);
    });
  });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (msg) => {
    const text = msg.text();
    if (/Content Security Policy|CSP violation/i.test(text)) problems.push(text);
  });
  page.on("pageerror", (err) => problems.push(`page error: ${err.message}`));
  return { page, context, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}
