// Two deliveries of one Stripe event at the same moment, on both stores (issue 30): each
// pair fired with Promise.all over HTTP. The event's id is claimed in the store (a unique
// insert, not a read then a write), so exactly one delivery of each pair applies it and
// answers `duplicate: false`; the other answers `duplicate: true`. The money is counted once.
// Half the events are subscription checkouts, which call the Stripe API (a fake on
// 127.0.0.1) between claim and record: real I/O in the middle, so the second delivery
// arrives while the first is at work even on the embedded store, whose writes never yield.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import billing from '../../../plugins/billing/index.js';
import { event, NS, sendEvent, WHSEC, type Body } from './helpers.js';

const EVENTS = 300;
/** Events whose two deliveries are in flight together (so 2 × this many requests). */
const AT_ONCE = 25;
const API_KEY = 'sk_test_twice_0123456789';
/** Even: a subscription checkout (an API call while claimed); odd: a purchase of 10 credits. */
const delivery = (n: number) =>
  n % 2 === 0
    ? event(`evt_twice_${n}`, 'checkout.session.completed', 100 + n, {
        id: `cs_twice_${n}`,
        object: 'checkout.session',
        mode: 'subscription',
        subscription: `sub_twice_${n}`,
        customer: 'cus_twice',
        customer_details: { email: 'twice@customer.test' },
        metadata: {},
      })
    : event(`evt_twice_${n}`, 'checkout.session.completed', 100 + n, {
        id: `cs_twice_${n}`,
        object: 'checkout.session',
        mode: 'payment',
        customer: 'cus_twice',
        metadata: { kind: 'credits', credits: '10' },
      });

for (const store of testStores('billing concurrent deliveries')) {
  const test = suite<{ t: TestHost; api: FakeServer }>(`billing: one event delivered twice at once (${store.label})`);
  test.before(async (ctx) => {
    ctx.api = await createFakeServer((req) => {
      const id = /^\/v1\/subscriptions\/(sub_twice_\d+)$/.exec(req.url)?.[1];
      if (req.headers.authorization !== `Bearer ${API_KEY}` || !id)
        return { status: 404, body: { error: { type: 'invalid_request_error', message: 'No such subscription' } } };
      return {
        body: {
          id,
          object: 'subscription',
          status: 'active',
          items: {
            object: 'list',
            data: [
              {
                id: 'si_1',
                object: 'subscription_item',
                current_period_end: 1_850_000_000,
                price: { id: 'price_1', object: 'price', lookup_key: 'twice' },
              },
            ],
          },
        },
      };
    });
    const port = Number(new URL(ctx.api.url).port);
    ctx.t = await createTestHost({
      plugins: [billing],
      // Sweeps hourly: the resume job must not finish the crashed event before the retry does.
      config: {
        ...store.config(),
        pluginSettings: {
          billing: {
            stripe_webhook_secret: WHSEC,
            stripe_api_key: API_KEY,
            stripe_api_host: '127.0.0.1',
            stripe_api_port: port,
            stripe_api_protocol: 'http',
            sweep_interval: '1 hour',
          },
        },
      },
    });
  });
  test.after(async ({ t, api }) => {
    await t.stop();
    await api.close();
  });

  test(`${EVENTS} events each sent twice at once: one answer of each pair says duplicate, the credits count once`, async ({ t }) => {
    const wrong: string[] = [];
    for (let first = 0; first < EVENTS; first += AT_ONCE) {
      const pairs = Array.from({ length: Math.min(AT_ONCE, EVENTS - first) }, (_, i) =>
        Promise.all([sendEvent(t, delivery(first + i)), sendEvent(t, delivery(first + i))]),
      );
      for (const [a, b] of await Promise.all(pairs)) {
        assert.is(a.status, 200, JSON.stringify(a.body));
        assert.is(b.status, 200, JSON.stringify(b.body));
        const flags = [a.body.data.duplicate, b.body.data.duplicate].sort();
        if (flags[0] !== false || flags[1] !== true) wrong.push(`${String(a.body.data.event_id)}: ${JSON.stringify(flags)}`);
        const applied = a.body.data.duplicate ? b : a;
        assert.is(
          applied.body.data.outcome,
          Number(String(applied.body.data.event_id).split('_')[2]) % 2 === 0 ? 'subscription_created' : 'credits_added',
        );
      }
    }
    assert.equal(wrong, [], `${wrong.length} pairs did not answer one duplicate: false and one duplicate: true`);
    const credits = (await t.request<Body>('GET', '/customers/cus_twice/credits', { namespace: NS })).body.data;
    assert.equal(
      { balance: credits.balance, purchase_count: credits.purchase_count },
      { balance: (EVENTS / 2) * 10, purchase_count: EVENTS / 2 },
    );
    const subscriptions = await t.request<Body>('GET', '/subscriptions', { namespace: NS, query: { per_page: 1 } });
    assert.is(subscriptions.body.total, EVENTS / 2);
    const one = (await t.request<Body>('GET', '/events/evt_twice_0', { namespace: NS })).body.data;
    assert.equal({ status: one.status, outcome: one.outcome }, { status: 'processed', outcome: 'subscription_created' });
  });

  test('a third delivery after both answered is a duplicate with the recorded outcome', async ({ t }) => {
    const again = await sendEvent(t, delivery(7));
    assert.equal({ duplicate: again.body.data.duplicate, outcome: again.body.data.outcome }, { duplicate: true, outcome: 'credits_added' });
  });

  test('a claim whose request died: a retry within the lease is a duplicate in progress; after it, the retry applies the event', async ({
    t,
  }) => {
    // What a crash between claim and record leaves: the event claimed, nothing applied.
    const crashed = delivery(1001);
    await t.host.store.collection('billing__events').insertOne({
      _id: crashed.id,
      source: 'payments',
      type: crashed.type,
      created: crashed.created,
      subscription_id: null,
      status: 'received',
      outcome: null,
      error: null,
      payload: { ...crashed },
      received_at: t.clock.now().toISOString(),
      claimed_at: t.clock.now().toISOString(),
      processed_at: null,
      replays: 0,
    });
    const early = await sendEvent(t, crashed);
    assert.equal({ duplicate: early.body.data.duplicate, outcome: early.body.data.outcome }, { duplicate: true, outcome: 'in_progress' });
    t.clock.advance(5 * 60_000 + 1000);
    const [a, b] = await Promise.all([sendEvent(t, crashed), sendEvent(t, crashed)]);
    assert.equal([a.body.data.duplicate, b.body.data.duplicate].sort(), [false, true], 'one retry takes the dead claim over');
    assert.is((a.body.data.duplicate ? b : a).body.data.outcome, 'credits_added');
    const credits = (await t.request<Body>('GET', '/customers/cus_twice/credits', { namespace: NS })).body.data;
    assert.is(credits.balance, (EVENTS / 2) * 10 + 10);
  });

  test.run();
}
