// The console in Chromium as the console suites drive it: a page that records every
// problem a user (or the developer tools) would see, and the sign-in form filled in.
import type { Browser, Page } from 'playwright-core';

/**
 * A page on the console at `site` (the origin it is opened on). Problems: page errors,
 * console errors, failed requests (but reads a navigation cancelled) and answers of 400 or
 * more, except the one expected 401: the console asking whether a session exists before anyone signed in.
 */
export async function watchedPage(
  browser: Browser,
  site: string,
  viewport = { width: 1366, height: 900 },
): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport });
  const problems: string[] = [];
  const sessionProbe = `${site}/api/automation/v1/session`;
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error' && !message.text().includes('401 (Unauthorized)')) problems.push(`console: ${message.text()}`);
  });
  page.on('requestfailed', (request) => {
    // A read still in flight when the test reloads or leaves the page is cancelled by the
    // browser (net::ERR_ABORTED), as it is for a user who clicks on: not a failure of the
    // console. A refused, reset or empty answer has another error text and still counts.
    const error = request.failure()?.errorText;
    if (error === 'net::ERR_ABORTED' && request.method() === 'GET') return;
    problems.push(`request failed: ${request.url()} ${error}`);
  });
  page.on('response', (response) => {
    const expected = response.status() === 401 && response.url() === sessionProbe && response.request().method() === 'GET';
    if (response.status() >= 400 && !expected) problems.push(`${response.status()} ${response.request().method()} ${response.url()}`);
  });
  return { page, problems };
}

/** Opens the console at `hash` (e.g. '#/credentials') and signs in as a user who has a password. */
export async function signIn(page: Page, site: string, user: { login: string; password: string }, hash = ''): Promise<void> {
  await page.goto(`${site}/admin/${hash}`);
  await page.getByLabel('Login').fill(user.login);
  await page.getByLabel('Password').fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}

/** The password the administrator chooses at the first sign-in (signInAsAdmin). */
export const CONSOLE_PASSWORD = 'correct horse battery';

// Hosts whose administrator has chosen CONSOLE_PASSWORD (the first sign-in does it).
const chosen = new WeakSet<object>();

/**
 * Signs the host's administrator in at /admin/ (optionally at a hash route): the first time
 * in a host with the application password the first start issued, choosing
 * CONSOLE_PASSWORD; later with that password.
 */
export async function signInAsAdmin(page: Page, t: { url: string; admin: { password: string } }, hash = ''): Promise<void> {
  await page.goto(`${t.url}/admin/${hash}`);
  await page.getByLabel('Password').fill(chosen.has(t) ? CONSOLE_PASSWORD : t.admin.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  if (!chosen.has(t)) {
    await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
    await page.getByLabel('New password', { exact: true }).fill(CONSOLE_PASSWORD);
    await page.getByLabel('New password again').fill(CONSOLE_PASSWORD);
    await page.getByRole('button', { name: 'Save password' }).click();
    chosen.add(t);
  }
  await page.getByRole('button', { name: 'Sign out', exact: true }).waitFor();
}
