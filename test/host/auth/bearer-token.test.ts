// Bearer tokens on every store: an application password used on its own
// (`Authorization: Bearer fh_<lookup id>_<password>`). Created once with the password and
// never shown again; accepted by REST as its user (capability checks apply); one generic
// 401 with the Bearer challenge for any bad token, garbled or unknown or wrong; refused at
// once when its password is revoked; throttled as a login (per token and address, and in
// the address's budget shared with Basic); application passwords from before bearer tokens
// keep working with Basic; an anonymous REST call carries no challenge (the console's
// fetches would open the browser's login dialog).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Created = { uuid: string; password: string; token: string; bearer: boolean; name: string };

const TOKEN_SHAPE = /^fh_[0-9a-f]{16}_[A-Za-z0-9]{24}$/;
const BEARER_CHALLENGE = 'Bearer realm="flowhost", error="invalid_token"';
const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });
const basic = (login: string, password: string) => ({ Authorization: `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}` });

async function newAppPassword(t: TestHost, userId: number, name: string): Promise<Created> {
  const res = await t.request<{ data: Created }>('POST', `/users/${userId}/application-passwords`, { body: { name } });
  assert.is(res.status, 201, JSON.stringify(res.body));
  return res.body.data;
}

/** The same secret with one character changed (still of the token's shape). */
const altered = (token: string) => token.slice(0, -1) + (token.endsWith('A') ? 'B' : 'A');

