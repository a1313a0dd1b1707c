// Issue 53: a pending or running run is cancelled from its page in the console (asked in
// place, then POST /jobs/{id}/cancel): the page shows it cancelled with the reason, and the
// API says so too. A run that ended while the question was open is refused in the API's
// words (409 job_finished). The runs list cancels a running row the same way.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { handlerPlugin } from '../../support/handler-plugin.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON

/** A fetch step that holds its run until the test opens the gate: a run that waits on a remote. */
const gate: { wait: Promise<void>; open: () => void } = { wait: Promise.resolve(), open: () => undefined };
function closeGate(): void {
  gate.wait = new Promise<void>((resolve) => (gate.open = resolve));
}
const fixtures = handlerPlugin('cancel-console', [
  defineHandler({
    slug: 'held',
    type: 'fetch',
    label: 'Held',
    description: 'Waits for the test to let it go.',
    async fetch() {
      await gate.wait;
      return [];
    },
  }),
]);

async function heldFlow(t: TestHost): Promise<number> {
  const pipeline = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Held', steps: [{ step_type: 'fetch' }] } })).body
    .data;
  const stepId = (await t.request<Body>('GET', `/pipelines/${pipeline.pipeline_id}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
  const flow = await t.request<Body>('POST', '/flows', {
    body: { pipeline_id: pipeline.pipeline_id, flow_name: 'Held run', flow_config: { [stepId]: { handler_slug: 'held' } } },
  });
  return flow.body.data.flow_id;
}

/** Starts a run and waits until it is in its held step. */
async function runningJob(t: TestHost, flowId: number): Promise<number> {
  const started = await t.request<Body>('POST', '/execute', { body: { flow_id: flowId } });
  assert.is(started.status, 200, JSON.stringify(started.body));
  const jobId = started.body.data.job_id as number;
  const deadline = Date.now() + 10_000;
  while ((await t.request<Body>('GET', `/jobs/${jobId}`)).body.data.status !== 'processing') {
    if (Date.now() > deadline) throw new Error(`job ${jobId} never started`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return jobId;
}

type Ctx = { t: TestHost; browser: Browser; flowId: number };
const test = suite<Ctx>('console: cancelling a run');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [fixtures] });
  ctx.flowId = await heldFlow(ctx.t);
  ctx.browser = await launchChromium('console cancel');
});
test.after(async (ctx) => {
  gate.open();
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('a running run is cancelled from its page: the page and the API say cancelled, with who did it', async ({ t, browser, flowId }) => {
  closeGate();
  const jobId = await runningJob(t, flowId);
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, `#/jobs/${jobId}`);
  await page.getByRole('heading', { name: `Job ${jobId}` }).waitFor();
  await page.locator('.status').filter({ hasText: 'processing' }).first().waitFor();
  await page.getByRole('button', { name: 'Cancel run' }).click();
  // Asked in place first: nothing is sent until the person confirms.
  const question = page.getByRole('group', { name: new RegExp(`Cancel job ${jobId}\\?`) });
  await question.waitFor();
  assert.is((await t.request<Body>('GET', `/jobs/${jobId}`)).body.data.status, 'processing', 'not cancelled before the answer');
  await page.screenshot({ path: 'test-output/console/run-cancel-confirm.png', fullPage: true });
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith(`/jobs/${jobId}/cancel`));
  await question.getByRole('button', { name: 'Yes, cancel run' }).click();
  await sent;
  await page
    .getByRole('status')
    .filter({ hasText: `Job ${jobId} cancelled` })
    .waitFor();
  await page.locator('p .status').filter({ hasText: 'cancelled' }).waitFor();
  assert.match(await page.locator('p.error').innerText(), /^Cancelled by admin \(user \d+\)/, 'the reason, as the API gives it');
  assert.is(await page.getByRole('button', { name: 'Cancel run' }).count(), 0, 'an ended run has no Cancel');
  assert.not.ok(await page.getByText('(updating)').count(), 'a cancelled run is not read again');

  const job = (await t.request<Body>('GET', `/jobs/${jobId}`)).body.data;
  assert.is(job.status, 'cancelled');
  assert.match(job.error, /^Cancelled by admin/);
  await page.screenshot({ path: 'test-output/console/run-cancelled.png', fullPage: true });
  assert.equal(problems, []);
  gate.open();
  await page.close();
});

test('a run that ended while the question was open: the refusal is shown in words, and the page shows how it ended', async ({
  t,
  browser,
  flowId,
}) => {
  closeGate();
  const jobId = await runningJob(t, flowId);
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, `#/jobs/${jobId}`);
  await page.getByRole('button', { name: 'Cancel run' }).click();
  const question = page.getByRole('group', { name: new RegExp(`Cancel job ${jobId}\\?`) });
  await question.waitFor();
  gate.open();
  assert.is((await t.waitForJob(jobId)).status, 'completed_no_items');
  await question.getByRole('button', { name: 'Yes, cancel run' }).click();
  const refusal = page.getByRole('alert').filter({ hasText: '(job_finished)' });
  await refusal.waitFor();
  assert.match(await refusal.innerText(), new RegExp(`Job ${jobId} has already ended \\(completed_no_items\\)`));
  await page.locator('p .status').filter({ hasText: 'completed no items' }).waitFor();
  assert.is((await t.request<Body>('GET', `/jobs/${jobId}`)).body.data.status, 'completed_no_items', 'the run kept its outcome');
  assert.equal(
    problems.filter((p) => !p.startsWith('409 POST') && !p.includes('status of 409')),
    [],
  );
  await page.close();
});

test('the runs list: Cancel on a running row, asked in place; the row turns cancelled', async ({ t, browser, flowId }) => {
  closeGate();
  const jobId = await runningJob(t, flowId);
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, '#/jobs');
  const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: String(jobId), exact: true }) });
  await row.getByRole('button', { name: 'Cancel run' }).click();
  await page.screenshot({ path: 'test-output/console/runs-cancel-confirm.png' });
  await row.getByRole('button', { name: 'Yes, cancel run' }).click();
  await row.locator('.status').filter({ hasText: 'cancelled' }).waitFor();
  await row
    .getByRole('status')
    .filter({ hasText: `Job ${jobId} cancelled` })
    .waitFor();
  assert.is(await row.getByRole('button', { name: 'Cancel run' }).count(), 0);
  assert.is((await t.request<Body>('GET', `/jobs/${jobId}`)).body.data.status, 'cancelled');
  assert.equal(problems, []);
  gate.open();
  await page.close();
});

test.run();
