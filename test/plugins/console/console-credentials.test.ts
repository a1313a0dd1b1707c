// The console's Credentials view in Debian's Chromium: an app password saved through the
// form is shown only masked and connects at once; an OAuth handler's application keys are
// saved, Connect opens the provider in a popup (a consent page on another site, Chromium
// mapping its host name to loopback, as in test/host/auth/oauth-cookie-browser.test.ts),
// "Allow" sends the popup back, its report turns the view connected; Disconnect, in place.
// A page error, console error or failed request of the console fails the test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signIn, watchedPage } from '../../support/console-page.js';
import { startFakeSheets, type FakeSheets } from '../../support/fake-sheets.js';
import { freePort, startConsentPage } from '../../support/oauth-consent.js';

const HOST_NAME = 'flowhost.test';
const PROVIDER_NAME = 'provider.test';
const USER = { login: 'cred-admin', password: 'correct horse battery staple 44' };
/** 19 characters: the API shows its last 4 (mask.ts), which proves what was stored. */
const APP_PASSWORD = 'abcd-efgh-ijkl-mnop';

type Ctx = { t: TestHost; fake: FakeSheets; consent: Server; browser: Browser; site: string };
type Status = { data: { authenticated: boolean; account_details?: { username: string }; config_status: Record<string, string> } };

const test = suite<Ctx>('console: credentials, app passwords and OAuth connections in Chromium');
test.before(async (ctx) => {
  ctx.fake = await startFakeSheets();
  const base = ctx.fake.server.url;
  ctx.consent = await startConsentPage(`http://${PROVIDER_NAME}:${new URL(base).port}/o/oauth2/v2/auth`);
  const consentPort = (ctx.consent.address() as AddressInfo).port;
  // The public URL (the OAuth callback) names the port, so it is chosen before the host starts.
  const port = await freePort();
  ctx.site = `http://${HOST_NAME}:${port}`;
  ctx.t = await createTestHost({
    plugins: [],
    config: {
      port,
      publicUrl: ctx.site,
      // The browser goes to the provider by its own name; the host's calls go to 127.0.0.1.
      pluginSettings: {
        spreadsheet: {
          api_url: base,
          auth_url: `http://${PROVIDER_NAME}:${consentPort}/authorize`,
          token_url: `${base}/token`,
          userinfo_url: `${base}/v1/userinfo`,
        },
      },
    },
  });
  await ctx.t.host.users.create({ login: USER.login, role: 'administrator', password: USER.password });
  ctx.browser = await launchChromium('console credentials', [
    `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1, MAP ${PROVIDER_NAME} 127.0.0.1`,
  ]);
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
  await ctx.fake?.server.close();
  ctx.consent?.close();
});

async function openCredentials(ctx: Ctx): Promise<{ page: Page; problems: string[] }> {
  const watched = await watchedPage(ctx.browser, ctx.site);
  await signIn(watched.page, ctx.site, USER, '#/credentials');
  await watched.page.getByRole('heading', { name: 'Credentials', level: 1 }).waitFor();
  return watched;
}

const card = (page: Page, label: string): Locator => page.getByRole('region', { name: label, exact: true });
const status = (ctx: Ctx, slug: string) => ctx.t.request<Status>('GET', `/auth/${slug}/status`);

test('an app password: saved through the form, shown only masked, connected at once, and stored as typed', async (ctx) => {
  const { page, problems } = await openCredentials(ctx);
  assert.is(await page.getByRole('link', { name: 'Credentials' }).getAttribute('aria-current'), 'page');
  const federated = card(page, 'Federated post');
  await federated.getByText('not connected').waitFor();

  const handle = federated.getByLabel('Handle');
  const secret = federated.getByLabel('Password');
  assert.is(await handle.getAttribute('type'), 'text', 'a handle is not a secret: it stays readable');
  assert.is(await secret.getAttribute('type'), 'password');
  assert.is(await secret.getAttribute('autocomplete'), 'off');
  assert.is(await handle.getAttribute('autocomplete'), 'off');
  await handle.fill('ada.example.social');
  await secret.fill(APP_PASSWORD);
  await federated.getByRole('button', { name: 'Save credentials' }).click();
  await federated.getByRole('status').filter({ hasText: 'Configuration saved successfully' }).waitFor();

  // Connected as the handle; the password only as the API masks it, and not kept anywhere in the page.
  await federated.getByText('connected', { exact: true }).waitFor();
  assert.match(await federated.locator('.connection').innerText(), /as ada\.example\.social/);
  const saved = federated.getByRole('definition');
  assert.equal(await saved.allInnerTexts(), ['••••••••cial', '••••••••mnop']);
  assert.is(await handle.inputValue(), '');
  assert.is(await secret.inputValue(), '');
  assert.not.ok((await page.content()).includes(APP_PASSWORD), 'the typed password is nowhere in the page');

  // Stored: the API says connected, and the same values again change nothing.
  const stored = await status(ctx, 'federated');
  assert.is(stored.body.data.authenticated, true);
  assert.equal(stored.body.data.config_status, { handle: '••••••••cial', password: '••••••••mnop' });
  const again = await ctx.t.request<{ message: string }>('PUT', '/auth/federated', {
    body: { handle: 'ada.example.social', password: APP_PASSWORD },
  });
  assert.is(again.body.message, 'Configuration is already up to date.');
  assert.equal(problems, []);
  await page.close();
});