for (const store of testStores('bearer tokens')) {
  type Ctx = { t: TestHost; editorId: number };
  const test = suite<Ctx>(`auth: bearer tokens (${store.label})`);

  test.before(async (ctx) => {
    // Eight failures per (login or token, address): malformed tokens share one key, and the
    // bad-token test sends five; the address's own budget out of reach here.
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), loginMaxFailures: 8, loginMaxFailuresPerIp: 1000 } });
    ctx.editorId = (await ctx.t.createUser('ed', 'editor')).userId;
  });
  test.after(async (ctx) => ctx.t.stop());

  test('created with a token shown once; no list or later answer holds it or the password', async ({ t, editorId }) => {
    const created = await newAppPassword(t, editorId, 'agent');
    assert.match(created.token, TOKEN_SHAPE);
    assert.ok(created.token.endsWith(created.password.replace(/ /g, '')), 'the token is the password with its lookup id');
    assert.is(created.bearer, true);
    const list = await t.request<{ data: Body[] }>('GET', `/users/${editorId}/application-passwords`);
    const row = list.body.data.find((p) => p.uuid === created.uuid)!;
    assert.equal(Object.keys(row).sort(), ['bearer', 'created_at', 'last_used_at', 'name', 'user_id', 'uuid']);
    const secret = created.password.replace(/ /g, '');
    const lookupId = created.token.slice(3, 19);
    for (const [label, text] of [
      ['the list', JSON.stringify(list.body)],
      ['the users', JSON.stringify((await t.request('GET', '/users')).body)],
      ['the revocation', JSON.stringify((await t.request('DELETE', `/users/${editorId}/application-passwords/${created.uuid}`)).body)],
    ] as const) {
      assert.not.ok(text.includes(secret) || text.includes(lookupId), `${label} shows neither the secret nor the token: ${text}`);
    }
    // At rest: a hash and the lookup id, never the secret.
    const stored = await t.host.store.collection('app_passwords').find({ user_id: editorId });
    assert.not.ok(JSON.stringify(stored).includes(secret));
  });

  test('REST accepts the token as its user; capability checks apply (editor 403 on an admin route)', async ({ t, editorId }) => {
    const created = await newAppPassword(t, editorId, 'rest');
    const me = await t.request<Body>('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(created.token) });
    assert.is(me.status, 200, JSON.stringify(me.body));
    assert.is(me.body.id, editorId);
    const admin = await t.request<Body>('GET', '/handlers', { headers: bearer(created.token) });
    assert.is(admin.status, 403);
    assert.is(admin.body.code, 'rest_forbidden');
    // `bearer` in any case, as HTTP schemes are; last_used_at recorded.
    assert.is(
      (await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: { Authorization: `bearer ${created.token}` } })).status,
      200,
    );
    const list = await t.request<{ data: Body[] }>('GET', `/users/${editorId}/application-passwords`);
    assert.type(list.body.data.find((p) => p.uuid === created.uuid)!.last_used_at, 'string');
    // An administrator's token opens the admin route.
    const mine = await newAppPassword(t, 1, 'admin agent');
    assert.is((await t.request('GET', '/handlers', { headers: bearer(mine.token) })).status, 200);
  });

  test('any bad token: one 401 rest_invalid_credentials with the Bearer challenge', async ({ t, editorId }) => {
    const created = await newAppPassword(t, editorId, 'bad tokens');
    const unknownId = `fh_${'0'.repeat(16)}_${created.token.slice(20)}`;
    const cases: Array<[string, string]> = [
      ['a wrong secret', altered(created.token)],
      ['an unknown lookup id', unknownId],
      ['garbled', 'fh_not-a-token'],
      ['the password alone', created.password.replace(/ /g, '')],
      ['empty', ''],
      ['a huge value', `fh_${'a'.repeat(5000)}`],
      ['not ASCII', 'fh_ééééééééééééééééé_ééééééééééééééééééééééé'],
    ];
    const bodies = new Set<string>();
    for (const [label, token] of cases) {
      const res = await t.request<Body>('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(token) });
      assert.is(res.status, 401, `${label}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'rest_invalid_credentials', label);
      assert.is(res.headers.get('www-authenticate'), BEARER_CHALLENGE, label);
      bodies.add(JSON.stringify(res.body));
    }
    assert.is(bodies.size, 1, 'one body for every bad token');
    // Basic keeps its own challenge; an anonymous REST call gets none (a browser would ask for a login).
    const wrongBasic = await t.request('GET', '/handlers', { headers: basic('ed', 'wrong wrong wrong') });
    assert.is(wrongBasic.headers.get('www-authenticate'), 'Basic realm="flowhost"');
    const anonymous = await t.request<Body>('GET', '/handlers', { as: 'anonymous' });
    assert.is(anonymous.status, 401);
    assert.is(anonymous.body.code, 'rest_not_logged_in');
    assert.is(anonymous.headers.get('www-authenticate'), null);
    // The right token still works after the failures (under the throttle's budget).
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(created.token) })).status, 200);
  });

  test('revoking the application password ends its token (and Basic) at once', async ({ t, editorId }) => {
    const created = await newAppPassword(t, editorId, 'to revoke');
    const me = () => t.request<Body>('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(created.token) });
    assert.is((await me()).status, 200); // now in the verified cache too
    assert.is((await t.request('DELETE', `/users/${editorId}/application-passwords/${created.uuid}`)).status, 200);
    const after = await me();
    assert.is(after.status, 401);
    assert.is(after.body.code, 'rest_invalid_credentials');
    assert.is(after.headers.get('www-authenticate'), BEARER_CHALLENGE);
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: basic('ed', created.password) })).status, 401);
  });

  test('an application password from before bearer tokens keeps working with Basic; listed as Basic only', async ({ t, editorId }) => {
    const created = await newAppPassword(t, editorId, 'old');
    // What a record written before bearer tokens looks like: no lookup id.
    await t.host.store.collection('app_passwords').updateOne({ _id: created.uuid }, { $unset: { token_id: true } });
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: basic('ed', created.password) })).status, 200);
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(created.token) })).status, 401);
    const list = await t.request<{ data: Body[] }>('GET', `/users/${editorId}/application-passwords`);
    assert.is(list.body.data.find((p) => p.uuid === created.uuid)!.bearer, false);
    // Several such records live side by side (the lookup id's unique index skips them).
    const second = await newAppPassword(t, editorId, 'old too');
    await t.host.store.collection('app_passwords').updateOne({ _id: second.uuid }, { $unset: { token_id: true } });
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: basic('ed', second.password) })).status, 200);
  });

  test("throttled: a token's wrong guesses from an address end in 429, even for the right one; other tokens unaffected", async ({
    t,
    editorId,
  }) => {
    const target = await newAppPassword(t, editorId, 'guessed');
    const other = await newAppPassword(t, editorId, 'other');
    for (let i = 0; i < 8; i++) {
      const res = await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(altered(target.token)) });
      assert.is(res.status, 401, `guess ${i + 1}`);
    }
    const blocked = await t.request<Body>('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(target.token) });
    assert.is(blocked.status, 429);
    assert.is(blocked.body.code, 'rest_too_many_requests');
    assert.ok(Number(blocked.headers.get('retry-after')) >= 1, 'Retry-After in seconds');
    assert.is((await t.request('GET', '/users/me', { namespace: 'wp/v2', headers: bearer(other.token) })).status, 200);
  });

  test.run();

  // The address's budget is one, whichever door: failed tokens then refuse Basic too.
  const shared = suite<{ t: TestHost }>(`auth: bearer failures spend the address's login budget (${store.label})`);
  shared.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: { ...store.config(), loginMaxFailuresPerIp: 4 } });
  });
  shared.after(async (ctx) => ctx.t.stop());
  shared('four garbled or unknown tokens, then the right Basic password is 429', async ({ t }) => {
    for (const token of ['junk', 'fh_0000000000000000_AAAAAAAAAAAAAAAAAAAAAAAA', 'fh_', 'x y z']) {
      assert.is((await t.request('GET', '/handlers', { headers: bearer(token) })).status, 401, token);
    }
    const res = await t.request<Body>('GET', '/handlers', { headers: basic(t.admin.login, t.admin.password) });
    assert.is(res.status, 429);
    assert.is(res.body.code, 'rest_too_many_requests');
  });
  shared.run();
}
