// Replaying a payment event, on both stores (issue 30): a replay is an attempt of its
// own — its record, numbered and linked to the original, carries the replay's outcome —
// and the original keeps the outcome its delivery recorded. Before, replaying the
// invoice.paid that had reactivated a subscription (after a later failure) rewrote that
// delivery's outcome to ignored_stale.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { startTestHost, type InjectTestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import billing from '../../../plugins/billing/index.js';
import { checkoutSubscription, invoice, NS, sendEvent, subscription, WHSEC, type Body } from './helpers.js';

const SUB = 'sub_replayed';

for (const store of testStores('billing replay attempts')) {
  const test = suite<{ t: InjectTestHost }>(`billing: a replay is its own attempt (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await startTestHost({
      plugins: [billing],
      config: { ...store.config(), pluginSettings: { billing: { stripe_webhook_secret: WHSEC } } },
    });
    const t = ctx.t;
    for (const ev of [
      checkoutSubscription('evt_r1', SUB, 10, 'r@customer.test'),
      invoice('evt_r2', 'invoice.payment_failed', SUB, 100),
      invoice('evt_r3', 'invoice.paid', SUB, 200),
      invoice('evt_r4', 'invoice.payment_failed', SUB, 300),
    ]) {
      const res = await sendEvent(t, ev);
      assert.is(res.status, 200, JSON.stringify(res.body));
    }
  });
  test.after(({ t }) => t.stop());

  test('replaying the event that reactivated the subscription records a new attempt; the original still reads activated', async ({ t }) => {
    assert.is((await t.request<Body>('GET', '/events/evt_r3', { namespace: NS })).body.data.outcome, 'activated');
    const replay = await t.request<Body>('POST', '/events/evt_r3/replay', { namespace: NS });
    assert.is(replay.status, 200, JSON.stringify(replay.body));
    const attempt = replay.body.data;
    assert.equal(
      {
        id: attempt.id,
        replay_of: attempt.replay_of,
        type: attempt.type,
        attempt: attempt.attempt,
        status: attempt.status,
        outcome: attempt.outcome,
        error: attempt.error,
      },
      {
        id: 'evt_r3:replay:1',
        replay_of: 'evt_r3',
        type: 'invoice.paid',
        attempt: 1,
        status: 'processed',
        outcome: 'ignored_stale',
        error: null,
      },
    );
    assert.is(attempt.started_at, t.clock.now().toISOString());
    assert.is(attempt.finished_at, t.clock.now().toISOString());

    const original = (await t.request<Body>('GET', '/events/evt_r3', { namespace: NS })).body.data;
    assert.equal(
      { status: original.status, outcome: original.outcome, replays: original.replays },
      { status: 'processed', outcome: 'activated', replays: 1 },
    );
    assert.equal(
      original.replay_attempts.map((a: Body) => [a.id, a.outcome]),
      [['evt_r3:replay:1', 'ignored_stale']],
    );

    const sub = await subscription(t, SUB);
    assert.is(sub.status, 'payment_failed', 'the stale replay changed nothing');
    assert.equal(
      sub.events.map((e: Body) => [e.id, e.outcome]),
      [
        ['evt_r1', 'subscription_created'],
        ['evt_r2', 'payment_failed'],
        ['evt_r3', 'activated'],
        ['evt_r4', 'payment_failed'],
      ],
    );
  });

  test('each replay is numbered on: a second one is attempt 2, and both are listed with the original', async ({ t }) => {
    const again = (await t.request<Body>('POST', '/events/evt_r3/replay', { namespace: NS })).body.data;
    assert.equal(
      { id: again.id, attempt: again.attempt, outcome: again.outcome },
      { id: 'evt_r3:replay:2', attempt: 2, outcome: 'ignored_stale' },
    );
    const original = (await t.request<Body>('GET', '/events/evt_r3', { namespace: NS })).body.data;
    assert.equal({ outcome: original.outcome, replays: original.replays }, { outcome: 'activated', replays: 2 });
    assert.equal(
      original.replay_attempts.map((a: Body) => a.attempt),
      [1, 2],
    );
    // Replaying the latest failure finds the subscription as that failure left it.
    const latest = (await t.request<Body>('POST', '/events/evt_r4/replay', { namespace: NS })).body.data;
    assert.equal({ id: latest.id, outcome: latest.outcome }, { id: 'evt_r4:replay:1', outcome: 'payment_failed' });
    assert.equal(
      (await t.request<Body>('GET', '/events/evt_r4', { namespace: NS })).body.data.replay_attempts.map((a: Body) => a.id),
      ['evt_r4:replay:1'],
    );
    assert.equal((await t.request<Body>('GET', '/events/evt_r2', { namespace: NS })).body.data.replay_attempts, []);
  });

  test.run();
}
