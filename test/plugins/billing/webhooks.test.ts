// The billing plugin's two webhooks on both stores, as a provisioner and Stripe would use
// them: a subscription walked from checkout through provisioning (welcome e-mail at a
// local SMTP server), invoice paid, payment failed, an out-of-order invoice, cancellation
// (cancellation e-mail) and deletion after the grace period on the fake clock; wrong
// credentials, tampered and replayed events; every error row of the provisioner.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { captureLogger } from '../../support/capture-logger.js';
import billing from '../../../plugins/billing/index.js';
import {
  checkoutSubscription,
  event,
  INTERNAL_KEY,
  invoice,
  mailText,
  NS,
  provision,
  sendEvent,
  startSmtp,
  subscription,
  subscriptionDeleted,
  TOKEN,
  WHSEC,
  waitFor,
  type Body,
  type SmtpCapture,
} from './helpers.js';

const DAY = 86_400_000;
const SUB = 'sub_walk1';
const EMAIL = 'owner@customer.test';
const provisioned = (eventId = 'prov-1') => ({
  event: 'provisioning_complete',
  event_id: eventId,
  subscription_id: SUB,
  site_id: 'site-42',
  site_url: 'https://shop.customer.test/',
  plan: 'pro',
  provisioned_at: '2026-01-02T03:04:05.000Z',
});

