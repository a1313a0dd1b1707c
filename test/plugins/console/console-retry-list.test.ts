// Issue 53: retrying from the runs list, several at once, and a retry refused on a run's page.
// The list ticks failed runs (a change of filter clears the ticks) and "Retry selected"
// retries each from its failed step, saying per run what happened: its new run (linked), or the API's refusal in its words (a run
// retried meanwhile names its retry, linked); the list then shows the new runs completing.
// On a run's page, a retry the API refuses (retried elsewhere while the page was open) is
// shown in its words and the page turns to "Retried by job N"; "Retry from the start" runs
// the flow again from its first step.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON

/** A new five-item flow whose run fails at item 3: answers the failed job's id. */
async function failedRun(t: TestHost, remote: Remote): Promise<number> {
  const { flowId } = await twoStepFlow(t);
  remote.failAt = 3;
  const job = await t.executeAndWait({ flow_id: flowId });
  assert.is(job.status, 'failed');
  return job.job_id;
}

/** How many times each item was posted to the fake remote. */
function postCounts(remote: Remote): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const guid of remote.posted) counts[guid] = (counts[guid] ?? 0) + 1;
  return counts;
}

const refusedOnly = (problems: string[]) => problems.filter((p) => !p.startsWith('409 POST') && !p.includes('status of 409'));

type Ctx = { t: TestHost; browser: Browser; remote: Remote };
const test = suite<Ctx>('console: retrying runs from the list and refusals');
test.before(async (ctx) => {
  ctx.remote = newRemote();
  ctx.t = await createTestHost({ plugins: [recordProbe(ctx.remote)] });
  ctx.browser = await launchChromium('console retry list');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

test('Retry selected: two failed runs retried at once, a third refused as already retried; the list shows the new runs', async ({
  t,
  browser,
  remote,
}) => {
  const [a, b, c, d] = [await failedRun(t, remote), await failedRun(t, remote), await failedRun(t, remote), await failedRun(t, remote)];
  remote.failAt = null;
  /** A retry made elsewhere (the CLI, another tab), run to its end. */
  const retryElsewhere = async (id: number) => {
    const elsewhere = await t.request<Body>('POST', `/jobs/${id}/retry`, { body: {} });
    assert.is(elsewhere.status, 200, JSON.stringify(elsewhere.body));
    const retry = elsewhere.body.data.job_id as number;
    assert.is((await t.waitForJob(retry)).status, 'completed');
    return retry;
  };
  // Job d was retried before the list was opened: its row says so and has no box to tick.
  const dRetry = await retryElsewhere(d);

  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, '#/jobs');
  const rowOf = (id: number) => page.getByRole('row').filter({ has: page.getByRole('link', { name: String(id), exact: true }) });
  await rowOf(a).waitFor();
  assert.is(await rowOf(dRetry).getByRole('checkbox').count(), 0, 'a completed run has no box to tick');
  assert.is(await rowOf(d).getByRole('checkbox').count(), 0, 'a run already retried has no box to tick');
  assert.match(await rowOf(d).innerText(), new RegExp(`retried by job ${dRetry}`));
  const retrySelected = page.getByRole('button', { name: /^Retry selected/ });
  assert.ok(await retrySelected.isDisabled(), 'nothing ticked yet');
  // A tick does not outlive a change of filter: nothing out of sight is retried.
  await rowOf(a).getByRole('checkbox').check();
  assert.is(await retrySelected.innerText(), 'Retry selected (1)');
  const filter = page.getByLabel('Status');
  await filter.selectOption('failed');
  await rowOf(dRetry).waitFor({ state: 'detached' });
  assert.ok(await retrySelected.isDisabled(), 'the tick was cleared with the filter');
  assert.not.ok(await rowOf(a).getByRole('checkbox').isChecked());
  await filter.selectOption('');
  await rowOf(dRetry).waitFor();
  for (const id of [a, b, c])
    await rowOf(id)
      .getByRole('checkbox', { name: `Select job ${id}` })
      .check();
  assert.is(await retrySelected.innerText(), 'Retry selected (3)');
  await page.screenshot({ path: 'test-output/console/runs-retry-selected.png' });
  // Job c is retried elsewhere while the list shows it ticked: the API refuses the second.
  const cRetry = await retryElsewhere(c);
  await retrySelected.click();

  const report = page.getByRole('region', { name: 'Retried runs' });
  await report.waitFor();
  const lines = await report.locator('li').allInnerTexts();
  assert.is(lines.length, 3);
  const newIds = lines.slice(0, 2).map((line, n) => {
    const found = new RegExp(`^Job ${[a, b][n]} retried from the failed step: job (\\d+)$`).exec(line);
    assert.ok(found, line);
    return Number(found[1]);
  });
  assert.is(
    lines[2],
    `Job ${c} not retried: Job ${c} was already retried by job ${cRetry}; if that failed too, retry job ${cRetry} (job_already_retried) Open job ${cRetry}`,
  );
  assert.ok(await report.getByRole('link', { name: `Open job ${cRetry}` }).isVisible());
  // The list is read again: the new runs appear and complete, and nothing is ticked any more.
  for (const id of newIds) await rowOf(id).locator('.status').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
  assert.is(await page.getByRole('checkbox', { checked: true }).count(), 0);
  assert.ok(await retrySelected.isDisabled());
  await page.screenshot({ path: 'test-output/console/runs-retried.png' });

  for (const [id, retry] of [
    [a, newIds[0]],
    [b, newIds[1]],
  ] as const) {
    const job = (await t.request<Body>('GET', `/jobs/${retry}`)).body.data;
    assert.equal(
      { status: job.status, retry_of: job.trigger.retry_of, from: job.trigger.retry_from },
      { status: 'completed', retry_of: id, from: 'failed_step' },
    );
  }
  // Four flows of the same five items, each posted once per flow: none twice.
  assert.equal(postCounts(remote), Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`urn:rec:${n}`, 4])));
  assert.equal(refusedOnly(problems), []);
  await page.close();
});

