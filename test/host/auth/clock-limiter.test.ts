// Throttles read the host's clock: a fake clock moved past the window lifts them, with no
// waiting. Once for the counters themselves, once through a host (failed logins).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ClockLimiter } from '../../../host/auth/clock-limiter.js';
import { FakeClock, startTestHost } from '../../../sdk/testing/index.js';

const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

const counters = suite('throttles: counters on the host clock');

counters('a budget spent in the window is refused until the window ends on the clock', async () => {
  const clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'));
  const limiter = new ClockLimiter('test', 2, 60, clock);
  await limiter.consume('k');
  const second = await limiter.consume('k');
  assert.is(second.remainingPoints, 0);
  const refused = await limiter.consume('k').then(
    () => null,
    (res: { consumedPoints: number; msBeforeNext: number }) => res,
  );
  assert.ok(refused, 'the third point in the window is refused');
  assert.is(refused!.consumedPoints, 3);
  assert.is(refused!.msBeforeNext, 60_000, 'the window has not moved: real time does not count');
  clock.advance(59_999);
  assert.is((await limiter.get('k'))?.consumedPoints, 3);
  clock.advance(1);
  assert.is(await limiter.get('k'), null, 'the window ended on the clock');
  assert.is((await limiter.consume('k')).consumedPoints, 1);
});

counters('penalty, set and delete count as the library does', async () => {
  const clock = new FakeClock(0);
  const limiter = new ClockLimiter('test', 1, 10, clock);
  assert.is((await limiter.penalty('p', 5)).consumedPoints, 5, 'a penalty never refuses');
  assert.is((await limiter.set('s', 1, 0)).msBeforeNext, -1, 'no duration: no expiry');
  clock.advance(10 ** 9);
  assert.is((await limiter.get('s'))?.consumedPoints, 1);
  assert.is(await limiter.delete('s'), true);
  assert.is(await limiter.get('s'), null);
  assert.is(await limiter.get('p'), null);
});

counters.run();

const logins = suite('throttles: failed logins, on the fake clock');

logins('a throttled login is accepted again once the fake clock passes the window', async () => {
  const t = await startTestHost({ plugins: [], config: { loginMaxFailures: 3, loginWindowSeconds: 600 } });
  try {
    for (let i = 0; i < 3; i++)
      assert.is((await t.request('GET', '/flows', { headers: { Authorization: basic(t.admin.login, `wrong-${i}`) } })).status, 401);
    const blocked = await t.request('GET', '/flows');
    assert.is(blocked.status, 429, 'the right password is refused while the window lasts');
    assert.is(blocked.headers.get('retry-after'), '600');
    t.clock.advance(599_000);
    assert.is((await t.request('GET', '/flows')).status, 429);
    t.clock.advance(1_000);
    assert.is((await t.request('GET', '/flows')).status, 200);
  } finally {
    await t.stop();
  }
});

logins.run();
