// The OAuth round trip in a real browser (Chromium via playwright-core) with a cookie
// session: sign in through POST /session, open /flowhost-auth/spreadsheet/, the provider's
// consent page (another site: provider.test) sends the browser back when "Allow" is
// clicked, and the credential ends up connected. The return is a navigation started by the
// provider's page, cross-site, so the session cookie must be SameSite=Lax; with Strict the
// browser does not send it and the administrator is not signed in when the callback
// arrives. (A bare 302 chain started by the browser itself would not show it: Chromium
// judges a redirect by who started the navigation.) Host names map to 127.0.0.1 in Chromium only
// (loopback ports alone would be same-site). Without /usr/bin/chromium (or CHROMIUM_PATH)
// the suite fails saying how to install it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync } from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { startFakeSheets, type FakeSheets } from '../../support/fake-sheets.js';
import { freePort, startConsentPage } from '../../support/oauth-consent.js';
import { testStores } from '../../support/test-stores.js';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const HOST_NAME = 'flowhost.test';
const PROVIDER_NAME = 'provider.test';

for (const store of testStores('host: OAuth with a cookie session in a browser')) {
  const test = suite<{ t: TestHost; fake: FakeSheets; consent: Server; browser: Browser; site: string }>(
    `host: OAuth round trip with a cookie session in Chromium (${store.label})`,
  );
  test.before(async (ctx) => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `This browser test needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set CHROMIUM_PATH). It does not skip.`,
      );
    ctx.fake = await startFakeSheets();
    const base = ctx.fake.server.url;
    const providerPort = new URL(base).port;
    ctx.consent = await startConsentPage(`http://${PROVIDER_NAME}:${providerPort}/o/oauth2/v2/auth`);
    const consentPort = (ctx.consent.address() as AddressInfo).port;
    // The public URL names the port, so it is chosen before the host starts.
    const port = await freePort();
    ctx.site = `http://${HOST_NAME}:${port}`;
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
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
    ctx.browser = await chromium.launch({
      executablePath: CHROMIUM,
      headless: true,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        `--host-resolver-rules=MAP ${HOST_NAME} 127.0.0.1, MAP ${PROVIDER_NAME} 127.0.0.1`,
      ],
    });
  });
  test.after(async (ctx) => {
    await ctx.browser?.close();
    await ctx.t?.stop();
    await ctx.fake?.server.close();
    ctx.consent?.close();
  });

  test('the session cookie is SameSite=Lax and HttpOnly', async ({ t }) => {
    await t.host.users.create({ login: 'cookie-admin', role: 'administrator', password: 'correct horse battery staple 43' });
    const res = await t.request('POST', '/session', {
      as: 'anonymous',
      body: { login: 'cookie-admin', password: 'correct horse battery staple 43' },
    });
    assert.is(res.status, 200);
    const cookie = res.headers.get('set-cookie') ?? '';
    assert.match(cookie, /^flowhost_session=[^;]+; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/);
  });

  test('signed in with a session cookie, the provider sends the browser back and the account is connected', async ({
    t,
    fake,
    browser,
    site,
  }) => {
    const saved = await t.request('PUT', '/auth/spreadsheet-output', { body: { client_id: fake.app.id, client_secret: fake.app.secret } });
    assert.is(saved.status, 200, JSON.stringify(saved.body));
    await t.host.users.create({ login: 'ada-admin', role: 'administrator', password: 'correct horse battery staple 42' });

    const page = await (await browser.newContext()).newPage();
    await page.goto(`${site}/healthz`);
    const login = await page.evaluate(async () => {
      const res = await fetch('/api/automation/v1/session', {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ login: 'ada-admin', password: 'correct horse battery staple 42' }),
      });
      return res.status;
    });
    assert.is(login, 200);

    const consent = await page.goto(`${site}/flowhost-auth/spreadsheet/`);
    assert.is(new URL(page.url()).hostname, PROVIDER_NAME, `on the provider's consent page (${consent?.status()})`);
    const [done] = await Promise.all([page.waitForNavigation({ url: (u) => u.hostname === HOST_NAME }), page.click('#allow')]);
    const text = (await page.textContent('body')) ?? '';
    assert.is(done?.status(), 200, text);
    assert.match(text, /Connected Spreadsheet account ada@example\.org/, `${text} ${JSON.stringify(fake.refusals)}`);
    assert.equal(fake.refusals, []);

    const status = await t.request<{ data: { authenticated: boolean } }>('GET', '/auth/spreadsheet-output/status');
    assert.is(status.body.data.authenticated, true);
  });

  test.run();
}
