// A flow whose handler came from a plugin the host no longer loads (issue 54) is flagged on
// the console's flows list with the reason (what is missing, which plugin to load again), and
// its schedule column says it is not scheduled rather than showing a next run.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { CONTRIBUTION_OWNERS } from '../../../core/flows/orphans.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { t: TestHost; browser: Browser };

const test = suite<Ctx>('console: an orphan flow');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  ctx.browser = await launchChromium('console');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('the flows list names the missing handler and its plugin; no next run is shown', async ({ t, browser }) => {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Gone' } })).body.data.pipeline_id as number;
  const step = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } });
  const stepId = step.body.data.pipeline_step_id as string;
  const flowId = (
    await t.request<Body>('POST', '/flows', {
      body: {
        pipeline_id: pipelineId,
        flow_name: 'Left behind',
        flow_config: { [stepId]: { handler_slug: 'rss', handler_config: { feed_url: 'https://news.example.org/feed.xml' } } },
        scheduling_config: { interval: 'hourly' },
      },
    })
  ).body.data.flow_id as number;
  // What a plugin removed from the build leaves: a step naming its handler, and the store's
  // record of which plugin provided it (written at an earlier boot).
  const stepKey = stepId.replace(/-/g, '_');
  await t.host.store.collection('flows').updateOne({ flow_id: flowId }, { $set: { [`steps.${stepKey}.handler_slug`]: 'gone-feed' } });
  await t.host.store.collection(CONTRIBUTION_OWNERS).insertOne({ key: 'handler:gone-feed', plugin: 'gone-plugin' });

  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, '#/flows');
  const row = page.locator('tbody tr').filter({ hasText: 'Left behind' });
  const badge = row.locator('.badge');
  await badge.waitFor();
  assert.is(await badge.innerText(), 'plugin missing');
  assert.match(
    await row.locator('.orphaned').innerText(),
    `names handler 'gone-feed', which no loaded plugin provides; it came from plugin 'gone-plugin', load it again`,
  );
  assert.is(await row.locator('td').nth(1).innerText(), "Not scheduled: handler 'gone-feed' missing");
  assert.equal(problems, []);
  await page.close();
});

test.run();
