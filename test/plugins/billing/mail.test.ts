// Billing e-mail on both stores: the SMTP server down at first (the webhook still answers
// at once, the mail waits in the outbox with its error) delivers once it is back; SMTP
// authentication with a password sealed through PUT /settings; a host's template file
// replaces the built-in one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { captureLogger } from '../../support/capture-logger.js';
import billing from '../../../plugins/billing/index.js';
import {
  checkoutSubscription,
  freePort,
  INTERNAL_KEY,
  NS,
  provision,
  sendEvent,
  startSmtp,
  TOKEN,
  WHSEC,
  waitFor,
  type Body,
  type ReceivedMail,
  type SmtpCapture,
} from './helpers.js';

const SMTP_PASSWORD = 'smtp-password-0123456789';

for (const store of testStores('billing mail')) {
  const test = suite<{ t: TestHost; port: number; dir: string; smtp?: SmtpCapture; mails: ReceivedMail[]; lines: string[] }>(
    `billing mail outbox (${store.label})`,
  );
  test.before(async (ctx) => {
    ctx.port = await freePort();
    ctx.mails = [];
    ctx.dir = mkdtempSync(join(tmpdir(), 'billing-templates-'));
    writeFileSync(
      join(ctx.dir, 'welcome.txt'),
      'Subject: Welcome aboard, {{plan}} customer\nYour shop lives at {{site_url}} (site {{site_id}}).\n',
    );
    const log = captureLogger();
    ctx.lines = log.lines;
    ctx.t = await createTestHost({
      plugins: [billing],
      logger: log,
      config: {
        ...store.config(),
        pluginSettings: {
          billing: {
            internal_key: INTERNAL_KEY,
            provisioner_token: TOKEN,
            stripe_webhook_secret: WHSEC,
            smtp_host: '127.0.0.1',
            smtp_port: ctx.port,
            smtp_user: 'mailer',
            templates_dir: ctx.dir,
            sweep_interval: '1 second',
            mail_retry_seconds: 60,
          },
        },
      },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.smtp?.close();
    rmSync(ctx.dir, { recursive: true, force: true });
  });

  test('the SMTP password is saved sealed and shown masked', async ({ t }) => {
    const put = await t.request<Body>('PUT', '/settings', { namespace: NS, body: { smtp_password: SMTP_PASSWORD } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.equal({ ...put.body.data.smtp_password, value: undefined }, { configured: true, source: 'saved', value: undefined });
    assert.match(put.body.data.smtp_password.value, new RegExp(`^•+${SMTP_PASSWORD.slice(-4)}$`));
    assert.is(put.body.data.internal_key.source, 'config');
    assert.not.ok(JSON.stringify(put.body).includes(SMTP_PASSWORD));
    const doc = await t.host.store.collection('billing__settings').findOne({ _id: 'secrets' });
    assert.match(String(doc?.smtp_password), /^fhv1:/);
    assert.not.ok(JSON.stringify(doc).includes(SMTP_PASSWORD));
    // The masked value sent back keeps the saved one.
    await t.request<Body>('PUT', '/settings', { namespace: NS, body: { smtp_password: put.body.data.smtp_password.value } });
    assert.is((await t.host.store.collection('billing__settings').findOne({ _id: 'secrets' }))?.smtp_password, doc?.smtp_password);
  });

  test('SMTP down: the webhook answers at once and the mail waits in the outbox with its error', async ({ t }) => {
    assert.is((await sendEvent(t, checkoutSubscription('evt_m1', 'sub_mail', 1, 'mail@customer.test', 'gold'))).status, 200);
    const started = Date.now();
    const res = await provision(t, {
      event: 'provisioning_complete',
      event_id: 'prov-m1',
      subscription_id: 'sub_mail',
      site_id: 's1',
      site_url: 'https://gold.customer.test/',
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(Date.now() - started < 2000, 'the answer did not wait for SMTP');
    const pending = await waitFor('a failed attempt', async () => {
      const list = await t.request<Body>('GET', '/mail', { namespace: NS, query: { status: 'pending' } });
      const mail = list.body.data[0];
      return mail && mail.attempts >= 1 ? mail : null;
    });
    assert.is(pending.to, 'mail@customer.test');
    assert.is(pending.template, 'welcome');
    assert.ok(pending.last_error, 'the SMTP error is kept');
    assert.is(pending.attempts, 1, 'the next try waits for its delay (60 s on the fake clock)');
  });

  test('…and delivers once the server is back (with the sealed password, the host template)', async (ctx) => {
    const { t } = ctx;
    ctx.smtp = await startSmtp(ctx.port, ctx.mails, { user: 'mailer', pass: SMTP_PASSWORD });
    t.clock.advance(61_000);
    const mail = await waitFor('the delivery', () => ctx.mails[0]);
    assert.equal(mail.to, ['mail@customer.test']);
    assert.match(mail.raw, 'Subject: Welcome aboard, gold customer');
    assert.match(mail.raw, 'Your shop lives at https://gold.customer.test/ (site s1).');
    const sent = await waitFor('the outbox to say sent', async () => {
      const list = await t.request<Body>('GET', '/mail', { namespace: NS, query: { status: 'sent' } });
      return list.body.data[0];
    });
    assert.is(sent.attempts, 2);
    assert.is(sent.next_attempt_at, null);
    assert.is((await t.request<Body>('GET', '/mail', { namespace: NS, query: { status: 'pending' } })).body.total, 0);
    for (const line of ctx.lines) assert.not.ok(line.includes(SMTP_PASSWORD), 'the SMTP password was logged');
  });

  test.run();
}
