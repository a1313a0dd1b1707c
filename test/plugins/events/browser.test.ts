// The /events page in a real browser: headless Debian Chromium driven by playwright-core
// (no browser download). Search, the filter modal (focus inside, Escape/close returns it),
// a date range, paging, the past toggle, URL state and back navigation, checked in the DOM;
// screenshots go to test-output/events/<store>/. Without /usr/bin/chromium (or CHROMIUM_PATH) the
// suite FAILS with a message saying how to install it: a browser test never silently skips.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { TestHost, FakeServer } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { eventsHost, fakeNominatim, makeEvent, makeTerm } from './fixtures.js';

// Functions passed to page.evaluate run in the page (the page's CSP forbids string eval); the test build has no DOM types.
declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const OUTPUT = resolve(process.cwd(), 'test-output/events');

interface Ctx {
  t: TestHost;
  geo: FakeServer;
  browser: Browser;
  page: Page;
  ids: Record<string, number>;
}
const titles = (page: Page) => page.$$eval('#fh-list .fh-event-title', (els) => els.map((e) => e.textContent));
const dayIds = (page: Page) => page.$$eval('#fh-list .fh-day', (els) => els.map((e) => e.getAttribute('data-day')));
const swapped = async (page: Page, act: () => Promise<unknown>) => {
  const before = await page.getAttribute('#fh-main', 'data-loaded');
  await act();
  await page.waitForFunction((b) => document.getElementById('fh-main').getAttribute('data-loaded') !== b, before);
};

