// Issue 53, "Done means", tried as a new user would in the console: the site's alerts set on
// the Settings page (every failure, e-mail and a webhook on loopback); a five-item feed whose
// publish fails at the third item, started with Run now; the failure e-mailed to the fake SMTP
// server and posted to the receiver; the run's page shows the failed step and, expanded, its
// items; the cause fixed, "Retry from the failed step" opens the retry's page, which completes
// and says "Retry of job N"; five posts in all on the fake remote, none twice; the failed run's
// page says "Retried by job M" instead of offering a second retry.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import alerts from '../../../plugins/alerts/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { newRemote, recordProbe, twoStepFlow, type Remote } from '../../support/run-record-probe.js';
import { startSmtp, waitFor, type SmtpCapture } from '../billing/helpers.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const STORIES = [1, 2, 3, 4, 5].map((n) => `urn:rec:${n}`);

type Ctx = { t: TestHost; browser: Browser; remote: Remote; receiver: FakeServer; smtp: SmtpCapture; flowId: number; failedId: number };
const test = suite<Ctx>('console: a failed run retried from its failed step, as a new user would');
test.before(async (ctx) => {
  ctx.remote = newRemote();
  ctx.receiver = await createFakeServer(() => ({ status: 204 }));
  ctx.smtp = await startSmtp();
  ctx.t = await createTestHost({
    plugins: [recordProbe(ctx.remote), alerts],
    config: {
      allowPrivateUrls: true,
      pluginSettings: { alerts: { smtp_host: '127.0.0.1', smtp_port: ctx.smtp.port, mail_from: 'flowhost@example.test' } },
    },
  });
  ctx.flowId = (await twoStepFlow(ctx.t)).flowId;
  ctx.browser = await launchChromium('console retry');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
  await ctx.receiver?.close();
  await ctx.smtp?.close();
});

test('alerts on every failure, to an e-mail address and a webhook, set on the Settings page', async ({ t, browser, receiver }) => {
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, '#/settings');
  const form = page.getByRole('form', { name: 'Site alerts' });
  await form.getByLabel('When').selectOption('every_failure');
  await form.getByLabel('E-mail to').fill('ops@example.test');
  await form.getByLabel('Webhook URL').fill(`${receiver.url}/hook`);
  await form.getByRole('button', { name: 'Save alerts' }).click();
  await form.getByRole('status').filter({ hasText: 'Alert settings saved.' }).waitFor();
  assert.equal(problems, []);
  await page.close();
});

test('Run now: publish fails at item 3; the failure is e-mailed and posted; the run page shows the failed step and its items', async (ctx) => {
  const { t, browser, remote, receiver, smtp, flowId } = ctx;
  remote.failAt = 3;
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, `#/flows/${flowId}`);
  await page.getByRole('button', { name: 'Run now' }).click();
  await page.getByRole('status').filter({ hasText: 'Run started.' }).waitFor();
  const run = page.locator('.runs li').first();
  await run.getByText('failed', { exact: true }).waitFor({ timeout: 15_000 });
  await run.getByRole('link').click();
  const heading = page.getByRole('heading', { name: /^Job \d+$/ });
  await heading.waitFor();
  ctx.failedId = Number((await heading.innerText()).replace('Job ', ''));
  assert.equal(remote.posted, STORIES.slice(0, 2), 'items 1 and 2 were posted before the remote refused');

  await page.locator('p .status').filter({ hasText: 'failed' }).waitFor();
  const row = page.locator('tbody tr').nth(1);
  assert.match(await row.innerText(), /publish \(rec-pub\)\s+failed\s+5 → \d+\s+remote refused item 3/);
  const publish = page.locator('details.step-record').filter({ hasText: 'Step 2: publish (rec-pub)' });
  await publish.locator('summary').first().click();
  const input = publish.getByRole('region', { name: 'Input' });
  assert.equal(
    await input.locator('li > details > summary').allInnerTexts(),
    [1, 2, 3, 4, 5].map((n) => `Story ${n}`),
    'the failed step’s input, item by item',
  );
  assert.ok(await page.getByRole('button', { name: 'Retry from the failed step' }).isVisible());
  assert.ok(await page.getByRole('button', { name: 'Retry from the start' }).isVisible());
  await page.screenshot({ path: 'test-output/console/run-failed-retry.png', fullPage: true });

  const hook = await waitFor('the webhook alert', () => receiver.requests.find((r) => r.json<Body>().event === 'flow.failed'));
  const body = hook.json<Body>();
  assert.equal({ flow_id: body.flow_id, job_id: body.job_id }, { flow_id: flowId, job_id: ctx.failedId });
  assert.match(body.error, /remote refused item 3/);
  const mail = await waitFor('the alert e-mail', () => smtp.mails.find((m) => m.raw.includes('"Recorded flow" failed')));
  assert.equal(mail.to, ['ops@example.test']);
  assert.match(mail.raw, new RegExp(`Job: ${ctx.failedId}`));
  assert.match(mail.raw, /remote refused item 3/);
  assert.equal(problems, []);
  await page.close();
});

test('the cause fixed, Retry from the failed step: its page completes and says so; five posts in all, none twice', async (ctx) => {
  const { t, browser, remote, failedId } = ctx;
  remote.failAt = null;
  const { page, problems } = await watchedPage(browser, t.url);
  await signInAsAdmin(page, t, `#/jobs/${failedId}`);
  await page.getByRole('button', { name: 'Retry from the failed step' }).click();
  // The retry's own page opens: a new job, saying which run it retries and from where.
  const heading = page.getByRole('heading', { name: new RegExp(`^Job (?!${failedId}$)\\d+$`) });
  await heading.waitFor();
  const retryId = Number((await heading.innerText()).replace('Job ', ''));
  assert.ok(retryId > failedId);
  const note = page.locator('p.retry-of');
  await note.waitFor();
  assert.is(await note.innerText(), `Retry of job ${failedId} (from the failed step), by admin`);
  await page.locator('p .status').filter({ hasText: 'completed' }).waitFor({ timeout: 15_000 });
  await page.screenshot({ path: 'test-output/console/run-retry.png', fullPage: true });
  const publish = page.locator('tbody tr').filter({ hasText: 'publish (rec-pub)' });
  // Its recorded input again (items 1 and 2 pass through as published, not posted again).
  assert.match(await publish.innerText(), /^2\s+publish \(rec-pub\)\s+completed\s+5 → 5/, 'numbered as in the failed run');
  assert.is(await page.locator('tbody tr').count(), 1, 'the fetch step was not run again');
  assert.equal([...remote.posted].sort(), STORIES, 'five posts in all, none twice');
  assert.is(remote.feedRequests, 1, 'the feed was not read again');

  // Back to the failed run: it links to its retry and offers no second one.
  await note.getByRole('link', { name: `job ${failedId}` }).click();
  await page.getByRole('heading', { name: `Job ${failedId}` }).waitFor();
  const retried = page.locator('p.retried');
  await retried.waitFor();
  assert.is(await retried.innerText(), `Retried by job ${retryId}`);
  assert.is(await page.getByRole('button', { name: /^Retry from/ }).count(), 0);
  await page.screenshot({ path: 'test-output/console/run-retried.png', fullPage: true });
  await retried.getByRole('link', { name: `job ${retryId}` }).click();
  await page.getByRole('heading', { name: `Job ${retryId}` }).waitFor();

  const api = (await t.request<Body>('GET', `/jobs/${failedId}`)).body.data;
  assert.is(api.trigger.retried_by, retryId);
  assert.equal(problems, []);
  await page.close();
});

test.run();
