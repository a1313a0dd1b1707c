// A step picked as the original admin client picks it (a handler, no settings yet) is shown
// in the console as needing configuration, naming the fields: on the flows list and on the
// step itself; saving them there clears it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { t: TestHost; browser: Browser };

const test = suite<Ctx>('console: a step that needs configuration');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  ctx.browser = await launchChromium('console');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('the flows list and the step show "needs configuration: feed_url" until the feed is saved', async ({ t, browser }) => {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Half set up' } })).body.data
    .pipeline_id as number;
  const step = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } });
  const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Not yet' } })).body.data
    .flow_id as number;
  const picked = await t.request<Body>('PUT', `/flows/steps/${step.body.data.pipeline_step_id as string}_${flowId}/handler`, {
    body: { handler_slug: 'rss', pipeline_id: pipelineId, step_type: 'fetch', settings: {} },
  });
  assert.is(picked.status, 200, JSON.stringify(picked.body));

  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, '#/flows');
  const row = page.locator('tbody tr').filter({ hasText: 'Not yet' });
  const listed = row.locator('.badge');
  await listed.waitFor();
  assert.is(await listed.innerText(), 'needs configuration');
  assert.is(await listed.getAttribute('title'), 'Not set yet: feed_url');

  await row.getByRole('link', { name: 'Not yet' }).click();
  const region = page.getByRole('region', { name: 'Step 1/1: fetch' });
  const badge = region.getByText('needs configuration: feed_url');
  await badge.waitFor();
  // The handler list arrives with its own request: the select shows the pick once its options are in.
  const handler = region.getByLabel('Handler');
  await handler.locator('option[value="rss"]').waitFor({ state: 'attached' });
  const deadline = Date.now() + 5_000;
  while ((await handler.inputValue()) !== 'rss' && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 25));
  assert.is(await handler.inputValue(), 'rss', 'the pick is kept');

  await region.getByLabel('Feed URL').fill('https://news.example.org/feed.xml');
  const saveBar = page.getByRole('region', { name: 'Save changes' });
  await saveBar.getByRole('button', { name: 'Save changes' }).click();
  await saveBar.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
  await badge.waitFor({ state: 'detached' });
  const flow = await t.request<Body>('GET', `/flows/${flowId}`);
  assert.equal(Object.values(flow.body.data.flow_config as Record<string, Body>)[0]!.missing_settings, []);
  assert.equal(problems, []);
  await page.close();
});

test.run();