test('OAuth: application keys through the form, Connect opens the provider in a popup, Allow, and the view turns connected', async (ctx) => {
  const { page, problems } = await openCredentials(ctx);
  const output = card(page, 'Spreadsheet row');
  const connect = output.getByRole('button', { name: 'Connect' });
  assert.ok(await connect.isDisabled(), 'Connect waits for the application keys');
  assert.is(await output.getByLabel('Client ID').getAttribute('type'), 'text');
  assert.is(await output.getByLabel('Client secret').getAttribute('type'), 'password');
  await output.getByLabel('Client ID').fill(ctx.fake.app.id);
  await output.getByLabel('Client secret').fill(ctx.fake.app.secret);
  await output.getByRole('button', { name: 'Save credentials' }).click();
  await output.getByRole('status').filter({ hasText: 'Configuration saved successfully' }).waitFor();
  // The note comes with the API's answer; the saved values with the status the card reloads
  // after it (on a loaded machine, a moment later), as a user sees them appear.
  await output.getByRole('definition').filter({ hasText: '••••••••mple' }).waitFor();
  assert.equal(await output.getByRole('definition').allInnerTexts(), ['••••••••mple', '••••••••4321']);
  await output.getByText('not connected').waitFor();

  const popupProblems: string[] = [];
  const [popup] = await Promise.all([page.waitForEvent('popup'), connect.click()]);
  popup.on('pageerror', (error) => popupProblems.push(`popup page error: ${error.message}`));
  await popup.locator('#allow').waitFor();
  assert.is(new URL(popup.url()).hostname, PROVIDER_NAME, "the provider's consent page, on its own site");
  await popup.click('#allow');

  // The popup's report (postMessage), not only its closing: the provider's words are shown.
  await output.getByRole('status').filter({ hasText: 'Connected Spreadsheet account ada@example.org.' }).waitFor({ timeout: 10_000 });
  await output.getByText('connected', { exact: true }).waitFor();
  assert.match(await output.locator('.connection').innerText(), /as ada@example\.org/);
  assert.ok(await output.getByRole('button', { name: 'Reconnect' }).isVisible());
  // The fetch handler shares the provider's account: its card re-read its status too.
  await card(page, 'Spreadsheet rows').getByText('connected', { exact: true }).waitFor();
  await popup.waitForEvent('close', { timeout: 5_000 });

  const connected = await status(ctx, 'spreadsheet-output');
  assert.is(connected.body.data.authenticated, true);
  assert.is(connected.body.data.account_details?.username, 'ada@example.org');
  assert.equal(ctx.fake.refusals, []);
  assert.equal(popupProblems, []);
  assert.equal(problems, []);
  await page.close();
});

test('Disconnect asks in place; the OAuth account goes and its keys stay; the app password is forgotten', async (ctx) => {
  const { page, problems } = await openCredentials(ctx);
  const output = card(page, 'Spreadsheet row');
  await output.getByText('connected', { exact: true }).waitFor();
  await output.getByRole('button', { name: 'Disconnect' }).click();
  await output.getByRole('button', { name: 'Cancel' }).click();
  assert.is((await status(ctx, 'spreadsheet-output')).body.data.authenticated, true, 'Cancel changes nothing');
  await output.getByRole('button', { name: 'Disconnect' }).click();
  await output.getByRole('button', { name: 'Yes, disconnect' }).click();
  await output.getByRole('status').filter({ hasText: "Disconnected account ada@example.org from 'spreadsheet-output'." }).waitFor();
  await output.getByText('not connected').waitFor();
  assert.ok(await output.getByRole('button', { name: 'Connect' }).isEnabled(), 'the keys stay: connecting again needs only the popup');
  const oauth = await status(ctx, 'spreadsheet-output');
  assert.is(oauth.body.data.authenticated, false);
  assert.equal(oauth.body.data.config_status, { client_id: '••••••••mple', client_secret: '••••••••4321' });

  const federated = card(page, 'Federated post');
  await federated.getByRole('button', { name: 'Disconnect' }).click();
  await federated.getByRole('button', { name: 'Yes, disconnect' }).click();
  await federated.getByText('not connected').waitFor();
  assert.equal(await federated.getByRole('definition').allInnerTexts(), ['not set', 'not set']);
  const app = await status(ctx, 'federated');
  assert.is(app.body.data.authenticated, false);
  assert.equal(app.body.data.config_status, { handle: '', password: '' });
  assert.equal(problems, []);
  await page.close();
});

test.run();
