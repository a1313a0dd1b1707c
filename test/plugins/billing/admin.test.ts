// The billing admin surface on both stores: subscriptions listed (status filter,
// pagination) and shown with their event history, events and replay, secrets saved
// sealed (a rotated provisioner key applies at once), who may call what; and
// `flowhost billing subscriptions list|show` and `flowhost billing replay` in process; secrets from the environment.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import Stripe from 'stripe';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import billing from '../../../plugins/billing/index.js';
import {
  checkoutSubscription,
  INTERNAL_KEY,
  invoice,
  NS,
  provision,
  sendEvent,
  subscriptionDeleted,
  TOKEN,
  WHSEC,
  type Body,
} from './helpers.js';

for (const store of testStores('billing admin')) {
  const test = suite<{ t: TestHost; subscriber: { login: string; password: string } }>(`billing admin routes (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({
      plugins: [billing],
      config: {
        ...store.config(),
        pluginSettings: { billing: { internal_key: INTERNAL_KEY, provisioner_token: TOKEN, stripe_webhook_secret: WHSEC } },
      },
    });
    ctx.subscriber = await ctx.t.createUser('sally', 'subscriber');
    // Five subscriptions: a1..a3 active, f1 payment_failed, c1 canceled; created one clock second apart.
    let n = 0;
    for (const id of ['sub_a1', 'sub_a2', 'sub_a3', 'sub_f1', 'sub_c1']) {
      ctx.t.clock.advance(1000);
      await sendEvent(ctx.t, checkoutSubscription(`evt_co_${id}`, id, 10, `${id}@customer.test`));
      await sendEvent(ctx.t, invoice(`evt_paid_${id}`, 'invoice.paid', id, 20 + n++));
    }
    await sendEvent(ctx.t, invoice('evt_fail_sub_f1', 'invoice.payment_failed', 'sub_f1', 100));
    await sendEvent(ctx.t, subscriptionDeleted('evt_del_sub_c1', 'sub_c1', 100));
  });
  test.after(({ t }) => t.stop());

  test('GET /subscriptions: newest first, filtered by status, paginated', async ({ t }) => {
    const all = await t.request<Body>('GET', '/subscriptions', { namespace: NS });
    assert.is(all.status, 200);
    assert.is(all.body.total, 5);
    assert.equal(
      all.body.data.map((s: Body) => s.id),
      ['sub_c1', 'sub_f1', 'sub_a3', 'sub_a2', 'sub_a1'],
    );
    const active = await t.request<Body>('GET', '/subscriptions', { namespace: NS, query: { status: 'active', per_page: 2, page: 2 } });
    assert.equal(
      { total: active.body.total, total_pages: active.body.total_pages, page: active.body.page, per_page: active.body.per_page },
      { total: 3, total_pages: 2, page: 2, per_page: 2 },
    );
    assert.equal(
      active.body.data.map((s: Body) => s.id),
      ['sub_a1'],
    );
    assert.equal(
      (await t.request<Body>('GET', '/subscriptions', { namespace: NS, query: { status: 'payment_failed' } })).body.data.map(
        (s: Body) => s.id,
      ),
      ['sub_f1'],
    );
    const queries: Array<Record<string, string | number>> = [{ status: 'gone' }, { per_page: 101 }, { page: 0 }, { page: 'x' }];
    for (const query of queries) {
      const bad = await t.request<Body>('GET', '/subscriptions', { namespace: NS, query });
      assert.is(bad.status, 400, JSON.stringify(query));
      assert.is(bad.body.code, 'rest_invalid_param');
    }
  });

  test('GET /subscriptions/{id}: the subscription with its event history; 404 for an unknown one', async ({ t }) => {
    const res = await t.request<Body>('GET', '/subscriptions/sub_c1', { namespace: NS });
    assert.is(res.status, 200);
    assert.is(res.body.data.status, 'canceled');
    assert.equal(
      res.body.data.events.map((e: Body) => [e.id, e.type, e.status, e.outcome]),
      [
        ['evt_co_sub_c1', 'checkout.session.completed', 'processed', 'subscription_created'],
        ['evt_paid_sub_c1', 'invoice.paid', 'processed', 'activated'],
        ['evt_del_sub_c1', 'customer.subscription.deleted', 'processed', 'deletion_scheduled'],
      ],
    );
    assert.not.ok(JSON.stringify(res.body).includes('customer_details'), 'the stored payload is not answered');
    const missing = await t.request<Body>('GET', '/subscriptions/sub_nobody', { namespace: NS });
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'subscription_not_found');
    assert.is((await t.request<Body>('GET', '/subscriptions/bad%20id', { namespace: NS })).status, 400);
  });

  test('events: one stored event, replay, 404 for unknown ones', async ({ t }) => {
    const one = await t.request<Body>('GET', '/events/evt_fail_sub_f1', { namespace: NS });
    assert.is(one.status, 200);
    assert.is(one.body.data.created, new Date(100_000).toISOString());
    const replay = await t.request<Body>('POST', '/events/evt_fail_sub_f1/replay', { namespace: NS });
    assert.is(replay.status, 200);
    assert.equal(
      {
        id: replay.body.data.id,
        replay_of: replay.body.data.replay_of,
        attempt: replay.body.data.attempt,
        outcome: replay.body.data.outcome,
      },
      { id: 'evt_fail_sub_f1:replay:1', replay_of: 'evt_fail_sub_f1', attempt: 1, outcome: 'payment_failed' },
    );
    assert.is((await t.request<Body>('GET', '/events/evt_fail_sub_f1', { namespace: NS })).body.data.replays, 1);
    for (const [method, path] of [
      ['GET', '/events/evt_nothing'],
      ['POST', '/events/evt_nothing/replay'],
    ] as const) {
      const res = await t.request<Body>(method, path, { namespace: NS });
      assert.is(res.status, 404);
      assert.is(res.body.code, 'event_not_found');
    }
  });

  test('only administrators: a subscriber is 403, nobody 401; the webhooks need no login', async ({ t, subscriber }) => {
    for (const [method, path] of [
      ['GET', '/subscriptions'],
      ['GET', '/subscriptions/sub_a1'],
      ['POST', '/events/evt_co_sub_a1/replay'],
      ['GET', '/settings'],
      ['GET', '/mail'],
      ['GET', '/customers/cus_1/credits'],
    ] as const) {
      assert.is((await t.request<Body>(method, path, { namespace: NS, as: subscriber })).status, 403, path);
      assert.is((await t.request<Body>(method, path, { namespace: NS, as: 'anonymous' })).status, 401, path);
    }
  });

  test('a provisioner key saved with PUT /settings replaces the configured one at once', async ({ t }) => {
    const saved = await t.request<Body>('PUT', '/settings', { namespace: NS, body: { internal_key: 'rotated-internal-key-42' } });
    assert.is(saved.status, 200);
    assert.is(saved.body.data.internal_key.source, 'saved');
    const body = { event: 'provisioning_complete', event_id: 'prov-a1', subscription_id: 'sub_a1', site_url: 'https://a1.test/' };
    assert.is((await provision(t, body)).status, 401, 'the old key no longer works');
    const ok = await provision(t, body, { 'X-Provisioner-Internal-Key': 'rotated-internal-key-42', Authorization: `Bearer ${TOKEN}` });
    assert.is(ok.status, 200, JSON.stringify(ok.body));
    assert.is((await t.request<Body>('PUT', '/settings', { namespace: NS, body: { nonsense: 'x' } })).status, 400);
    // '' removes the saved key: the configured one applies again.
    assert.is(
      (await t.request<Body>('PUT', '/settings', { namespace: NS, body: { internal_key: '' } })).body.data.internal_key.source,
      'config',
    );
  });

  test.run();
}

for (const store of testStores('cli: billing')) {
  const test = suite<{ host: Host; dataDir: string }>(`cli: flowhost billing (${store.label})`);
  const cli = (ctx: { dataDir: string }, args: string[]) => cliInProcess([...args, '--data-dir', ctx.dataDir]);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost({ ...store.config(), pluginSettings: { billing: { stripe_webhook_secret: WHSEC } } }));
    const stripe = new Stripe('sk_test_unused');
    for (const ev of [
      checkoutSubscription('evt_cli1', 'sub_cli', 10, 'cli@customer.test', 'team'),
      invoice('evt_cli2', 'invoice.paid', 'sub_cli', 20),
    ]) {
      const payload = JSON.stringify(ev);
      const res = await fetch(`${ctx.host.url}${ctx.host.config.apiPrefix}/${NS}/webhook/payments`, {
        method: 'POST',
        body: payload,
        headers: {
          'Content-Type': 'application/json',
          'Stripe-Signature': stripe.webhooks.generateTestHeaderString({ payload, secret: WHSEC }),
        },
      });
      assert.is(res.status, 200, await res.text());
    }
  });
  test.after(({ host }) => host.stop());

  test('subscriptions list and show, as text and --json', async (ctx) => {
    const list = await cli(ctx, ['billing', 'subscriptions', 'list']);
    assert.is(list.status, 0, list.stderr);
    assert.match(list.stdout, /sub_cli\s+active\s+team\s+cli@customer\.test/);
    const json = await cli(ctx, ['billing', 'subscriptions', 'list', '--status', 'active', '--json']);
    assert.is(json.status, 0, json.stderr);
    assert.equal(
      JSON.parse(json.stdout).data.map((s: Body) => s.id),
      ['sub_cli'],
    );
    const show = await cli(ctx, ['billing', 'subscriptions', 'show', 'sub_cli', '--json']);
    assert.equal(
      JSON.parse(show.stdout).events.map((e: Body) => e.id),
      ['evt_cli1', 'evt_cli2'],
    );
    const text = await cli(ctx, ['billing', 'subscriptions', 'show', 'sub_cli']);
    assert.match(text.stdout, 'evt_cli2  invoice.paid  processed  activated');
    const missing = await cli(ctx, ['billing', 'subscriptions', 'show', 'sub_none']);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, 'No subscription sub_none');
    assert.is((await cli(ctx, ['billing', 'subscriptions', 'frobnicate'])).status, 1);
  });

  test('replay <event_id>', async (ctx) => {
    const res = await cli(ctx, ['billing', 'replay', 'evt_cli2', '--json']);
    assert.is(res.status, 0, res.stderr);
    const attempt = JSON.parse(res.stdout);
    assert.equal(
      { id: attempt.id, replay_of: attempt.replay_of, attempt: attempt.attempt, outcome: attempt.outcome },
      { id: 'evt_cli2:replay:1', replay_of: 'evt_cli2', attempt: 1, outcome: 'activated' },
    );
    const text = await cli(ctx, ['billing', 'replay', 'evt_cli1']);
    assert.match(text.stdout, 'Replayed evt_cli1 (checkout.session.completed), attempt 1: subscription_created');
  });

  test.run();
}

for (const store of testStores('billing secrets from env')) {
  const test = suite<{ t: TestHost }>(`billing secrets from the environment (${store.label})`);
  test.before(async (ctx) => {
    // Read by the plugin at request time; set only in this suite's own process.
    process.env.FLOWHOST_BILLING_INTERNAL_KEY = 'env-internal-key-0001';
    process.env.FLOWHOST_BILLING_PROVISIONER_TOKEN = 'env-token-0002';
    ctx.t = await createTestHost({
      plugins: [billing],
      config: { ...store.config(), pluginSettings: { billing: { internal_key: 'config-key', provisioner_token: 'config-token' } } },
    });
  });
  test.after(async ({ t }) => {
    await t.stop();
    delete process.env.FLOWHOST_BILLING_INTERNAL_KEY;
    delete process.env.FLOWHOST_BILLING_PROVISIONER_TOKEN;
  });

  test('an environment variable wins over the config file, and is shown masked', async ({ t }) => {
    const settings = (await t.request<Body>('GET', '/settings', { namespace: NS })).body.data;
    assert.is(settings.internal_key.source, 'env');
    assert.is(settings.provisioner_token.source, 'env');
    assert.is(settings.stripe_webhook_secret.source, 'none');
    assert.is(settings.stripe_webhook_secret.configured, false);
    assert.not.ok(JSON.stringify(settings).includes('env-internal-key-0001'));
    const body = { event: 'provisioning_complete', event_id: 'p1', subscription_id: 'sub_none', site_url: 'https://x.test/' };
    assert.is((await provision(t, body, { 'X-Provisioner-Internal-Key': 'config-key', Authorization: 'Bearer config-token' })).status, 401);
    // Past authentication: the subscription does not exist.
    assert.is(
      (await provision(t, body, { 'X-Provisioner-Internal-Key': 'env-internal-key-0001', Authorization: 'Bearer env-token-0002' })).status,
      404,
    );
  });

  test.run();
}
