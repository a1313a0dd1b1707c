// Plugin settings in the console (issue 54), in Chromium: the Settings page draws a form from
// a plugin's settingsSchema; a change to a plugin with onSettingsChanged is applied at once,
// its writeOnly secret is typed into a password field, saved, and afterwards shown only as
// "Saved (hidden)" (never in a field or any answer the page receives); a change to a plugin
// without the hook says it waits for a restart, and the page's banner says so after a reload.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, services } from '../../../sdk/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';

const SECRET = 'console-secret-5d0c2a9e71f4';
const heard: Array<Record<string, unknown>> = [];

const live = definePlugin({
  id: 'console-live',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'applies changes live',
  settingsSchema: {
    type: 'object',
    properties: {
      greeting: { type: 'string', default: 'hello' },
      limit: { type: 'integer', minimum: 1, maximum: 10, default: 3 },
      api_key: { type: 'string', writeOnly: true },
    },
  },
  deps: { config: services.config },
  setup: () => undefined,
  onSettingsChanged: (next) => void heard.push({ ...next }),
});

const later = definePlugin({
  id: 'console-later',
  version: '1.0.0',
  flowhost: '^1.0.0',
  settingsSchema: { type: 'object', properties: { mode: { type: 'string', enum: ['fast', 'careful'], default: 'fast' } } },
  setup: () => undefined,
});

type Ctx = { t: TestHost; browser: Browser };
const test = suite<Ctx>('console: plugin settings in Chromium');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [live, later] });
  ctx.browser = await launchChromium('console plugin settings');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('a form from the schema: a live change applied, the secret saved write-only; a restart-bound change says so', async ({
  t,
  browser,
}) => {
  const { page, problems } = await watchedPage(browser, t.url);
  const answers: string[] = [];
  page.on('response', (res) => {
    if (res.url().includes('/plugins/'))
      void res.text().then(
        (text) => answers.push(text),
        () => undefined,
      );
  });
  await signInAsAdmin(page, t, '#/settings');
  await page.getByRole('heading', { name: 'Plugins', exact: true }).waitFor();
  await page.getByLabel('Plugin', { exact: true }).selectOption('console-live');
  const form = page.getByRole('form', { name: 'Settings of console-live' });
  assert.is(await form.getByLabel('greeting').inputValue(), 'hello');
  assert.is(await form.getByLabel('limit').getAttribute('type'), 'number');
  assert.is(await form.getByLabel('api_key', { exact: true }).getAttribute('type'), 'password');
  await form.getByLabel('greeting').fill('hi there');
  await form.getByLabel('api_key', { exact: true }).fill(SECRET);
  await form.getByRole('button', { name: 'Save plugin settings' }).click();
  await form.getByRole('status').filter({ hasText: 'Settings saved and applied.' }).waitFor();
  assert.equal(heard.at(-1), { greeting: 'hi there', limit: 3, api_key: SECRET });
  assert.is(await form.getByLabel('api_key', { exact: true }).inputValue(), '', 'the field is emptied');
  await form.getByText('Saved (hidden). Leave blank to keep it.').waitFor();

  await page.getByLabel('Plugin', { exact: true }).selectOption('console-later');
  const laterForm = page.getByRole('form', { name: 'Settings of console-later' });
  await laterForm.getByLabel('mode').selectOption('careful');
  await laterForm.getByRole('button', { name: 'Save plugin settings' }).click();
  await laterForm.getByRole('status').filter({ hasText: 'take effect when the host restarts' }).waitFor();

  await page.reload();
  await page.getByRole('status').filter({ hasText: 'Saved plugin settings wait for a restart: console-later.' }).waitFor();
  await page.getByLabel('Plugin', { exact: true }).selectOption('console-live');
  const again = page.getByRole('form', { name: 'Settings of console-live' });
  assert.is(await again.getByLabel('greeting').inputValue(), 'hi there');
  await page.screenshot({ path: 'test-output/console/plugin-settings.png', fullPage: true });
  // Removing the secret: the box beside it, then Save.
  await again.getByLabel('Remove the saved api_key').check();
  await again.getByRole('button', { name: 'Save plugin settings' }).click();
  await again.getByText('Not set.').waitFor();
  assert.is(heard.at(-1)?.api_key, undefined);
  const stored = await t.request<{ data: { values: Record<string, unknown> } }>('GET', '/plugins/console-later/settings');
  assert.equal(stored.body.data.values, { mode: 'careful' });
  assert.ok(answers.length >= 4, `answers seen: ${answers.length}`);
  for (const text of answers) assert.not.ok(text.includes(SECRET), 'the secret reached the page');
  assert.equal(problems, []);
  await page.close();
});

test.run();