for (const store of testStores('events page in Chromium')) {
  const test = suite<Ctx>(`events page in Chromium (${store.label})`);
  const SHOTS = join(OUTPUT, store.label);

  test.before(async (ctx) => {
    if (!existsSync(CHROMIUM)) {
      throw new Error(
        `The events browser test needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set CHROMIUM_PATH). It does not skip.`,
      );
    }
    mkdirSync(SHOTS, { recursive: true });
    ctx.geo = await fakeNominatim();
    ctx.t = await eventsHost(store.config(), ctx.geo.url, '2026-03-10T17:00:00Z', { events_per_page: 6 });
    ctx.ids = {
      music: await makeTerm(ctx.t, 'event-categories', 'Music'),
      theatre: await makeTerm(ctx.t, 'event-categories', 'Theatre'),
      brooklyn: await makeTerm(ctx.t, 'event-locations', 'Brooklyn'),
    };
    // Two events a day for 15 days from today, alternating categories, and two past ones.
    for (let d = 0; d < 15; d++) {
      const day = new Date(Date.UTC(2026, 2, 10 + d)).toISOString().slice(0, 10);
      await makeEvent(ctx.t, 'admin', {
        title: `Concert ${d + 1}`,
        meta: { start_date: `${day} 19:00:00`, end_date: `${day} 21:00:00` },
        'event-categories': [ctx.ids.music],
        ...(d % 3 === 0 ? { 'event-locations': [ctx.ids.brooklyn] } : {}),
      });
      await makeEvent(ctx.t, 'admin', {
        title: `Play ${d + 1}`,
        meta: { start_date: `${day} 15:00:00` },
        'event-categories': [ctx.ids.theatre],
      });
    }
    await makeEvent(ctx.t, 'admin', { title: '<script>alert(1)</script>', meta: { start_date: '2026-03-11 12:00:00' } });
    await makeEvent(ctx.t, 'admin', { title: 'Yesterday Gig', meta: { start_date: '2026-03-09 20:00:00' } });
    await makeEvent(ctx.t, 'admin', { title: 'Last Month Gig', meta: { start_date: '2026-02-09 20:00:00' } });
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
      ],
      // No --user-data-dir: playwright-core's launch() gives every browser a fresh, empty profile directory of its own.
    });
    ctx.page = await ctx.browser.newPage({ viewport: { width: 1000, height: 900 } });
    ctx.page.on('dialog', (d) => {
      throw new Error(`a JavaScript dialog opened: ${d.message()}`);
    });
  });

  test.after(async (ctx) => {
    await ctx.browser?.close();
    await ctx.t?.stop();
    await ctx.geo?.close();
  });

  test('server-rendered first page, landmarks, labels; a title with <script> is text', async ({ t, page }) => {
    await page.goto(`${t.url}/events`);
    assert.is(await page.locator('main').count(), 1);
    assert.is(await page.getAttribute('form.fh-search', 'role'), 'search');
    assert.is(await page.locator('label[for=fh-q]').count(), 1);
    assert.equal(await dayIds(page), ['2026-03-10', '2026-03-11', '2026-03-12']);
    assert.ok((await titles(page)).includes('<script>alert(1)</script>'), 'shown as text');
    assert.is(await page.locator('#fh-list script').count(), 0);
    assert.match((await page.textContent('#fh-counter')) ?? '', '31 events · page 1 of 5');
    assert.is(await page.isVisible('#fh-open-filters'), true, 'the script showed the filter button');
    await page.screenshot({ path: join(SHOTS, '01-first-page.png'), fullPage: true });
  });

  test('search swaps the fragments and keeps the state in the URL', async ({ page }) => {
    await page.fill('#fh-q', 'Concert 1');
    await swapped(page, () => page.click('form.fh-search button[type=submit]'));
    const found = await titles(page);
    assert.ok(found.length > 0 && found.every((x) => x?.startsWith('Concert 1')), JSON.stringify(found));
    assert.match(page.url(), 'event_search=Concert+1');
    await page.screenshot({ path: join(SHOTS, '02-search.png'), fullPage: true });
    await page.fill('#fh-q', '');
    await swapped(page, () => page.click('form.fh-search button[type=submit]'));
  });

  test('the filter modal: counts from /events/filters, focus inside, apply a category', async ({ page, ids }) => {
    await page.click('#fh-open-filters');
    await page.waitForSelector(`#fh-filter-groups input[value="${ids.music}"]`);
    assert.is(await page.evaluate(() => document.getElementById('fh-filters').open), true);
    assert.ok(
      await page.evaluate(() => document.getElementById('fh-filters').contains(document.activeElement)),
      'focus moved into the modal',
    );
    assert.match((await page.textContent('fieldset[data-taxonomy=event_category]')) ?? '', 'Music (15)');
    await page.screenshot({ path: join(SHOTS, '03-filter-modal.png') });
    await page.check(`#fh-filter-groups input[value="${ids.music}"]`);
    await swapped(page, () => page.click('#fh-apply'));
    assert.is(await page.evaluate(() => document.activeElement?.id), 'fh-open-filters', 'focus back on the button that opened it');
    const found = await titles(page);
    assert.ok(
      found.every((x) => x?.startsWith('Concert')),
      JSON.stringify(found),
    );
    assert.match(decodeURIComponent(page.url()), `tax_filter[event_category][]=${ids.music}`);
    assert.match((await page.textContent('#fh-counter')) ?? '', '15 events');
    // Escape closes the modal too, and focus returns.
    await page.click('#fh-open-filters');
    await page.waitForSelector('#fh-filter-groups fieldset');
    await page.keyboard.press('Escape');
    assert.is(await page.evaluate(() => document.getElementById('fh-filters').open), false);
    assert.is(await page.evaluate(() => document.activeElement?.id), 'fh-open-filters');
  });

  test('a date range, then paging through whole days', async ({ page }) => {
    await page.fill('#fh-from', '2026-03-12');
    await page.fill('#fh-to', '2026-03-22');
    await swapped(page, () => page.click('form.fh-search button[type=submit]'));
    assert.equal(await dayIds(page), ['2026-03-12', '2026-03-13', '2026-03-14', '2026-03-15', '2026-03-16', '2026-03-17']);
    assert.match((await page.textContent('#fh-counter')) ?? '', '11 events · page 1 of 2');
    await swapped(page, () => page.click('.fh-pagination a[rel=next]'));
    assert.equal(await dayIds(page), ['2026-03-18', '2026-03-19', '2026-03-20', '2026-03-21', '2026-03-22']);
    assert.match(page.url(), 'paged=2');
    assert.is(await page.getAttribute('.fh-pagination a[aria-current=page]', 'data-paged'), '2');
    await page.screenshot({ path: join(SHOTS, '04-range-page-2.png'), fullPage: true });
    await page.goBack();
    await page.waitForFunction(() => document.querySelector('#fh-list .fh-day')?.getAttribute('data-day') === '2026-03-12');
  });

  test('the past toggle reverses the order; the first page also works without JavaScript', async ({ t, page, browser }) => {
    await page.goto(`${t.url}/events`);
    await swapped(page, () => page.click('.fh-navigation a[data-past="1"]'));
    assert.equal(await titles(page), ['Yesterday Gig', 'Last Month Gig']);
    assert.match(page.url(), 'past=1');
    await page.screenshot({ path: join(SHOTS, '05-past.png'), fullPage: true });
    const noJs = await browser.newContext({ javaScriptEnabled: false });
    const plain = await noJs.newPage();
    await plain.goto(`${t.url}/events`);
    await plain.fill('#fh-q', 'Play 13');
    await Promise.all([plain.waitForNavigation(), plain.click('form.fh-search button[type=submit]')]);
    assert.equal(await titles(plain), ['Play 13'], plain.url());
    await Promise.all([plain.waitForNavigation(), plain.click('.fh-navigation a[data-past="1"]')]);
    assert.match(plain.url(), 'past=1');
    await plain.screenshot({ path: join(SHOTS, '06-no-javascript.png'), fullPage: true });
    await noJs.close();
  });

  test.run();
}
