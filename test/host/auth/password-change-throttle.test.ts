// PUT /session/password checks current_password: its wrong guesses are failed logins, in the
// same budgets as POST /session and Basic (per login and address, per address), so a stolen
// session cannot guess the password behind it. Once a budget is spent the right password is
// refused too (429, Retry-After) until the window passes. On both stores (MongoDB keeps the
// counters in the database, on its own time: the test moves their expiry instead).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import type { MongoStore } from '../../../host/store/mongodb/mongo-store.js';
import { testStores } from '../../support/test-stores.js';

type Session = { data: { nonce: string } };
type Err = { code: string; message: string; data?: { retry_after?: number } };

const WINDOW_SECONDS = 900;

/** A session of `login` from `address` (X-Forwarded-For through the trusted loopback proxy). */
async function signIn(t: TestHost, login: string, password: string, address: string) {
  const res = await t.request<Session>('POST', '/session', {
    as: 'anonymous',
    headers: { 'X-Forwarded-For': address },
    body: { login, password },
  });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const headers = {
    Cookie: (res.headers.get('set-cookie') ?? '').split(';')[0]!,
    'X-WP-Nonce': res.body.data.nonce,
    'X-Forwarded-For': address,
  };
  return (current: string, password = 'a brand new password') =>
    t.request<Err>('PUT', '/session/password', { as: 'anonymous', headers, body: { password, current_password: current } });
}

/** The failed-login window passes: the fake clock (embedded store) or the stored counters' expiry (MongoDB). */
async function passWindow(t: TestHost): Promise<void> {
  t.clock.advance(WINDOW_SECONDS * 1000);
  if (t.host.store.kind !== 'mongodb') return;
  await (t.host.store as MongoStore).driverDb
    .collection('rate_limits')
    .updateMany({ key: /^login_fail/ }, { $set: { expire: new Date(Date.now() - 1) } });
}

for (const store of testStores('auth: current-password guesses are throttled')) {
  const test = suite<{ t: TestHost }>(`auth: current-password guesses count as failed logins (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
        loginMaxFailures: 3,
        loginMaxFailuresPerIp: 5,
        loginMaxFailuresPerLogin: 4,
        loginWindowSeconds: WINDOW_SECONDS,
        trustProxy: 'loopback',
        // A trusted proxy needs the public address (links never follow a client's Host).
        publicUrl: 'http://127.0.0.1',
      },
    });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('per login and address: three wrong guesses, then the right one is refused with 429 until the window passes', async ({ t }) => {
    const kim = await t.createUser('kim', 'editor');
    await t.host.users.setPassword(kim.userId, 'kims password here');
    const change = await signIn(t, 'kim', 'kims password here', '203.0.113.10');
    for (let i = 0; i < 3; i++) {
      const wrong = await change(`guess number ${i}`);
      assert.is(wrong.status, 400, JSON.stringify(wrong.body));
      assert.is(wrong.body.code, 'incorrect_password');
    }
    const right = await change('kims password here');
    assert.is(right.status, 429, 'the right password is refused while the budget is spent');
    assert.is(right.body.code, 'rest_too_many_requests');
    assert.ok(Number(right.headers.get('retry-after')) > 0, 'Retry-After, as a login gets');
    const login = await t.request<Err>('POST', '/session', {
      as: 'anonymous',
      headers: { 'X-Forwarded-For': '203.0.113.10' },
      body: { login: 'kim', password: 'kims password here' },
    });
    assert.is(login.status, 429, 'one budget: signing in from that address is refused too');
    assert.is(
      (
        await t.request('POST', '/session', {
          as: 'anonymous',
          headers: { 'X-Forwarded-For': '203.0.113.11' },
          body: { login: 'kim', password: 'kims password here' },
        })
      ).status,
      200,
      'another address keeps its own budget',
    );

    await passWindow(t);
    const after = await change('kims password here');
    assert.is(after.status, 200, JSON.stringify(after.body));
  });

  test('per address: guesses on different logins from one address add up', async ({ t }) => {
    const address = '198.51.100.20';
    const lee = await t.createUser('lee', 'editor');
    await t.host.users.setPassword(lee.userId, 'lees password here');
    const mo = await t.createUser('mo', 'editor');
    await t.host.users.setPassword(mo.userId, 'mos password here');
    const leeChange = await signIn(t, 'lee', 'lees password here', address);
    const moChange = await signIn(t, 'mo', 'mos password here', address);
    for (let i = 0; i < 2; i++) assert.is((await leeChange(`lee guess ${i}`)).status, 400);
    for (let i = 0; i < 3; i++) assert.is((await moChange(`mo guess ${i}`)).status, 400);
    const right = await leeChange('lees password here');
    assert.is(right.status, 429, 'five failures from the address: lee, with two of them, is refused too');
    await passWindow(t);
    assert.is((await leeChange('lees password here')).status, 200);
  });

  test('per user: guesses from several addresses add up; a new address is refused, one the user signed in from is not', async ({ t }) => {
    const noa = await t.createUser('noa', 'editor');
    await t.host.users.setPassword(noa.userId, 'noas password here');
    const fromA = await signIn(t, 'noa', 'noas password here', '192.0.2.1');
    const fromB = await signIn(t, 'noa', 'noas password here', '192.0.2.2');
    for (let i = 0; i < 2; i++) assert.is((await fromA(`a guess ${i}`)).status, 400);
    for (let i = 0; i < 2; i++) assert.is((await fromB(`b guess ${i}`)).status, 400);
    const stranger = await t.request<Err>('POST', '/session', {
      as: 'anonymous',
      headers: { 'X-Forwarded-For': '192.0.2.3' },
      body: { login: 'noa', password: 'noas password here' },
    });
    assert.is(stranger.status, 429, "four failures on noa's login: a new address is refused even the right password");
    assert.is((await fromA('noas password here')).status, 200, 'an address noa signed in from keeps its own budget');
  });

  test.run();
}
