// The events calendar tried as a new user would, on both stores: 500 events over three
// months imported by a flow (an uploaded JSON file → the `files` fetch handler → the
// `event` publish handler), then the /events page in headless Chromium: filter by a
// category, a date range, page through, toggle past. One title is `<script>alert(1)</script>`
// and must show as text. Screenshots: test-output/events/new-user-<store>/.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { FakeServer, TestHost } from '../../sdk/testing/index.js';
import { testStores } from '../support/test-stores.js';
import { eventsHost, fakeNominatim, type Body } from '../plugins/events/fixtures.js';

declare const document: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- page.evaluate runs in the page
const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
const CATEGORIES = ['Music', 'Theatre', 'Comedy', 'Talks'];
const VENUES = ['The Blue Note', 'Union Hall', 'Town Library'];

function importFile(): string {
  const items = [];
  for (let i = 0; i < 500; i++) {
    // 2026-03-01 .. 2026-05-29, a few events a day, every 20th over two days.
    const day = new Date(Date.UTC(2026, 2, 1) + (i % 90) * 86_400_000).toISOString().slice(0, 10);
    const hour = String(10 + (i % 11)).padStart(2, '0');
    const end = i % 20 === 0 ? new Date(Date.UTC(2026, 2, 2) + (i % 90) * 86_400_000).toISOString().slice(0, 10) : day;
    items.push({
      id: `import-${i}`,
      title: i === 7 ? '<script>alert(1)</script>' : `${CATEGORIES[i % 4]} night ${i}`,
      description: `Imported event number ${i}.`,
      start_date: `${day} ${hour}:00:00`,
      end_date: `${end} ${hour}:45:00`,
      venue: VENUES[i % 3],
      categories: CATEGORIES[i % 4],
      price: `$${i % 30}`,
    });
  }
  return JSON.stringify(items);
}

for (const store of testStores('events new user')) {
  const test = suite<{ t: TestHost; geo: FakeServer; browser: Browser; page: Page; shots: string }>(
    `events, as a new user (${store.label})`,
  );
  test.before(async (ctx) => {
    if (!existsSync(CHROMIUM))
      throw new Error(
        `This test needs Chromium at ${CHROMIUM} (Debian: apt-get install -y chromium; or set CHROMIUM_PATH). It does not skip.`,
      );
    ctx.shots = resolve(process.cwd(), 'test-output/events', `new-user-${store.label}`);
    mkdirSync(ctx.shots, { recursive: true });
    ctx.geo = await fakeNominatim();
    // 2026-04-01 12:00 in New York.
    ctx.t = await eventsHost(store.config(), ctx.geo.url, '2026-04-01T16:00:00Z', { events_per_page: 20 });
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

  test('a flow imports 500 events (file → event)', async ({ t }) => {
    const form = new FormData();
    form.append('file', new Blob([importFile()], { type: 'application/json' }), 'events.json');
    const upload = await t.request<Body>('POST', '/files', { body: form });
    assert.is(upload.status, 201, JSON.stringify(upload.body));
    const job = await t.executeAndWait(
      {
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'files', handler_config: { file_id: upload.body.file.id, max_items: 500 } },
            { type: 'publish', handler_slug: 'event', handler_config: {} },
          ],
        },
      },
      180_000,
    );
    assert.is(job.status, 'completed', JSON.stringify(job).slice(0, 1000));
    const list = await t.request<Body[]>('GET', '/events', { namespace: 'wp/v2', query: { per_page: 1 } });
    assert.is(list.headers.get('x-wp-total'), '500');
    assert.is(
      (await t.request<Body[]>('GET', '/venues', { namespace: 'wp/v2' })).headers.get('x-wp-total'),
      '3',
      'one venue per name, reused',
    );
  });

  const titles = (page: Page) => page.$$eval('#fh-list .fh-event-title', (els) => els.map((e) => e.textContent ?? ''));
  const swapped = async (page: Page, act: () => Promise<unknown>) => {
    const before = await page.getAttribute('#fh-main', 'data-loaded');
    await act();
    await page.waitForFunction((b) => document.getElementById('fh-main').getAttribute('data-loaded') !== b, before);
  };

  test('open the page, filter by a category and a date range, page through, toggle past', async ({ t, page, shots }) => {
    await page.goto(`${t.url}/events`);
    assert.match((await page.textContent('#fh-counter')) ?? '', /\d+ events · page 1 of \d+/);
    await page.screenshot({ path: join(shots, '01-opened.png'), fullPage: false });

    await page.click('#fh-open-filters');
    await page.waitForSelector('fieldset[data-taxonomy=event_category] input');
    const music = await page.$eval(
      'fieldset[data-taxonomy=event_category] label:has-text("Music") input',
      (el) => (el as { value: string }).value,
    );
    await page.check(`fieldset[data-taxonomy=event_category] input[value="${music}"]`);
    await page.screenshot({ path: join(shots, '02-filter-modal.png') });
    await swapped(page, () => page.click('#fh-apply'));
    assert.ok(
      (await titles(page)).every((x) => x.startsWith('Music night')),
      'only Music events',
    );

    await page.fill('#fh-from', '2026-04-10');
    await page.fill('#fh-to', '2026-05-10');
    await swapped(page, () => page.click('form.fh-search button[type=submit]'));
    const days = await page.$$eval('#fh-list .fh-day', (els) => els.map((e) => e.getAttribute('data-day') ?? ''));
    assert.ok(days.length > 0 && days.every((d) => d >= '2026-04-10' && d <= '2026-05-10'), days.join(','));
    const counter = (await page.textContent('#fh-counter')) ?? '';
    assert.match(counter, /page 1 of [2-9]/);
    await page.screenshot({ path: join(shots, '03-music-range.png'), fullPage: true });

    await swapped(page, () => page.click('.fh-pagination a[rel=next]'));
    assert.match(page.url(), 'paged=2');
    const page2 = await page.$$eval('#fh-list .fh-day', (els) => els.map((e) => e.getAttribute('data-day') ?? ''));
    assert.ok(page2[0]! > days[days.length - 1]!, 'page 2 starts after page 1 ends: no day split');
    assert.ok((await titles(page)).every((x) => x.startsWith('Music night')));
    await page.screenshot({ path: join(shots, '04-page-2.png'), fullPage: true });

    // Past, without the range: newest past day first.
    await page.fill('#fh-from', '');
    await page.fill('#fh-to', '');
    await swapped(page, () => page.click('form.fh-search button[type=submit]'));
    await swapped(page, () => page.click('.fh-navigation a[data-past="1"]'));
    const past = await page.$$eval('#fh-list .fh-day', (els) => els.map((e) => e.getAttribute('data-day') ?? ''));
    assert.ok(past.length > 1 && past.every((d, i) => i === 0 || d < past[i - 1]!) && past[0]! <= '2026-04-01', past.join(','));
    await page.screenshot({ path: join(shots, '05-past.png'), fullPage: true });
  });

  test('the <script> title renders as text', async ({ t, page }) => {
    await page.goto(`${t.url}/events?past=1&event_search=${encodeURIComponent('<script>')}`);
    assert.equal(await titles(page), ['<script>alert(1)</script>']);
    assert.is(await page.locator('#fh-list script').count(), 0);
  });

  test.run();
}
