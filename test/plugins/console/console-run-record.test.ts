// Issue 53: a run's page in the console shows what started it and, under each step, the
// items the step was given and passed on (each expands to its JSON), secrets masked.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { ITEM_SECRET, newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';

type Ctx = { t: TestHost; browser: Browser; remote: Remote; jobId: number };
const test = suite<Ctx>('console: a failed run’s page shows each step’s items');
test.before(async (ctx) => {
  ctx.remote = newRemote();
  ctx.t = await createTestHost({ plugins: [recordProbe(ctx.remote)] });
  const { flowId } = await twoStepFlow(ctx.t);
  ctx.remote.failAt = 3;
  const job = await ctx.t.executeAndWait({ flow_id: flowId });
  assert.is(job.status, 'failed');
  ctx.jobId = job.job_id;
  ctx.browser = await launchChromium('console');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('each step expands to its input and output items; an item expands to its JSON', async (ctx) => {
  const { page, problems } = await watchedPage(ctx.browser, ctx.t.url);
  // The page's timers run on a clock the test moves (below: time passing on an ended run).
  await page.clock.install();
  await signInAsAdmin(page, ctx.t);
  await page.goto(`${ctx.t.url}/admin/#/jobs/${ctx.jobId}`);
  // The page shows its heading while the run is still loading: wait for the run itself.
  await page.getByRole('heading', { name: `Job ${ctx.jobId}` }).waitFor();
  await page.getByText('Started by Run now (admin)').waitFor();

  const publish = page.locator('details.step-record').filter({ hasText: 'Step 2: publish (rec-pub)' });
  assert.match(await publish.locator('summary').first().innerText(), /5 in → 0 out · remote refused item 3/);
  await publish.locator('summary').first().click();
  const input = publish.getByRole('region', { name: 'Input' });
  assert.ok(await input.getByRole('heading', { name: 'Input: 5 items' }).isVisible());
  assert.equal(
    await input.locator('li > details > summary').allInnerTexts(),
    [1, 2, 3, 4, 5].map((n) => `Story ${n}`),
  );
  assert.not.ok(await publish.getByRole('region', { name: 'Output' }).count(), 'a failed step has no output');
  await input.getByText('Story 3', { exact: true }).click();
  const json = await input.locator('li').nth(2).locator('pre').innerText();
  assert.match(json, /"guid": "urn:rec:3"/);
  assert.not.ok(json.includes(ITEM_SECRET), 'the item’s secret-looking field is masked');
  assert.ok(await input.getByText('Secret-looking fields are masked.').isVisible());

  const fetch = page.locator('details.step-record').filter({ hasText: 'Step 1: fetch (rec-feed)' });
  await fetch.locator('summary').first().click();
  assert.ok(await fetch.getByRole('heading', { name: 'Input: 0 items' }).isVisible());
  assert.equal(await fetch.getByRole('region', { name: 'Output' }).locator('li > details > summary').count(), 5);
  // An ended run is not read again: what the user opened stays open, and no reads go out.
  let reads = 0;
  page.on('request', (request) => {
    if (request.url().includes(`/jobs/${ctx.jobId}`)) reads++;
  });
  await page.clock.runFor(10_000);
  assert.is(reads, 0, 'an ended run is not read again');
  assert.ok(await input.locator('li').nth(2).locator('pre').isVisible());
  assert.equal(problems, []);
  await page.close();
});

test.run();
