// The console when its session ends, in Debian's Chromium: idle past the timeout (the host's
// fake clock moved), "Save settings" meets a 401 and the console asks to sign in again over
// the page; the values typed in the form are still there, and once signed in the save goes
// through with them. "Sign out everywhere" on the account page ends every session of the
// user. On both stores (sessions live in the store).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signIn, watchedPage } from '../../support/console-page.js';
import { testStores } from '../../support/test-stores.js';

type Body = { data: { settings: Record<string, unknown>; nonce: string } };
const PASSWORD = 'correct horse battery';

for (const store of testStores('console: session expiry')) {
  const test = suite<{ t: TestHost; browser: Browser }>(`console: a session that ends under an open page (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), sessionIdleSeconds: 30 * 60 } });
    assert.is((await ctx.t.request('PUT', '/session/password', { body: { password: PASSWORD } })).status, 200);
    ctx.browser = await launchChromium('console session');
  });
  test.after(async (ctx) => {
    await ctx.browser?.close();
    await ctx.t?.stop();
  });

  test('idle past the timeout: Save asks to sign in again over the page, the typed values survive and are saved', async ({
    t,
    browser,
  }) => {
    const { page, problems } = await watchedPage(browser, t.url);
    await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/settings');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    await page.getByLabel('Problem-flow threshold').fill('9');
    await page.getByLabel('Keep log entries (days)').fill('60');

    t.clock.advance(31 * 60_000);
    await page.getByRole('button', { name: 'Save settings' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sign in again' });
    await dialog.waitFor();
    assert.match(await dialog.innerText(), /Your session has ended\. Sign in as admin/);
    await page.screenshot({ path: `test-output/console/sign-in-again-${store.label}.png` });
    assert.is(await page.getByLabel('Problem-flow threshold').inputValue(), '9', 'the form under the dialog keeps what was typed');
    assert.is(await page.getByLabel('Keep log entries (days)').inputValue(), '60');
    const before = await t.request<Body>('GET', '/settings');
    assert.is.not(before.body.data.settings.problem_flow_threshold, 9, 'nothing was saved by the refused request');

    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await dialog.getByRole('alert').filter({ hasText: 'rest_invalid_credentials' }).waitFor();
    await dialog.getByLabel('Password').fill(PASSWORD);
    await dialog.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();
    assert.is(await dialog.isVisible(), false, 'the dialog closed');

    const stored = await t.request<Body>('GET', '/settings');
    assert.is(stored.body.data.settings.problem_flow_threshold, 9, 'the save went through once signed in again');
    assert.is(stored.body.data.settings.log_retention_days, 60);
    assert.is(await page.getByLabel('Problem-flow threshold').inputValue(), '9');
    await page.screenshot({ path: `test-output/console/session-saved-after-sign-in-${store.label}.png`, fullPage: true });
    const api = `${t.url}/api/automation/v1`;
    assert.equal(
      problems,
      [`401 PATCH ${api}/settings`, `401 POST ${api}/session`],
      'only the refused save (the session had ended) and the wrong password',
    );
    await page.close();
  });

  test('"Sign out everywhere" on the account page ends this session and the others', async ({ t, browser }) => {
    const { page, problems } = await watchedPage(browser, t.url);
    await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/account');
    const elsewhere = await t.request<Body>('POST', '/session', { as: 'anonymous', body: { login: 'admin', password: PASSWORD } });
    const elsewhereHeaders = {
      Cookie: (elsewhere.headers.get('set-cookie') ?? '').split(';')[0]!,
      'X-WP-Nonce': elsewhere.body.data.nonce,
    };
    assert.is((await t.request('GET', '/users/me', { as: 'anonymous', headers: elsewhereHeaders })).status, 200);

    await page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await page.getByRole('button', { name: 'Yes, sign out everywhere' }).click();
    await page.getByRole('heading', { name: 'Sign in to Flowhost' }).waitFor();
    assert.is((await t.request('GET', '/users/me', { as: 'anonymous', headers: elsewhereHeaders })).status, 401, 'the other session ended');
    await page.reload();
    await page.getByRole('heading', { name: 'Sign in to Flowhost' }).waitFor();
    assert.equal(problems, [], 'no error on the way');
    await page.close();
  });

  test("an administrator ends another user's sessions from the user's page", async ({ t, browser }) => {
    const pat = await t.createUser('pat', 'editor');
    await t.host.users.setPassword(pat.userId, 'pats password here');
    const login = await t.request<Body>('POST', '/session', { as: 'anonymous', body: { login: 'pat', password: 'pats password here' } });
    const pats = { Cookie: (login.headers.get('set-cookie') ?? '').split(';')[0]!, 'X-WP-Nonce': login.body.data.nonce };
    const { page, problems } = await watchedPage(browser, t.url);
    await signIn(page, t.url, { login: 'admin', password: PASSWORD }, `#/users/${pat.userId}`);
    await page.getByRole('heading', { name: 'pat' }).waitFor();
    await page.getByRole('button', { name: 'End sessions' }).click();
    await page.getByRole('button', { name: 'Yes, end sessions' }).click();
    await page.getByRole('status').filter({ hasText: 'Ended 1 session.' }).waitFor();
    assert.is((await t.request('GET', '/users/me', { as: 'anonymous', headers: pats })).status, 401, "pat's session ended");
    assert.is((await t.request('GET', '/users/me', { as: pat })).status, 200, 'her application password still works');
    assert.equal(problems, []);
    await page.close();
  });

  test.run();
}
