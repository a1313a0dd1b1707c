// A flow's History in the console (issue 55), on both stores: a schedule changed in the
// console and a rename through the API are two revisions (the console's says so); a
// revision's changes show the field with its old and new value; Restore asks first, puts the
// old value back on the page and adds a revision.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { t: TestHost; browser: Browser };

const stores = testStores('console: flow history');
const browserHolder: { browser?: Browser } = {};

for (const store of stores) {
  const test = suite<Ctx>(`console: flow history (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    browserHolder.browser ??= await launchChromium('console-history');
    ctx.browser = browserHolder.browser;
  });
  test.after(async (ctx) => {
    await ctx.t?.stop();
    if (store === stores[stores.length - 1]) await browserHolder.browser?.close();
  });

  test('edit twice, see the diff, restore the first revision', async ({ t, browser }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Kept' } })).body.data.pipeline_id as number;
    await t.request('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch' } });
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Original name' } })).body.data
      .flow_id as number;

    const { page, problems } = await watchedPage(browser, t.url);
    await signInAsAdmin(page, t, `#/flows/${flowId}`);
    // Edit one: the schedule, in the console.
    const schedule = page.getByRole('form', { name: 'Scheduling' }).getByLabel('Schedule');
    await schedule.locator('option[value="daily"]').waitFor({ state: 'attached' });
    await schedule.selectOption('daily');
    const saveBar = page.getByRole('region', { name: 'Save changes' });
    await saveBar.getByRole('button', { name: 'Save changes' }).click();
    await saveBar.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
    // Edit two: a rename, through the API.
    assert.is((await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'New name' } })).status, 200);

    const history = page.getByRole('region', { name: 'History' });
    const rev3 = history.getByRole('listitem', { name: 'Revision 3' });
    await rev3.waitFor(); // the page's poll sees the rename, and the history follows
    const rev2 = history.getByRole('listitem', { name: 'Revision 2' });
    assert.match(await rev2.innerText(), /by admin · from console/);
    assert.match(await rev3.innerText(), /from rest/);

    await rev2.getByRole('button', { name: 'Show changes' }).click();
    const changes = rev2.getByRole('list', { name: 'Changes in revision 2' });
    await changes.waitFor();
    assert.is((await changes.innerText()).trim(), 'scheduling_config › interval: “manual” → “daily”');
    await rev3.getByRole('button', { name: 'Show changes' }).click();
    const renamed = rev3.getByRole('list', { name: 'Changes in revision 3' });
    await renamed.waitFor();
    assert.is((await renamed.innerText()).trim(), 'flow_name: “Original name” → “New name”');

    const rev1 = history.getByRole('listitem', { name: 'Revision 1' });
    await rev1.getByRole('button', { name: 'Restore' }).click();
    // Asked first: nothing is restored until the answer.
    assert.is((await t.request<Body>('GET', `/flows/${flowId}/revisions`)).body.total, 3);
    await rev1.getByRole('button', { name: 'Yes, restore' }).click();
    await history.getByRole('status').filter({ hasText: 'Restored revision 1 as revision 4.' }).waitFor();
    const rev4 = history.getByRole('listitem', { name: 'Revision 4' });
    await rev4.waitFor();
    assert.match(await rev4.innerText(), /restore of revision 1 · by admin · from console/);
    await page.getByRole('heading', { name: 'Flow: Original name' }).waitFor();
    assert.is(await schedule.inputValue(), 'manual', 'the schedule form shows the restored value');
    const flow = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data;
    assert.equal([flow.flow_name, flow.scheduling_config.interval], ['Original name', 'manual']);

    // A step's change is named by the step's position and type (its id on hover), not the snapshot's key.
    const stepId = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    const fsid = `${stepId}_${flowId}`;
    const handler = { handler_slug: 'rss', settings: { feed_url: 'https://a.example/feed' } };
    assert.is((await t.request('PUT', `/flows/steps/${fsid}/handler`, { body: handler })).status, 200);
    const patched = await t.request('PATCH', `/flows/steps/${fsid}/config`, {
      body: { handler_config: { feed_url: 'https://b.example/feed' } },
    });
    assert.is(patched.status, 200);
    const latest = (await t.request<Body>('GET', `/flows/${flowId}/revisions`)).body.data.revisions[0].revision as number;
    const stepRev = history.getByRole('listitem', { name: `Revision ${latest}` });
    await stepRev.waitFor();
    await stepRev.getByRole('button', { name: 'Show changes' }).click();
    const stepChanges = stepRev.getByRole('list', { name: `Changes in revision ${latest}` });
    await stepChanges.waitFor();
    assert.is(
      (await stepChanges.innerText()).trim(),
      'step 1 (fetch) › handler_config › feed_url: “https://a.example/feed” → “https://b.example/feed”',
    );
    assert.is(await stepChanges.locator('code').getAttribute('title'), `pipeline step ${stepId}`);
    assert.equal(problems, []);
    await page.close();
  });

  test.run();
}
