// Cookie sessions are tied to what opened them and end when they should: revoking the
// application password a session was opened with, a new password (the other sessions; the
// one it was set from stays), an administrator ending a user's sessions, "sign out
// everywhere", the idle timeout and the absolute lifetime on the host's (fake) clock. Sign-out
// needs the nonce. On both stores: sessions live in the store, so hosts sharing MongoDB agree.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Session = { success: boolean; message?: string; data: { user_id: number; nonce: string; has_password: boolean } };
type Err = { code: string; message: string };

const cookieOf = (res: { headers: Headers }) => (res.headers.get('set-cookie') ?? '').split(';')[0]!;

/** A browser's session: its cookie and nonce, and a request made with both (no Basic credentials). */
async function signIn(t: TestHost, login: string, password: string) {
  const res = await t.request<Session>('POST', '/session', { as: 'anonymous', body: { login, password } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  const headers = { Cookie: cookieOf(res), 'X-WP-Nonce': res.body.data.nonce };
  return {
    headers,
    cookie: headers.Cookie,
    nonce: res.body.data.nonce,
    /** GET /users/me with the session: 200 while it lives, 401 once it ended. */
    status: async () => (await t.request('GET', '/users/me', { as: 'anonymous', headers })).status,
  };
}

for (const store of testStores('auth: session lifetimes')) {
  const test = suite<{ t: TestHost }>(`auth: sessions end with what opened them, on time, and on request (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), sessionTtlSeconds: 12 * 3600, sessionIdleSeconds: 30 * 60 } });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('revoking an application password ends the sessions it opened (others stay); its holder cannot set a password or mint one', async ({
    t,
  }) => {
    const dan = await t.createUser('dan', 'administrator');
    const second = await t.request<{ data: { uuid: string; password: string } }>('POST', `/users/${dan.userId}/application-passwords`, {
      body: { name: 'second' },
    });
    const viaFirst = await signIn(t, 'dan', dan.password);
    const viaSecond = await signIn(t, 'dan', second.body.data.password);
    const list = await t.request<{ data: Array<{ uuid: string; name: string }> }>('GET', `/users/${dan.userId}/application-passwords`);
    const first = list.body.data.find((p) => p.name === 'test')!;
    assert.is(await viaFirst.status(), 200);

    const revoked = await t.request('DELETE', `/users/${dan.userId}/application-passwords/${first.uuid}`);
    assert.is(revoked.status, 200);
    assert.is(await viaFirst.status(), 401, 'the session the revoked password opened has ended');
    const setOwn = await t.request<Err>('PUT', '/session/password', {
      as: 'anonymous',
      headers: viaFirst.headers,
      body: { password: 'a password of my own' },
    });
    assert.is(setOwn.status, 401, 'no password of their own from the ended session');
    const mint = await t.request('POST', `/users/${dan.userId}/application-passwords`, {
      as: 'anonymous',
      headers: viaFirst.headers,
      body: { name: 'mine now' },
    });
    assert.is(mint.status, 401, 'no new application password either');
    assert.is((await t.request('GET', '/session', { as: 'anonymous', headers: { Cookie: viaFirst.cookie } })).status, 401);
    assert.is(await viaSecond.status(), 200, 'a session opened with another application password stays');
  });

  test('a new password ends the other sessions; the one it was set from stays, with its cookie and nonce', async ({ t }) => {
    const eve = await t.createUser('eve', 'editor');
    await t.host.users.setPassword(eve.userId, 'first password here');
    const here = await signIn(t, 'eve', 'first password here');
    const elsewhere = await signIn(t, 'eve', 'first password here');
    const changed = await t.request<Session>('PUT', '/session/password', {
      as: 'anonymous',
      headers: here.headers,
      body: { password: 'second password here', current_password: 'first password here' },
    });
    assert.is(changed.status, 200, JSON.stringify(changed.body));
    assert.is(changed.body.data.nonce, here.nonce, 'the same session answers');
    assert.is(await elsewhere.status(), 401, 'the other session ended');
    assert.is(await here.status(), 200, 'the current session stays');

    // Set by an administrator: every session of the user ends.
    const set = await t.request('PUT', `/users/${eve.userId}/password`, { body: { password: 'third password here' } });
    assert.is(set.status, 200);
    assert.is(await here.status(), 401, "an administrator's new password ends the user's sessions");
  });

  test('an administrator ends a user’s sessions; application passwords keep working; only administrators may', async ({ t }) => {
    const fay = await t.createUser('fay', 'author');
    await t.host.users.setPassword(fay.userId, 'fays password here');
    const one = await signIn(t, 'fay', 'fays password here');
    const two = await signIn(t, 'fay', 'fays password here');
    const refused = await t.request<Err>('DELETE', `/users/${fay.userId}/sessions`, { as: fay });
    assert.is(refused.status, 403);
    assert.is(await one.status(), 200);

    const ended = await t.request<{ message: string; data: { user_id: number; ended: number } }>('DELETE', `/users/${fay.userId}/sessions`);
    assert.is(ended.status, 200, JSON.stringify(ended.body));
    assert.equal(ended.body.data, { user_id: fay.userId, ended: 2 });
    assert.is(ended.body.message, 'Ended 2 sessions.');
    assert.is(await one.status(), 401);
    assert.is(await two.status(), 401);
    assert.is((await t.request('GET', '/users/me', { as: fay })).status, 200, 'her application password still works');
    const missing = await t.request<Err>('DELETE', '/users/9999/sessions');
    assert.is(missing.status, 404);
    assert.is(missing.body.code, 'user_not_found');
  });

  test('sign out everywhere ends every session of the user, the current one too, and clears its cookie', async ({ t }) => {
    const gus = await t.createUser('gus', 'editor');
    await t.host.users.setPassword(gus.userId, 'gus password here');
    const here = await signIn(t, 'gus', 'gus password here');
    const elsewhere = await signIn(t, 'gus', 'gus password here');
    const other = await t.createUser('hal', 'editor');
    await t.host.users.setPassword(other.userId, 'hal password here');
    const hal = await signIn(t, 'hal', 'hal password here');

    const noNonce = await t.request<Err>('DELETE', '/session/all', { as: 'anonymous', headers: { Cookie: here.cookie } });
    assert.is(noNonce.status, 401, 'a cookie without its nonce is nobody');
    assert.is(await here.status(), 200);
    const out = await t.request<{ data: { ended: number } }>('DELETE', '/session/all', { as: 'anonymous', headers: here.headers });
    assert.is(out.status, 200, JSON.stringify(out.body));
    assert.is(out.body.data.ended, 2);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    assert.is(await here.status(), 401);
    assert.is(await elsewhere.status(), 401);
    assert.is(await hal.status(), 200, "another user's session is untouched");
  });

  test('sign-out needs the nonce: without it 403 rest_cookie_invalid_nonce and the session lives on', async ({ t }) => {
    const jo = await t.createUser('jo', 'editor');
    await t.host.users.setPassword(jo.userId, 'jo password here');
    const session = await signIn(t, 'jo', 'jo password here');
    const bare = await t.request<Err>('DELETE', '/session', { as: 'anonymous', headers: { Cookie: session.cookie } });
    assert.is(bare.status, 403);
    assert.is(bare.body.code, 'rest_cookie_invalid_nonce');
    assert.is(bare.headers.get('set-cookie'), null, 'the cookie is not cleared');
    const wrong = await t.request<Err>('DELETE', '/session', {
      as: 'anonymous',
      headers: { Cookie: session.cookie, 'X-WP-Nonce': 'deadbeef' },
    });
    assert.is(wrong.body.code, 'rest_cookie_invalid_nonce');
    assert.is(await session.status(), 200, 'still signed in');
    const out = await t.request('DELETE', '/session', { as: 'anonymous', headers: session.headers });
    assert.is(out.status, 200);
    assert.match(out.headers.get('set-cookie') ?? '', /Max-Age=0/);
    assert.is(await session.status(), 401);
    const gone = await t.request('DELETE', '/session', { as: 'anonymous', headers: { Cookie: session.cookie } });
    assert.is(gone.status, 200, 'a cookie of an ended session is simply cleared');
  });

  test('the idle timeout ends a session unused for 30 minutes; use keeps it alive until the 12-hour lifetime', async ({ t }) => {
    const ivy = await t.createUser('ivy', 'editor');
    await t.host.users.setPassword(ivy.userId, 'ivy password here');
    const idle = await signIn(t, 'ivy', 'ivy password here');
    const busy = await signIn(t, 'ivy', 'ivy password here');
    t.clock.advance(29 * 60_000);
    assert.is(await busy.status(), 200, 'used after 29 minutes');
    t.clock.advance(2 * 60_000);
    assert.is(await idle.status(), 401, 'unused for 31 minutes: ended');
    assert.is(await busy.status(), 200, 'used 2 minutes ago: alive');
    // A cookie without its nonce (anonymous) does not count as use: it could come from anywhere.
    t.clock.advance(20 * 60_000);
    await t.request('GET', '/session', { as: 'anonymous', headers: { Cookie: busy.cookie } });
    t.clock.advance(11 * 60_000);
    assert.is(await busy.status(), 401, 'GET /session with the cookie alone did not keep it alive');

    // A page's timed refresh says so and keeps nothing alive either; it is still answered while the session lives.
    const polled = await signIn(t, 'ivy', 'ivy password here');
    const poll = async () =>
      (await t.request('GET', '/users/me', { as: 'anonymous', headers: { ...polled.headers, 'X-Flowhost-Background': '1' } })).status;
    for (let minute = 0; minute < 25; minute += 5) {
      t.clock.advance(5 * 60_000);
      assert.is(await poll(), 200, `a background request at ${minute + 5} minutes is answered`);
    }
    t.clock.advance(6 * 60_000);
    assert.is(await poll(), 401, 'thirty minutes without a request a person made: ended');

    const long = await signIn(t, 'ivy', 'ivy password here');
    for (let minutes = 0; minutes < 12 * 60 - 20; minutes += 20) {
      t.clock.advance(20 * 60_000);
      assert.is(await long.status(), 200, `in use at ${minutes + 20} minutes`);
    }
    t.clock.advance(20 * 60_000);
    assert.is(await long.status(), 401, 'twelve hours after sign-in it ends, however busy');
  });

  test.run();
}
