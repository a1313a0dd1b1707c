// Issue 53: the alerts plugin's settings in the console. With the plugin loaded, the
// Settings page has the site's alerts and a flow's page its own (an edit there is one of the
// page's unsaved changes, saved by its Save changes): a refused value is shown
// beside its field; the saved values come back after a reload, the signing secret only as
// "set" (never in a field or any answer the page receives); the API holds what was saved;
// and a failing run of the flow reaches the fake webhook receiver on 127.0.0.1, signed with
// the flow's secret, and the fake SMTP server. Without the plugin neither page shows an
// alerts section, and nothing asks for the plugin's routes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import alerts from '../../../plugins/alerts/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { handlerPlugin } from '../../support/handler-plugin.js';
import { startSmtp, waitFor, type SmtpCapture } from '../billing/helpers.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const SITE_SECRET = 'site-signing-secret-0123456789';
const FLOW_SECRET = 'flow-signing-secret-9876543210';

const fixtures = handlerPlugin('alerts-console', [
  defineHandler({
    slug: 'always-fails',
    type: 'fetch',
    label: 'Always fails',
    description: 'A remote that always refuses.',
    async fetch() {
      throw new Error('the remote refused');
    },
  }),
]);

async function failingFlow(t: TestHost, name: string): Promise<number> {
  const pipeline = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: name, steps: [{ step_type: 'fetch' }] } })).body
    .data;
  const stepId = (await t.request<Body>('GET', `/pipelines/${pipeline.pipeline_id}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
  const flow = await t.request<Body>('POST', '/flows', {
    body: { pipeline_id: pipeline.pipeline_id, flow_name: name, flow_config: { [stepId]: { handler_slug: 'always-fails' } } },
  });
  return flow.body.data.flow_id;
}

/** Every answer body the page receives, to look for a secret in. */
function answersOf(page: Page): Array<Promise<string>> {
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) =>
    bodies.push(
      response.body().then(
        (b) => b.toString('utf8'),
        () => '',
      ),
    ),
  );
  return bodies;
}

type Ctx = { t: TestHost; browser: Browser; receiver: FakeServer; smtp: SmtpCapture; flowId: number };
const test = suite<Ctx>('console: alert settings with the alerts plugin');
test.before(async (ctx) => {
  ctx.receiver = await createFakeServer(() => ({ status: 204 }));
  ctx.smtp = await startSmtp();
  ctx.t = await createTestHost({
    plugins: [fixtures, alerts],
    config: {
      allowPrivateUrls: true,
      pluginSettings: { alerts: { smtp_host: '127.0.0.1', smtp_port: ctx.smtp.port, mail_from: 'flowhost@example.test' } },
    },
  });
  ctx.flowId = await failingFlow(ctx.t, 'Nightly import');
  ctx.browser = await launchChromium('console alerts');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
  await ctx.receiver?.close();
  await ctx.smtp?.close();
});

test("the site's alerts: a refused URL is shown at its field; saved values come back after a reload, the secret only as set", async ({
  t,
  browser,
  receiver,
}) => {
  const { page, problems } = await watchedPage(browser, t.url);
  const answers = answersOf(page);
  await signInAsAdmin(page, t, '#/settings');
  const form = page.getByRole('form', { name: 'Site alerts' });
  await form.waitFor();
  assert.is(await form.getByLabel('Send alerts').inputValue(), 'on', 'the stored value (the default)');

  const url = form.getByLabel('Webhook URL');
  await url.fill('ftp://example.test/hook');
  await form.getByRole('button', { name: 'Save alerts' }).click();
  const note = page.locator('#alerts-site-webhook_url-error').getByRole('alert');
  await note.waitFor();
  assert.match(await note.innerText(), /webhook_url must match pattern .*\(rest_invalid_param\)/);
  assert.is(await url.getAttribute('aria-invalid'), 'true');
  assert.is(await form.getByRole('alert').count(), 1, 'shown once, at the field');

  await url.fill(`${receiver.url}/hook`);
  await form.getByLabel('When').selectOption('every_failure');
  await form.getByLabel('E-mail to').fill('ops@example.test, oncall@example.test');
  const secret = form.getByLabel('Webhook signing secret');
  assert.is(await secret.getAttribute('type'), 'password');
  await secret.fill(SITE_SECRET);
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith('/alerts'));
  await form.getByRole('button', { name: 'Save alerts' }).click();
  assert.equal(
    (await put).postDataJSON(),
    {
      notify: 'every_failure',
      webhook_url: `${receiver.url}/hook`,
      email_to: ['ops@example.test', 'oncall@example.test'],
      webhook_secret: SITE_SECRET,
    },
    'only what changed is sent',
  );
  await form.getByRole('status').filter({ hasText: 'Alert settings saved.' }).waitFor();
  assert.is(await secret.inputValue(), '', 'what was typed is not kept');

  await page.reload();
  const again = page.getByRole('form', { name: 'Site alerts' });
  await again.waitFor();
  assert.is(await again.getByLabel('Webhook URL').inputValue(), `${receiver.url}/hook`);
  assert.is(await again.getByLabel('When').inputValue(), 'every_failure');
  assert.is(await again.getByLabel('E-mail to').inputValue(), 'ops@example.test, oncall@example.test');
  assert.is(await again.getByLabel('Webhook signing secret').inputValue(), '');
  assert.ok(await again.getByText('A secret is set; leave blank to keep it.').isVisible());

  // A test alert with the saved settings: the receiver gets it, signed with the site's secret.
  await again.locator('xpath=..').getByRole('button', { name: 'Send a test alert' }).click();
  const tested = page.getByRole('status', { name: 'Test alert' });
  await tested.waitFor();
  assert.equal((await tested.innerText()).split('\n').sort(), ['email: sent', 'webhook: sent']);
  const probe = receiver.requests.find((r) => r.json<Body>().event === 'flow.test');
  assert.ok(probe, 'the receiver got the test alert');
  assert.is(probe.headers['x-flowhost-signature'], `sha256=${createHmac('sha256', SITE_SECRET).update(probe.body).digest('hex')}`);
  await page.screenshot({ path: 'test-output/console/alerts-site.png', fullPage: true });

  const stored = (await t.request<Body>('GET', '/alerts')).body.data;
  assert.equal(
    { url: stored.webhook_url, notify: stored.notify, email: stored.email_to, secret: stored.webhook_secret_set },
    { url: `${receiver.url}/hook`, notify: 'every_failure', email: ['ops@example.test', 'oncall@example.test'], secret: true },
  );
  assert.not.ok(
    (await Promise.all(answers)).some((b) => b.includes(SITE_SECRET)),
    'the secret never reaches the page',
  );
  assert.equal(
    problems.filter((p) => !p.startsWith('400 PUT') && !p.includes('status of 400')),
    [],
  );
  await page.close();
});

test("a flow's own alerts: saved over the site's, shown after a reload; its failure reaches the receiver, signed with its secret, and the SMTP server", async ({
  t,
  browser,
  receiver,
  smtp,
  flowId,
}) => {
  const { page, problems } = await watchedPage(browser, t.url);
  const answers = answersOf(page);
  await signInAsAdmin(page, t, `#/flows/${flowId}`);
  const form = page.getByRole('form', { name: "This flow's alerts" });
  await form.waitFor();
  assert.is(await form.getByLabel('When').inputValue(), '', "left to the site's");
  assert.ok(await form.getByText("Site's: every failure").isVisible(), "the site's value is named");
  await form.getByLabel('At most one alert per flow and channel in (minutes)').fill('0');
  await form.getByLabel('Webhook signing secret').fill(FLOW_SECRET);
  // The edit is one of the page's unsaved changes: its one Save changes saves it.
  const saveBar = page.getByRole('region', { name: 'Save changes' });
  assert.is(await saveBar.getByRole('status').innerText(), 'Unsaved changes: Alerts.');
  await saveBar.getByRole('button', { name: 'Save changes' }).click();
  await saveBar.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
  await form.getByRole('status').filter({ hasText: 'Alert settings saved.' }).waitFor();
  assert.is(await form.getByLabel('Webhook signing secret').inputValue(), '', 'what was typed is not kept');

  await page.reload();
  const again = page.getByRole('form', { name: "This flow's alerts" });
  await again.waitFor();
  assert.is(await again.getByLabel('At most one alert per flow and channel in (minutes)').inputValue(), '0');
  assert.is(await again.getByLabel('Webhook URL').inputValue(), '', "the URL is the site's");
  assert.is(await again.getByLabel('Webhook signing secret').inputValue(), '');
  assert.ok(await again.getByText('A secret is set; leave blank to keep it.').isVisible());
  await again.scrollIntoViewIfNeeded();
  await page.screenshot({ path: 'test-output/console/alerts-flow.png', fullPage: true });

  const stored = (await t.request<Body>('GET', `/flows/${flowId}/alerts`)).body.data;
  const { webhook_secret: masked, ...own } = stored.flow;
  assert.equal(own, { window_minutes: 0, webhook_secret_set: true }, 'only what the flow overrides');
  assert.match(masked, /^••••••••/, 'the secret answered masked');
  assert.is(stored.effective.webhook_url, `${receiver.url}/hook`);
  assert.not.ok(
    (await Promise.all(answers)).some((b) => b.includes(FLOW_SECRET)),
    'the secret never reaches the page',
  );

  assert.is((await t.executeAndWait({ flow_id: flowId })).status, 'failed');
  const alert = await waitFor('the webhook alert', () => receiver.requests.find((r) => r.json<Body>().event === 'flow.failed'));
  const body = alert.json<Body>();
  assert.equal({ event: body.event, flow_id: body.flow_id }, { event: 'flow.failed', flow_id: flowId });
  assert.match(body.error, /the remote refused/);
  const expected = `sha256=${createHmac('sha256', FLOW_SECRET).update(alert.body).digest('hex')}`;
  assert.is(alert.headers['x-flowhost-signature'], expected, "signed with the flow's own secret");
  const mail = await waitFor('the alert e-mail', () => smtp.mails.find((m) => m.raw.includes('"Nightly import" failed')));
  assert.equal(mail.to, ['ops@example.test', 'oncall@example.test']);

  // A field emptied goes back to the site's; the flow's own secret can be removed the same way.
  await again.getByLabel('At most one alert per flow and channel in (minutes)').fill('');
  await again.getByLabel("Remove this flow's secret (use the site's)").check();
  const put = page.waitForRequest((r) => r.method() === 'PUT' && r.url().endsWith(`/flows/${flowId}/alerts`));
  await again.getByRole('button', { name: 'Save alerts' }).click();
  assert.equal((await put).postDataJSON(), { window_minutes: null, webhook_secret: null });
  await again.getByRole('status').filter({ hasText: 'Alert settings saved.' }).waitFor();
  assert.ok(await again.getByText('None of its own.', { exact: false }).isVisible(), 'no secret of its own now');
  assert.equal((await t.request<Body>('GET', `/flows/${flowId}/alerts`)).body.data.flow, {}, "all the site's again");
  assert.equal(problems, []);
  await page.close();
});