for (const store of testStores('billing webhooks')) {
  const test = suite<{ t: TestHost; smtp: SmtpCapture; lines: string[] }>(`billing webhooks (${store.label})`);
  test.before(async (ctx) => {
    ctx.smtp = await startSmtp();
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
            smtp_port: ctx.smtp.port,
            mail_from: 'billing@host.test',
            sweep_interval: '1 second',
            grace_period_days: 14,
            timezone: 'Europe/Berlin',
            locale: 'en-GB',
          },
        },
      },
    });
  });
  test.after(async ({ t, smtp }) => {
    await t.stop();
    await smtp.close();
  });

  test('checkout (subscription mode) creates the subscription, pending', async ({ t }) => {
    const res = await sendEvent(t, checkoutSubscription('evt_w1', SUB, 1000, EMAIL));
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(
      { ...res.body.data, subscription: undefined },
      {
        event_id: 'evt_w1',
        type: 'checkout.session.completed',
        duplicate: false,
        outcome: 'subscription_created',
        subscription: undefined,
      },
    );
    const sub = await subscription(t, SUB);
    assert.is(sub.status, 'pending');
    assert.is(sub.email, EMAIL);
    assert.is(sub.plan, 'pro');
    assert.is(sub.customer_id, 'cus_1');
    assert.is(sub.provisioned, false);
  });

  test('provisioner: wrong or missing key or token is 401 and changes nothing; the log says why, never the values', async ({
    t,
    lines,
  }) => {
    const wrong: Array<Record<string, string>> = [
      { 'X-Provisioner-Internal-Key': 'nope', Authorization: `Bearer ${TOKEN}` },
      { 'X-Provisioner-Internal-Key': INTERNAL_KEY, Authorization: 'Bearer nope' },
      { 'X-Provisioner-Internal-Key': INTERNAL_KEY },
      { Authorization: `Bearer ${TOKEN}` },
      { 'X-Provisioner-Internal-Key': INTERNAL_KEY, Authorization: `Basic ${Buffer.from(`a:${TOKEN}`).toString('base64')}` },
      {},
    ];
    for (const headers of wrong) {
      const res = await provision(t, provisioned(), headers);
      assert.is(res.status, 401, JSON.stringify(headers));
      assert.is(res.body.code, 'provisioner_unauthorized');
      assert.is(res.body.data.status, 401);
    }
    // Refused before the body is read: even a malformed one is 401, not 400.
    assert.is((await provision(t, '{not json', { 'X-Provisioner-Internal-Key': 'x', Authorization: 'Bearer y' })).status, 401);
    const sub = await subscription(t, SUB);
    assert.is(sub.provisioned, false);
    assert.is(sub.events.length, 1);
    const refusals = lines.filter((l) => l.includes('Provisioner webhook refused'));
    assert.ok(refusals.some((l) => l.includes('wrong internal key')));
    assert.ok(refusals.some((l) => l.includes('wrong bearer token')));
    assert.ok(refusals.some((l) => l.includes('no X-Provisioner-Internal-Key header')));
    for (const l of lines) {
      assert.not.ok(l.includes(INTERNAL_KEY), 'internal key logged');
      assert.not.ok(l.includes(TOKEN), 'token logged');
    }
  });

  test('provisioner: malformed bodies are 400 naming the field; an unknown event 400 with the supported ones; an unknown subscription 404', async ({
    t,
  }) => {
    const cases: Array<[unknown, string, string]> = [
      ['{not json', 'invalid_payload', 'body'],
      ['[1]', 'invalid_payload', 'body'],
      [{ event_id: 'x' }, 'invalid_payload', 'event'],
      [{ ...provisioned(), event_id: undefined }, 'invalid_payload', 'event_id'],
      [{ ...provisioned(), event_id: 'bad id with spaces' }, 'invalid_payload', 'event_id'],
      [{ ...provisioned(), subscription_id: 7 }, 'invalid_payload', 'subscription_id'],
      [{ ...provisioned(), site_url: 'ftp://x' }, 'invalid_payload', 'site_url'],
      [{ ...provisioned(), site_url: undefined }, 'invalid_payload', 'site_url'],
      [{ ...provisioned(), plan: '' }, 'invalid_payload', 'plan'],
      [{ ...provisioned(), email: 'not-an-address' }, 'invalid_payload', 'email'],
      [{ ...provisioned(), provisioned_at: 'yesterday' }, 'invalid_payload', 'provisioned_at'],
    ];
    for (const [body, code, field] of cases) {
      const res = await provision(t, body);
      assert.is(res.status, 400, JSON.stringify(body));
      assert.is(res.body.code, code);
      assert.is(res.body.data.field, field, JSON.stringify(res.body));
      assert.match(res.body.message, field);
    }
    const unknown = await provision(t, { ...provisioned(), event: 'site_suspended' });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'unsupported_event');
    assert.equal(unknown.body.data.supported, ['provisioning_complete']);
    const missing = await provision(t, { ...provisioned('prov-x'), subscription_id: 'sub_nobody' });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'subscription_not_found');
    assert.is((await subscription(t, SUB)).provisioned, false);
  });

  test('provisioning_complete provisions the subscription and the welcome e-mail arrives; a repeat does nothing again', async ({
    t,
    smtp,
  }) => {
    const res = await provision(t, provisioned());
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.data.duplicate, false);
    assert.is(res.body.data.outcome, 'provisioned');
    assert.is(res.body.data.subscription.site_url, 'https://shop.customer.test/');
    const sub = await subscription(t, SUB);
    assert.is(sub.provisioned, true);
    assert.is(sub.site_id, 'site-42');
    assert.is(sub.provisioned_at, '2026-01-02T03:04:05.000Z');
    assert.is(sub.status, 'pending', 'provisioning does not change the payment status');
    const mail = await waitFor('the welcome e-mail', () => smtp.mails.find((m) => m.raw.includes('Your site is ready')));
    assert.equal(mail.to, [EMAIL]);
    assert.is(mail.from, 'billing@host.test');
    assert.match(mail.raw, 'https://shop.customer.test/');
    const again = await provision(t, { ...provisioned(), site_url: 'https://elsewhere.test/' });
    assert.is(again.status, 200);
    assert.is(again.body.data.duplicate, true);
    await t.nextJobRun('billing', 'deliver-mail'); // a sweep has run: it sent nothing more
    assert.is(smtp.mails.filter((m) => m.raw.includes('Your site is ready')).length, 1);
    assert.is((await subscription(t, SUB)).site_url, 'https://shop.customer.test/');
  });

  test('invoice paid: active, renewal time from the invoice period', async ({ t }) => {
    const res = await sendEvent(t, invoice('evt_w2', 'invoice.paid', SUB, 2000, 1_800_000_000));
    assert.is(res.status, 200);
    assert.is(res.body.data.outcome, 'activated');
    const sub = await subscription(t, SUB);
    assert.is(sub.status, 'active');
    assert.is(sub.renews_at, new Date(1_800_000_000_000).toISOString());
  });

  test('invoice payment failed: payment_failed; an older invoice.paid arriving late does not reactivate; a newer one does', async ({
    t,
  }) => {
    assert.is((await sendEvent(t, invoice('evt_w3', 'invoice.payment_failed', SUB, 3000))).body.data.outcome, 'payment_failed');
    assert.is((await subscription(t, SUB)).status, 'payment_failed');
    const late = await sendEvent(t, invoice('evt_w3_late', 'invoice.paid', SUB, 2500, 1_900_000_000));
    assert.is(late.status, 200);
    assert.is(late.body.data.outcome, 'ignored_stale');
    let sub = await subscription(t, SUB);
    assert.is(sub.status, 'payment_failed');
    assert.is(sub.renews_at, new Date(1_800_000_000_000).toISOString());
    assert.is((await sendEvent(t, invoice('evt_w4', 'invoice.paid', SUB, 4000, 1_900_000_000))).body.data.outcome, 'activated');
    sub = await subscription(t, SUB);
    assert.is(sub.status, 'active');
    assert.is(sub.renews_at, new Date(1_900_000_000_000).toISOString());
  });

  test('Stripe signatures: the same event resent changes nothing; tampered, wrong secret, stale or missing signatures are 401', async ({
    t,
    lines,
  }) => {
    const failed = invoice('evt_w3', 'invoice.payment_failed', SUB, 3000);
    const resent = await sendEvent(t, failed);
    assert.is(resent.status, 200);
    assert.is(resent.body.data.duplicate, true);
    assert.is(resent.body.data.outcome, 'payment_failed');
    assert.is((await subscription(t, SUB)).status, 'active');

    const fresh = invoice('evt_tamper', 'invoice.payment_failed', SUB, 9000);
    const refusals = [
      await sendEvent(t, fresh, { tamper: (p) => p.replace('"created":9000', '"created":9001') }),
      await sendEvent(t, fresh, { secret: 'whsec_someone_else' }),
      await sendEvent(t, fresh, { timestamp: Math.floor(Date.now() / 1000) - 3600 }),
      await t.request<Body>('POST', '/webhook/payments', { namespace: NS, as: 'anonymous', body: JSON.stringify(fresh) }),
      await t.request<Body>('POST', '/webhook/payments', {
        namespace: NS,
        as: 'anonymous',
        body: JSON.stringify(fresh),
        headers: { 'Stripe-Signature': 't=1,v1=00' },
      }),
    ];
    for (const res of refusals) {
      assert.is(res.status, 401, JSON.stringify(res.body));
      assert.is(res.body.code, 'payment_signature_invalid');
    }
    const sub = await subscription(t, SUB);
    assert.is(sub.status, 'active');
    assert.not.ok(sub.events.some((e: Body) => e.id === 'evt_tamper'));
    const logged = lines.filter((l) => l.includes('Payment webhook refused'));
    assert.ok(
      logged.some((l) => l.includes('No signatures found matching')),
      'the reason is logged',
    );
    assert.ok(logged.some((l) => l.includes('no Stripe-Signature header')));
    assert.ok(logged.some((l) => /timestamp outside the tolerance zone/i.test(l)));
    for (const l of lines) assert.not.ok(l.includes(WHSEC), 'the endpoint secret was logged');
  });

  test('a signature timestamped beyond the tolerance in the future is 401 too; a small clock skew is accepted', async ({ t, lines }) => {
    const now = Math.floor(Date.now() / 1000);
    const future = await sendEvent(t, invoice('evt_future', 'invoice.payment_failed', SUB, 9500), { timestamp: now + 3600 });
    assert.is(future.status, 401, JSON.stringify(future.body));
    assert.is(future.body.code, 'payment_signature_invalid');
    const edge = await sendEvent(t, invoice('evt_future_edge', 'invoice.payment_failed', SUB, 9500), { timestamp: now + 330 });
    assert.is(edge.status, 401, 'just past the 300 s tolerance');
    const sub = await subscription(t, SUB);
    assert.is(sub.status, 'active', 'a refused event changes nothing');
    assert.not.ok(sub.events.some((e: Body) => e.id === 'evt_future' || e.id === 'evt_future_edge'));
    assert.ok(
      lines.some((l) => l.includes('Payment webhook refused') && /in the future/.test(l)),
      'the reason is logged',
    );
    // A sender whose clock runs a minute ahead is still within the tolerance.
    const skewed = await sendEvent(t, event('evt_skewed', 'customer.updated', 9600, { id: 'cus_1' }), { timestamp: now + 60 });
    assert.is(skewed.status, 200, JSON.stringify(skewed.body));
  });

  test('a signed body that is no event is 400 naming the field; other event types are acknowledged and ignored', async ({ t }) => {
    const notJson = await sendEvent(t, 'not json at all');
    assert.is(notJson.status, 400);
    assert.is(notJson.body.code, 'invalid_payload');
    const noObject = await sendEvent(t, JSON.stringify({ id: 'evt_x', type: 'invoice.paid', created: 1 }));
    assert.is(noObject.status, 400);
    assert.is(noObject.body.data.field, 'data.object');
    const noId = await sendEvent(t, JSON.stringify({ type: 'invoice.paid', created: 1, data: { object: {} } }));
    assert.is(noId.body.data.field, 'id');
    const other = await sendEvent(t, { id: 'evt_other', type: 'customer.updated', created: 5, data: { object: { id: 'cus_1' } } });
    assert.is(other.status, 200);
    assert.equal(other.body.data, {
      event_id: 'evt_other',
      type: 'customer.updated',
      duplicate: false,
      outcome: 'ignored',
      subscription: null,
    });
  });

  test('subscription deleted: canceled, cancellation e-mail, deletion after the grace period (fake clock)', async ({ t, smtp }) => {
    const res = await sendEvent(t, subscriptionDeleted('evt_w5', SUB, 5000));
    assert.is(res.status, 200);
    assert.is(res.body.data.outcome, 'deletion_scheduled');
    let sub = await subscription(t, SUB);
    assert.is(sub.status, 'canceled');
    assert.is(sub.canceled_at, t.clock.now().toISOString());
    assert.is(sub.deletion_due_at, new Date(t.clock.now().getTime() + 14 * DAY).toISOString());
    const mail = await waitFor('the cancellation e-mail', () => smtp.mails.find((m) => m.raw.includes('has been cancelled')));
    assert.equal(mail.to, [EMAIL]);
    // The deletion date as a reader in the site's zone and language reads it, not a raw ISO timestamp.
    const due = new Date(sub.deletion_due_at);
    const berlin = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Europe/Berlin',
      weekday: 'long',
      day: 'numeric',
      month: 'long',
      year: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
      timeZoneName: 'short',
    }).format(due);
    assert.match(berlin, /^[A-Z][a-z]+,? \d{1,2} [A-Z][a-z]+ \d{4} at \d{2}:\d{2} (CET|CEST|GMT\+[12])$/);
    assert.match(mailText(mail.raw), `will be deleted on ${berlin}.`);
    assert.not.match(mail.raw, sub.deletion_due_at);
    assert.not.match(mail.raw, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/);
    // A payment after cancellation does not bring it back.
    assert.is((await sendEvent(t, invoice('evt_w6', 'invoice.paid', SUB, 6000))).body.data.outcome, 'ignored_stale');

    t.clock.advance(13 * DAY);
    await t.nextJobRun('billing', 'delete-due');
    assert.is((await subscription(t, SUB)).status, 'canceled', 'still in its grace period');
    t.clock.advance(1 * DAY + 1000);
    sub = await waitFor('the deletion', async () => {
      const s = await subscription(t, SUB);
      return s.status === 'deleted' ? s : null;
    });
    assert.is(sub.deleted_at, t.clock.now().toISOString().slice(0, 19) + sub.deleted_at.slice(19));
    assert.equal(
      sub.events.map((e: Body) => [e.id, e.outcome]),
      [
        ['evt_w1', 'subscription_created'],
        ['provisioner:prov-1', 'provisioned'],
        ['evt_w2', 'activated'],
        ['evt_w3', 'payment_failed'],
        ['evt_w3_late', 'ignored_stale'],
        ['evt_w4', 'activated'],
        ['evt_w5', 'deletion_scheduled'],
        ['evt_w6', 'ignored_stale'],
      ],
    );
    // A provisioning callback for a deleted subscription is refused.
    const late = await provision(t, provisioned('prov-late'));
    assert.is(late.status, 400);
    assert.is(late.body.code, 'subscription_deleted');
    assert.is(smtp.mails.length, 2);
  });

  test.run();
}

for (const store of testStores('billing webhooks, unconfigured')) {
  const test = suite<{ t: TestHost }>(`billing webhooks, nothing configured: never open (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [billing], config: { ...store.config() } });
  });
  test.after(({ t }) => t.stop());

  test('the provisioner webhook refuses everything, even empty credentials', async ({ t }) => {
    const attempts: Array<Record<string, string>> = [
      {},
      { 'X-Provisioner-Internal-Key': '', Authorization: 'Bearer ' },
      { 'X-Provisioner-Internal-Key': 'a', Authorization: 'Bearer b' },
    ];
    for (const headers of attempts) {
      const res = await provision(t, provisioned(), headers);
      assert.is(res.status, 401);
      assert.is(res.body.code, 'provisioner_unauthorized');
    }
  });

  test('the payments webhook refuses a correctly signed event', async ({ t }) => {
    const res = await sendEvent(t, checkoutSubscription('evt_u1', 'sub_u1', 1, 'a@b.test'));
    assert.is(res.status, 401);
    assert.is(res.body.code, 'payment_signature_invalid');
    assert.is((await t.request<Body>('GET', '/subscriptions/sub_u1', { namespace: NS })).status, 404);
  });

  test.run();
}
