// The spec's Auth endpoints on both stores: provider key resolution, the bypass, required
// fields under either name, "already up to date", masking, app passwords used directly,
// disconnect, and a handler's run getting its credentials through its context.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services, type HandlerCredentials } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const SECRETS = {
  consumer_secret: 'cs-0123456789-abcdef',
  app_secret: 'as-9876543210-zyxwvu',
  app_password: 'ap-abcd-efgh-ijkl-mnop',
  api_token: 'tok-5555-6666-7777-8888',
};
const seen: Array<HandlerCredentials | null> = [];

const fixtures = definePlugin({
  id: 'auth-fixtures',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    const publish = async (ctx: { credentials: HandlerCredentials | null }, _s: unknown, packets: never[]) => (
      seen.push(ctx.credentials), packets
    );
    handlers.add(defineHandler({ slug: 'plain', type: 'fetch', label: 'Plain', description: 'No auth.', fetch: async () => [] }));
    handlers.add(
      defineHandler({
        slug: 'micro',
        type: 'publish',
        label: 'Micro',
        description: 'OAuth 1.0a.',
        auth: { type: 'oauth1', fields: ['api_key', 'api_secret'], aliases: { consumer_key: 'api_key', consumer_secret: 'api_secret' } },
        publish,
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'acme-social',
        type: 'publish',
        label: 'Social',
        description: 'OAuth 2.0.',
        auth: { type: 'oauth2', fields: ['app_id', 'app_secret'] },
        publish,
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'acme-threaded',
        type: 'publish',
        label: 'Threaded',
        description: "Uses acme-social's credentials.",
        auth: { type: 'oauth2', fields: ['app_id', 'app_secret'], provider: 'acme-social' },
        publish,
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'fed',
        type: 'publish',
        label: 'Fed',
        description: 'App password.',
        auth: { type: 'app_password', fields: ['handle', 'password'], aliases: { username: 'handle', app_password: 'password' } },
        publish,
      }),
    );
    handlers.add(
      defineHandler({
        slug: 'tokened',
        type: 'publish',
        label: 'Tokened',
        description: 'One API token, no account name.',
        auth: { type: 'app_password', fields: ['api_token'] },
        publish,
      }),
    );
  },
});

