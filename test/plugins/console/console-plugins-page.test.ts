// The console's Plugins page (issue 54), in Chromium, on a stock host with a data directory:
// an administrator uploads a plugin tarball (as `npm pack` makes it), sees it installed and
// the banner saying a restart is needed; after the restart the plugin runs (listed under
// "Running on this host"); disabling asks for a restart again; removing with its data names
// what goes (its collection with its document count) before anything is removed, and the
// store then holds nothing of it. A refused package (another Flowhost) is said in the API's words.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import type { Host } from '../../../host/host.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { callHost, startStockHost } from '../../support/install-host.js';
import { helloTarballs } from '../../support/plugin-tarballs.js';

type Ctx = { browser: Browser; dataDir: string; host: Host | null };
const tarballs = helloTarballs();
const test = suite<Ctx>('console: the Plugins page in Chromium');
test.before(async (ctx) => {
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'flowhost-console-plugins-'));
  ctx.host = await startStockHost({ dataDir: ctx.dataDir });
  ctx.browser = await launchChromium('console plugins page');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.host?.stop();
});

/** The signed-in Plugins page of the host now running (the admin's first password chosen on the first visit). */
const admin = (ctx: Ctx) => ({
  url: ctx.host!.url,
  admin: { password: readFileSync(join(ctx.dataDir, 'initial-admin-password'), 'utf8').trim() },
});
let signedIn: ReturnType<typeof admin> | null = null;
async function pluginsPage(ctx: Ctx): Promise<{ page: Page; problems: string[] }> {
  const opened = await watchedPage(ctx.browser, ctx.host!.url);
  // The same object across restarts: signInAsAdmin remembers the password it chose for it.
  signedIn = signedIn ? Object.assign(signedIn, { url: ctx.host!.url }) : admin(ctx);
  await signInAsAdmin(opened.page, signedIn, '#/plugins');
  await opened.page.getByRole('heading', { name: 'Installed plugins' }).waitFor();
  return opened;
}

async function restart(ctx: Ctx): Promise<void> {
  await ctx.host!.stop();
  ctx.host = null;
  ctx.host = await startStockHost({ dataDir: ctx.dataDir });
}

const installedRow = (page: Page) => page.getByRole('row').filter({ hasText: 'flowhost-plugin-hello' });

test('upload a tarball, restart, run it; a refused package in the API words', async (ctx) => {
  const { page, problems } = await pluginsPage(ctx);
  await page.getByText('No plugin installed yet').waitFor();
  const form = page.getByRole('form', { name: 'Install a plugin' });
  // Another Flowhost's plugin: refused before anything is installed, in the API's words.
  await form.getByLabel(/Or upload a package tarball/).setInputFiles(tarballs.future);
  await form.getByRole('button', { name: 'Install' }).click();
  const refusal = form.getByRole('alert');
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /needs flowhost \^2\.0\.0.*\(plugin_incompatible\)/s);
  assert.is(await page.getByText('No plugin installed yet').count(), 1, 'nothing installed');

  await form.getByLabel(/Or upload a package tarball/).setInputFiles(tarballs.v1);
  await form.getByRole('button', { name: 'Install' }).click();
  await form.getByRole('status').filter({ hasText: 'Installed hello 1.0.0.' }).waitFor({ timeout: 30_000 });
  await installedRow(page).locator('.status').filter({ hasText: 'enabled, runs after a restart' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'restart it' }).waitFor();
  const runningNow = page.getByRole('region', { name: 'Running on this host' });
  await runningNow.getByRole('cell', { name: /^core-engine/ }).waitFor();
  assert.is(await runningNow.getByRole('cell', { name: /^hello/ }).count(), 0, 'not running yet');
  await page.screenshot({ path: 'test-output/console/plugins-installed.png' });
  // The one refusal the page showed (422 plugin_incompatible), nothing else.
  assert.equal(
    problems.filter((p) => !p.includes('422')),
    [],
  );
  await page.close();

  await restart(ctx);
  const after = await pluginsPage(ctx);
  await installedRow(after.page).locator('.status').filter({ hasText: 'enabled, running' }).waitFor();
  assert.is(await after.page.getByText('restart it').count(), 0, 'no banner: the host runs what is installed');
  const running = after.page.getByRole('region', { name: 'Running on this host' });
  await running
    .getByRole('cell', { name: /^hello/ })
    .first()
    .waitFor();
  // It runs: its route answers and stores a greeting, data a purge must remove later.
  const greeted = await callHost(ctx.dataDir, 'POST', '/hello/v1/greeting', { name: 'Ada' });
  assert.is(greeted.status, 201, JSON.stringify(greeted));
  assert.equal(after.problems, []);
  await after.page.close();
});

test('disable asks for a restart; remove with its data is refused while it runs, then names what goes, and nothing of it is left', async (ctx) => {
  let { page, problems } = await pluginsPage(ctx);
  let row = installedRow(page);
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.locator('.status').filter({ hasText: 'disabled, stops after a restart' }).waitFor();
  await page.getByRole('status').filter({ hasText: 'restart it' }).waitFor();
  await row.getByRole('button', { name: 'Enable' }).click();
  await row.locator('.status').filter({ hasText: 'enabled, running' }).waitFor();

  // While it runs here it could write its data again: a purge is refused in the API's words.
  await row.getByLabel('and its data').check();
  await row.getByRole('button', { name: 'Remove' }).click();
  await row.getByRole('button', { name: 'Yes, remove' }).click();
  const refusal = row.getByRole('alert');
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /runs on this host.*\(plugin_running\)/s);
  await row.getByRole('button', { name: 'Disable' }).click();
  await row.locator('.status').filter({ hasText: 'disabled, stops after a restart' }).waitFor();
  await page.close();
  await restart(ctx);
  ({ page, problems } = await pluginsPage(ctx));
  row = installedRow(page);
  await row
    .locator('.status')
    .filter({ hasText: /^disabled$/ })
    .waitFor();
  await row.getByLabel('and its data').check();
  await row.getByRole('button', { name: 'Remove' }).click();
  // The question names what a purge removes, read from GET /installed-plugins/hello/purge.
  const question = row.getByRole('group', { name: /^Remove hello and delete collection hello__greetings \(1 document\)/ });
  await question.waitFor();
  // Asked, not done: its data is still there.
  assert.is(await ctx.host!.store.collection('hello__greetings').count({}), 1);
  await question.getByRole('button', { name: 'Yes, remove' }).click();
  await page.getByText('No plugin installed yet').waitFor();
  // It was not running: removing it changes nothing the host runs, so no restart is asked for.
  assert.is(await page.getByText('restart it').count(), 0);
  assert.equal(problems, []);
  await page.close();
  const names = (await ctx.host!.store.collectionNames?.()) ?? [];
  assert.equal(
    names.filter((n) => n.startsWith('hello__')),
    [],
  );
});

test.run();
