// Checkout sessions routed by mode and metadata, on both stores: subscription checkouts
// (the plan and period read from the Stripe API, a fake on 127.0.0.1 that checks the key
// and path as Stripe would), credit purchases (a balance) and domain renewals (the
// renewal date extended); resent and replayed events change nothing.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import billing from '../../../plugins/billing/index.js';
import { event, invoice, NS, sendEvent, subscription, waitFor, WHSEC, type Body } from './helpers.js';

const API_KEY = 'sk_test_billing_0123456789';
const PERIOD_END = 1_850_000_000;
const credits = (id: string, customer: string, amount: string) =>
  event(id, 'checkout.session.completed', 100, {
    id: `cs_${id}`,
    object: 'checkout.session',
    mode: 'payment',
    customer,
    metadata: { kind: 'credits', credits: amount },
  });
const renewal = (id: string, domain: string, years?: string) =>
  event(id, 'checkout.session.completed', 100, {
    id: `cs_${id}`,
    object: 'checkout.session',
    mode: 'payment',
    customer: 'cus_d',
    metadata: { kind: 'domain_renewal', domain, ...(years ? { years } : {}) },
  });

for (const store of testStores('billing checkout')) {
  const test = suite<{ t: TestHost; api: FakeServer }>(`billing checkout kinds (${store.label})`);
  test.before(async (ctx) => {
    ctx.api = await createFakeServer((req) => {
      if (req.headers.authorization !== `Bearer ${API_KEY}`)
        return { status: 401, body: { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } } };
      if (req.method === 'GET' && req.url === '/v1/subscriptions/sub_api') {
        return {
          body: {
            id: 'sub_api',
            object: 'subscription',
            status: 'active',
            items: {
              object: 'list',
              data: [
                {
                  id: 'si_1',
                  object: 'subscription_item',
                  current_period_end: PERIOD_END,
                  price: { id: 'price_1', object: 'price', lookup_key: 'business' },
                },
              ],
            },
          },
        };
      }
      return { status: 404, body: { error: { type: 'invalid_request_error', message: 'No such subscription' } } };
    });
    const port = Number(new URL(ctx.api.url).port);
    ctx.t = await createTestHost({
      plugins: [billing],
      config: {
        ...store.config(),
        pluginSettings: {
          billing: {
            stripe_webhook_secret: WHSEC,
            stripe_api_key: API_KEY,
            stripe_api_host: '127.0.0.1',
            stripe_api_port: port,
            stripe_api_protocol: 'http',
            sweep_interval: '1 second',
          },
        },
      },
    });
  });
  test.after(async ({ t, api }) => {
    await t.stop();
    await api.close();
  });

  test('subscription checkout: plan and renewal read from the Stripe API', async ({ t, api }) => {
    const res = await sendEvent(
      t,
      event('evt_s1', 'checkout.session.completed', 100, {
        id: 'cs_1',
        object: 'checkout.session',
        mode: 'subscription',
        subscription: 'sub_api',
        customer: 'cus_s',
        customer_details: { email: 's@customer.test' },
        metadata: {},
      }),
    );
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.data.outcome, 'subscription_created');
    const sub = await subscription(t, 'sub_api');
    assert.is(sub.plan, 'business');
    assert.is(sub.renews_at, new Date(PERIOD_END * 1000).toISOString());
    assert.is(sub.status, 'pending');
    const call = api.requests.find((r) => r.url === '/v1/subscriptions/sub_api')!;
    assert.is(call.method, 'GET');
    assert.ok(call.headers['stripe-version'], 'the SDK sends its API version');
  });

  test('subscription checkout: an API failure still records the subscription (plan from metadata)', async ({ t }) => {
    const res = await sendEvent(
      t,
      event('evt_s2', 'checkout.session.completed', 100, {
        id: 'cs_2',
        object: 'checkout.session',
        mode: 'subscription',
        subscription: { id: 'sub_missing', object: 'subscription' },
        customer: 'cus_s',
        metadata: { plan: 'starter' },
      }),
    );
    assert.is(res.status, 200);
    const sub = await subscription(t, 'sub_missing');
    assert.is(sub.plan, 'starter');
    assert.is(sub.renews_at, null);
  });

  test('credit purchases add to the balance; a resent or replayed purchase adds nothing', async ({ t }) => {
    assert.is((await sendEvent(t, credits('evt_c1', 'cus_c', '500'))).body.data.outcome, 'credits_added');
    assert.is((await sendEvent(t, credits('evt_c2', 'cus_c', '250'))).body.data.outcome, 'credits_added');
    const resent = await sendEvent(t, credits('evt_c1', 'cus_c', '500'));
    assert.is(resent.body.data.duplicate, true);
    const replay = await t.request<Body>('POST', '/events/evt_c1/replay', { namespace: NS });
    assert.is(replay.status, 200, JSON.stringify(replay.body));
    assert.equal({ attempt: replay.body.data.attempt, outcome: replay.body.data.outcome }, { attempt: 1, outcome: 'credits_added' });
    const res = await t.request<Body>('GET', '/customers/cus_c/credits', { namespace: NS });
    assert.is(res.status, 200);
    assert.is(res.body.data.balance, 750);
    assert.is(res.body.data.purchase_count, 2);
    assert.equal(
      res.body.data.purchases.map((p: Body) => [p.event_id, p.credits]),
      [
        ['evt_c1', 500],
        ['evt_c2', 250],
      ],
    );
    assert.is((await t.request<Body>('GET', '/customers/cus_nobody/credits', { namespace: NS })).body.data.balance, 0);
    assert.is((await sendEvent(t, credits('evt_c3', 'cus_c', 'lots'))).body.data.outcome, 'ignored_bad_credits');
    assert.is((await sendEvent(t, credits('evt_c4', 'cus_c', '-5'))).body.data.outcome, 'ignored_bad_credits');
  });

  test('domain renewals extend the renewal date; a replay extends nothing', async ({ t }) => {
    const now = t.clock.now();
    assert.is((await sendEvent(t, renewal('evt_d1', 'Shop.Example.COM', '2'))).body.data.outcome, 'domain_renewed');
    let domain = (await t.request<Body>('GET', '/domains/shop.example.com', { namespace: NS })).body.data;
    const twoYears = new Date(now);
    twoYears.setUTCFullYear(twoYears.getUTCFullYear() + 2);
    assert.is(domain.expires_at.slice(0, 10), twoYears.toISOString().slice(0, 10));
    assert.is(domain.renewals, 1);
    await sendEvent(t, renewal('evt_d2', 'shop.example.com'));
    domain = (await t.request<Body>('GET', '/domains/shop.example.com', { namespace: NS })).body.data;
    const threeYears = new Date(twoYears);
    threeYears.setUTCFullYear(threeYears.getUTCFullYear() + 1);
    assert.is(domain.expires_at.slice(0, 10), threeYears.toISOString().slice(0, 10));
    assert.is((await t.request<Body>('POST', '/events/evt_d2/replay', { namespace: NS })).status, 200);
    const after = (await t.request<Body>('GET', '/domains/shop.example.com', { namespace: NS })).body.data;
    assert.is(after.expires_at, domain.expires_at);
    assert.is(after.renewals, 2);
    const missing = await t.request<Body>('GET', '/domains/nowhere.test', { namespace: NS });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'domain_not_found');
  });

  test('invoice.paid before its checkout (as Stripe often sends them): active, and the checkout does not set it back', async ({ t }) => {
    assert.is((await sendEvent(t, invoice('evt_o1', 'invoice.paid', 'sub_order', 200))).body.data.outcome, 'activated');
    const res = await sendEvent(
      t,
      event('evt_o2', 'checkout.session.completed', 150, {
        id: 'cs_o',
        object: 'checkout.session',
        mode: 'subscription',
        subscription: 'sub_order',
        customer: 'cus_o',
        customer_details: { email: 'o@customer.test' },
        metadata: { plan: 'solo' },
      }),
    );
    assert.is(res.body.data.outcome, 'subscription_created');
    const sub = await subscription(t, 'sub_order');
    assert.is(sub.status, 'active');
    assert.is(sub.email, 'o@customer.test');
    assert.is(sub.plan, 'solo');
  });

  test('an event a crash left claimed but unprocessed is finished by the repair job', async ({ t }) => {
    const payload = credits('evt_crash', 'cus_crash', '40');
    await t.host.store.collection('billing__events').insertOne({
      _id: 'evt_crash',
      source: 'payments',
      type: payload.type,
      created: payload.created,
      subscription_id: null,
      status: 'received',
      outcome: null,
      error: null,
      payload: { ...payload },
      received_at: t.clock.now().toISOString(),
      processed_at: null,
      replays: 0,
    });
    await t.nextJobRun('billing', 'resume-events');
    assert.is(
      (await t.request<Body>('GET', '/events/evt_crash', { namespace: NS })).body.data.status,
      'received',
      'a request may still be at work: left alone',
    );
    t.clock.advance(6 * 60_000);
    const done = await waitFor('the repair', async () => {
      const e = (await t.request<Body>('GET', '/events/evt_crash', { namespace: NS })).body.data;
      return e.status === 'processed' ? e : null;
    });
    assert.is(done.outcome, 'credits_added');
    assert.is((await t.request<Body>('GET', '/customers/cus_crash/credits', { namespace: NS })).body.data.balance, 40);
    // The sender's retry now is a duplicate.
    assert.is((await sendEvent(t, payload)).body.data.duplicate, true);
  });

  test('a checkout of no known kind is acknowledged and ignored', async ({ t }) => {
    const res = await sendEvent(
      t,
      event('evt_x1', 'checkout.session.completed', 100, { id: 'cs_x', object: 'checkout.session', mode: 'payment', metadata: {} }),
    );
    assert.is(res.status, 200);
    assert.is(res.body.data.outcome, 'ignored');
  });

  test.run();
}