for (const store of testStores('credentials: /auth')) {
  const test = suite<{ t: TestHost; bodies: string[] }>(`credentials: /auth (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [fixtures], config: store.config() });
    ctx.bodies = [];
  });
  test.after(async (ctx) => ctx.t.stop());
  const call = async (ctx: { t: TestHost; bodies: string[] }, method: string, path: string, body?: unknown) => {
    const res = await ctx.t.request<Body>(method, path, body === undefined ? {} : { body });
    ctx.bodies.push(JSON.stringify(res.body));
    return res;
  };

  test('an unknown slug is 404 auth_provider_not_found; a handler without auth is bypassed', async (ctx) => {
    const unknown = await call(ctx, 'GET', '/auth/nobody/status');
    assert.is(unknown.status, 404);
    assert.is(unknown.body.code, 'auth_provider_not_found');
    const status = await call(ctx, 'GET', '/auth/plain/status');
    assert.is(status.status, 200);
    assert.equal([status.body.success, status.body.data.requires_auth], [true, false]);
    assert.is((await call(ctx, 'PUT', '/auth/plain', {})).body.success, true);
    assert.is((await call(ctx, 'DELETE', '/auth/plain')).body.success, true);
  });

  test('PUT takes the PUT names or the listing names; every field is required; equal values change nothing', async (ctx) => {
    const missing = await call(ctx, 'PUT', '/auth/micro', { consumer_key: 'ck-1' });
    assert.is(missing.status, 400);
    assert.is(missing.body.code, 'required_field_missing');
    assert.match(missing.body.message, /consumer_secret/);
    const saved = await call(ctx, 'PUT', '/auth/micro', { consumer_key: 'ck-1', consumer_secret: SECRETS.consumer_secret });
    assert.is(saved.status, 200);
    assert.is(saved.body.message, 'Configuration saved successfully');
    assert.equal(Object.keys(saved.body.config_status), ['api_key', 'api_secret']);
    assert.match(saved.body.config_status.api_secret, /^•+cdef$/);
    const again = await call(ctx, 'PUT', '/auth/micro', { api_key: 'ck-1', api_secret: SECRETS.consumer_secret });
    assert.match(again.body.message, /already up to date/);
    const status = await call(ctx, 'GET', '/auth/micro/status');
    assert.equal([status.body.data.authenticated, status.body.data.error, status.body.data.handler_slug], [false, false, 'micro']);
    assert.match(status.body.data.oauth_url, /\/flowhost-auth\/micro\/$/);
    assert.match(status.body.data.config_status.api_key, /^•+$/);
  });

  test("a handler with another provider key resolves to that provider's credentials", async (ctx) => {
    await call(ctx, 'PUT', '/auth/acme-social', { app_id: 'app-1', app_secret: SECRETS.app_secret });
    const threaded = await call(ctx, 'GET', '/auth/acme-threaded/status');
    assert.match(threaded.body.data.config_status.app_secret, /•+xwvu$/);
  });

  test('an app password is used directly: authenticated at once, listed, disconnected by DELETE', async (ctx) => {
    const saved = await call(ctx, 'PUT', '/auth/fed', { username: 'ada.example.social', app_password: SECRETS.app_password });
    assert.is(saved.body.message, 'Configuration saved successfully');
    const status = await call(ctx, 'GET', '/auth/fed/status');
    assert.equal([status.body.data.authenticated, status.body.data.account_details.username], [true, 'ada.example.social']);
    const handlers = await call(ctx, 'GET', '/handlers');
    assert.equal([handlers.body.data.fed.is_authenticated, handlers.body.data.fed.account_details.username], [true, 'ada.example.social']);
    assert.is(handlers.body.data.micro.is_authenticated, false);
    assert.not.ok('account_details' in handlers.body.data.micro);
    assert.match(handlers.body.data.micro.callback_url, /\/flowhost-auth\/micro\/$/);
    assert.not.ok('callback_url' in handlers.body.data.fed);
    // A run of the handler gets the decrypted credentials through its context.
    const job = await ctx.t.executeAndWait({ workflow: { steps: [{ type: 'publish', handler_slug: 'fed' }] } });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const creds = seen.at(-1)!;
    assert.equal([creds.provider, creds.fields.password, creds.account?.username], ['fed', SECRETS.app_password, 'ada.example.social']);
    // The service refuses them: the status says so.
    await creds.markFailed('invalid_token', 'The service refused the app password');
    const failed = await call(ctx, 'GET', '/auth/fed/status');
    assert.equal(
      [failed.status, failed.body.data.authenticated, failed.body.data.error, failed.body.data.error_code],
      [200, false, true, 'invalid_token'],
    );
    const gone = await call(ctx, 'DELETE', '/auth/fed');
    assert.match(gone.body.message, /Disconnected account ada\.example\.social/);
    assert.is((await call(ctx, 'GET', '/auth/fed/status')).body.data.authenticated, false);
    assert.match((await call(ctx, 'DELETE', '/auth/fed')).body.message, /No account/);
  });

  test('a credential whose only field is a token never shows that token as the account name', async (ctx) => {
    const saved = await call(ctx, 'PUT', '/auth/tokened', { api_token: SECRETS.api_token });
    assert.is(saved.status, 200);
    const status = await call(ctx, 'GET', '/auth/tokened/status');
    assert.equal([status.body.data.authenticated, status.body.data.account_details.username], [true, '']);
    assert.match(status.body.data.config_status.api_token, /^•+8888$/);
    const handlers = await call(ctx, 'GET', '/handlers');
    assert.equal([handlers.body.data.tokened.is_authenticated, handlers.body.data.tokened.account_details.username], [true, '']);
    // An account saved before the fix kept the token as its name: answers never repeat it.
    const accounts = ctx.t.host.store.collection('auth_accounts');
    await accounts.updateOne(
      { provider: 'tokened' },
      { $set: { account_details: { username: SECRETS.api_token, id: SECRETS.api_token } } },
    );
    const old = await call(ctx, 'GET', '/auth/tokened/status');
    assert.is(old.body.data.account_details.username, '');
    assert.is((await call(ctx, 'GET', '/handlers')).body.data.tokened.account_details.username, '');
    assert.not.match((await call(ctx, 'DELETE', '/auth/tokened')).body.message, /tok-/);
  });

  test('no secret appears in any answer or in the store as plain text', async (ctx) => {
    for (const secret of Object.values(SECRETS)) {
      for (const body of ctx.bodies) assert.not.ok(body.includes(secret), `${secret} in ${body}`);
      for (const name of ['application_keys', 'auth_accounts']) {
        const docs = JSON.stringify(await ctx.t.host.store.collection(name).find({}));
        assert.not.ok(docs.includes(secret), `${secret} stored in ${name}`);
      }
    }
  });

  test.run();
}