test.run();

const without = suite<{ t: TestHost; browser: Browser; flowId: number }>('console: no alerts section without the alerts plugin');
without.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [fixtures] });
  ctx.flowId = await failingFlow(ctx.t, 'Quiet flow');
  ctx.browser = await launchChromium('console without alerts');
});
without.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

without('neither the Settings page nor a flow page shows alerts, and nothing asks for them', async ({ t, browser, flowId }) => {
  const { page, problems } = await watchedPage(browser, t.url);
  const asked: string[] = [];
  page.on('request', (request) => {
    if (request.url().includes('/api/automation/v1/') && /\/alerts(\/|\?|$)/.test(request.url())) asked.push(request.url());
  });
  // The console learns the routes from the API index once per page load: each page is
  // judged after the index has been read and the page drawn from it.
  const indexRead = async () => {
    const answer = await page.waitForResponse((r) => r.url() === `${t.url}/api/`);
    assert.is(answer.status(), 200);
    await answer.finished();
    // Two frames: the index's answer is read, then the page drawn from it.
    await page.evaluate(() => {
      const frame = (globalThis as unknown as { requestAnimationFrame(f: () => void): void }).requestAnimationFrame;
      return new Promise<void>((resolve) => frame(() => frame(resolve)));
    });
  };
  let read = indexRead();
  await signInAsAdmin(page, t, '#/settings');
  await page.getByRole('button', { name: 'Save settings' }).waitFor();
  await read;
  assert.is(await page.getByRole('heading', { name: 'Alerts', exact: true }).count(), 0);
  assert.is(await page.getByRole('form', { name: 'Site alerts' }).count(), 0);

  read = indexRead();
  await page.goto('about:blank');
  await page.goto(`${t.url}/admin/#/flows/${flowId}`);
  await page.getByRole('heading', { name: 'Latest runs' }).waitFor();
  await read;
  assert.is(await page.getByRole('heading', { name: 'Alerts', exact: true }).count(), 0);
  await page.screenshot({ path: 'test-output/console/alerts-absent-flow.png', fullPage: true });
  assert.equal(asked, [], 'no call to the missing routes');
  assert.equal(problems, []);
  await page.close();
});

without.run();
