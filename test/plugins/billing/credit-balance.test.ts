// Credit balances on both stores (issue 30): 2,000 purchases of 10 credits, each a signed
// Stripe checkout over HTTP, read back as a balance of 20,000 and a count of 2,000. The
// balance used to be the sum of a 1,000-entry read; it is now added up by the store.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHost, type InjectTestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import billing from '../../../plugins/billing/index.js';
import { event, NS, sendEvent, WHSEC, type Body } from './helpers.js';

const PURCHASES = 2000;
/** Requests in flight at once: enough to be quick, few enough for a 2-core CI machine. */
const IN_FLIGHT = 20;
const purchase = (n: number, customer: string) =>
  event(`evt_buy_${n}`, 'checkout.session.completed', 100 + n, {
    id: `cs_buy_${n}`,
    object: 'checkout.session',
    mode: 'payment',
    customer,
    metadata: { kind: 'credits', credits: '10' },
  });

for (const store of testStores('billing credit balance')) {
  const test = suite<{ t: InjectTestHost }>(`billing credit balance (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await startTestHost({
      plugins: [billing],
      config: { ...store.config(), pluginSettings: { billing: { stripe_webhook_secret: WHSEC } } },
    });
  });
  test.after(({ t }) => t.stop());

  test(`${PURCHASES} purchases of 10 credits: balance ${PURCHASES * 10}, ${PURCHASES} purchases; another customer's are not counted`, async ({
    t,
  }) => {
    for (let first = 0; first < PURCHASES; first += IN_FLIGHT) {
      const batch = Array.from({ length: Math.min(IN_FLIGHT, PURCHASES - first) }, (_, i) => sendEvent(t, purchase(first + i, 'cus_many')));
      for (const res of await Promise.all(batch)) assert.is(res.body.data?.outcome, 'credits_added', JSON.stringify(res.body));
    }
    assert.is((await sendEvent(t, purchase(PURCHASES, 'cus_other'))).body.data.outcome, 'credits_added');

    const res = await t.request<Body>('GET', '/customers/cus_many/credits', { namespace: NS });
    assert.is(res.status, 200, JSON.stringify(res.body).slice(0, 500));
    assert.is(res.body.data.balance, PURCHASES * 10);
    assert.is(res.body.data.purchase_count, PURCHASES);
    // The list itself is a page; the count and balance are not.
    assert.is(res.body.data.purchases.length, 100);
    assert.equal(
      { page: res.body.page, per_page: res.body.per_page, total_pages: res.body.total_pages },
      { page: 1, per_page: 100, total_pages: PURCHASES / 100 },
    );
    const last = await t.request<Body>('GET', '/customers/cus_many/credits', { namespace: NS, query: { page: 20, per_page: 100 } });
    assert.is(last.body.data.purchases.length, 100);
    assert.is(last.body.data.balance, PURCHASES * 10);
    const beyond = await t.request<Body>('GET', '/customers/cus_many/credits', { namespace: NS, query: { page: 21, per_page: 100 } });
    assert.equal(beyond.body.data.purchases, []);

    const other = (await t.request<Body>('GET', '/customers/cus_other/credits', { namespace: NS })).body.data;
    assert.equal({ balance: other.balance, purchase_count: other.purchase_count }, { balance: 10, purchase_count: 1 });
  });

  test.run();
}
