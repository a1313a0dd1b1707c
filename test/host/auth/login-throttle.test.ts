// The failed-login throttle's store traffic: a client that sends Basic credentials on every
// request (the WordPress clients do) costs reads, not two writes a request; what a sign-in
// must change (failures cleared, the address known for the login) still changes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ClockLimiter } from '../../../host/auth/clock-limiter.js';
import { LoginThrottle } from '../../../host/auth/login-throttle.js';
import type { Limiter, LimiterFactory } from '../../../core/security/limiter.js';
import { FakeClock } from '../../../sdk/testing/index.js';

type Call = `${'get' | 'set' | 'delete' | 'penalty' | 'consume'} ${string}`;

/** Memory limiters on a fake clock that record every call by limiter name. */
function recording(clock: FakeClock) {
  const calls: Call[] = [];
  const factory: LimiterFactory = (name, points, duration) => {
    const inner = new ClockLimiter(name, points, duration, clock);
    const limiter: Limiter = {
      duration,
      get: (key) => (calls.push(`get ${name}`), inner.get(key)),
      set: (key, p, d) => (calls.push(`set ${name}`), inner.set(key, p, d)),
      delete: (key) => (calls.push(`delete ${name}`), inner.delete(key)),
      penalty: (key, p) => (calls.push(`penalty ${name}`), inner.penalty(key, p)),
      consume: (key, p) => (calls.push(`consume ${name}`), inner.consume(key, p)),
    };
    return limiter;
  };
  const writes = () => calls.filter((c) => !c.startsWith('get '));
  return { calls, writes, factory, reset: () => calls.splice(0) };
}

const limits = { maxFailures: 3, maxFailuresPerIp: 100, maxFailuresPerLogin: 5, windowSeconds: 600, knownAddressSeconds: 30 * 86_400 };

const test = suite('login throttle: store traffic of a sign-in');

async function signIn(throttle: LoginThrottle, ip: string, login: string) {
  const seen = await throttle.check(ip, login);
  await throttle.succeeded(ip, login, seen);
}

test('the first sign-in marks the address known; the next ones within a minute write nothing', async () => {
  const clock = new FakeClock(Date.parse('2030-01-01T00:00:00Z'));
  const rec = recording(clock);
  const throttle = new LoginThrottle(limits, rec.factory);
  await signIn(throttle, '10.0.0.1', 'ana');
  assert.equal(rec.writes(), ['set login_known_ip'], 'no failures to clear, the address marked known once');
  rec.reset();
  for (let i = 0; i < 5; i++) await signIn(throttle, '10.0.0.1', 'ana');
  assert.equal(rec.writes(), [], 'repeated sign-ins only read');
  assert.is(rec.calls.length, 5 * 4, 'four reads each, all in check');
  clock.advance(61_000);
  rec.reset();
  await signIn(throttle, '10.0.0.1', 'ana');
  assert.equal(rec.writes(), ['set login_known_ip'], 'a minute on, the known address is written again (its window restarts)');
});

test('a sign-in after failures clears them: the next wrong password starts counting from one', async () => {
  const clock = new FakeClock(0);
  const rec = recording(clock);
  const throttle = new LoginThrottle(limits, rec.factory);
  await throttle.failed('10.0.0.2', 'bo');
  await throttle.failed('10.0.0.2', 'bo');
  rec.reset();
  await signIn(throttle, '10.0.0.2', 'bo');
  assert.ok(rec.writes().includes('delete login_fail_login_ip'), 'the counter is cleared');
  await throttle.failed('10.0.0.2', 'bo');
  await throttle.failed('10.0.0.2', 'bo');
  await throttle.check('10.0.0.2', 'bo'); // two failures since the sign-in: under the budget of three
  await throttle.failed('10.0.0.2', 'bo');
  const refused = await throttle.check('10.0.0.2', 'bo').then(
    () => null,
    (error: { status?: number; code?: string }) => error,
  );
  assert.is(refused?.code, 'rest_too_many_requests', 'three failures after the sign-in are refused');
});

test('an address known to the login keeps signing in once the login budget is spent elsewhere; a stranger is refused', async () => {
  const clock = new FakeClock(0);
  const rec = recording(clock);
  const throttle = new LoginThrottle(limits, rec.factory);
  await signIn(throttle, '10.0.0.3', 'cy');
  for (let i = 0; i < 5; i++) await throttle.failed(`192.0.2.${i}`, 'cy');
  const stranger = await throttle.check('198.51.100.9', 'cy').then(
    () => 'accepted',
    (error: { code?: string }) => error.code,
  );
  assert.is(stranger, 'rest_too_many_requests');
  rec.reset();
  await signIn(throttle, '10.0.0.3', 'cy');
  assert.equal(rec.writes(), [], 'the known address signs in, and nothing needed writing');
});

test.run();