test('on a run’s page: a retry made elsewhere meanwhile is refused in the API’s words, and the page links to it', async ({
  t,
  browser,
  remote,
}) => {
  const failed = await failedRun(t, remote);
  remote.failAt = null;
  const { page, problems } = await watchedPage(browser, t.url);
  const reads: string[] = [];
  page.on('request', (r) => {
    if (r.method() === 'GET' && new URL(r.url()).pathname.endsWith(`/jobs/${failed}`)) reads.push(r.url());
  });
  await signInAsAdmin(page, t, `#/jobs/${failed}`);
  const button = page.getByRole('button', { name: 'Retry from the failed step' });
  await button.waitFor();
  // A run that ended is read once: a second read (the page stopping its polling re-read it)
  // could take the button away under the pointer once the retry below exists.
  await page.waitForLoadState('networkidle');
  assert.is(reads.length, 1, reads.join('\n'));
  const other = (await t.request<Body>('POST', `/jobs/${failed}/retry`, { body: { from: 'failed_step' } })).body.data.job_id as number;
  await button.click();
  const refusal = page.getByRole('alert').filter({ hasText: '(job_already_retried)' });
  await refusal.waitFor();
  assert.match(await refusal.innerText(), new RegExp(`^Job ${failed} was already retried by job ${other};`));
  const retried = page.locator('p.retried');
  await retried.waitFor();
  assert.is(await retried.innerText(), `Retried by job ${other}`);
  assert.is(await page.getByRole('button', { name: /^Retry from/ }).count(), 0);
  await page.screenshot({ path: 'test-output/console/run-retry-refused.png' });
  assert.is(page.url().endsWith(`#/jobs/${failed}`), true, 'the page stays on the failed run');
  assert.equal(refusedOnly(problems), []);
  await page.close();
});

test('Retry from the start: the new run reads the feed again and says where it started', async ({ t, browser, remote }) => {
  const failed = await failedRun(t, remote);
  remote.failAt = null;
  const reads = remote.feedRequests;
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, `#/jobs/${failed}`);
  await page.getByRole('button', { name: 'Retry from the start' }).click();
  const note = page.locator('p.retry-of');
  await note.waitFor();
  assert.is(await note.innerText(), `Retry of job ${failed} (from the start), by admin`);
  await page.locator('p .status').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
  assert.is(await page.locator('tbody tr').count(), 2, 'both steps ran');
  assert.is(remote.feedRequests, reads + 1, 'the feed was read again');
  assert.equal(problems, []);
  await page.close();
});

test.run();
