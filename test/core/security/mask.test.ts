import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Writable } from 'node:stream';
import { isSecretKey, maskDeep, maskSecret } from '../../../core/security/mask.js';
import { createLogger } from '../../../host/logging/create-logger.js';

const test = suite('core/security: masking');

test('maskSecret: empty for unset, a fixed mask, the last 4 characters only for long values', () => {
  assert.is(maskSecret(undefined), '');
  assert.is(maskSecret(null), '');
  assert.is(maskSecret(''), '');
  assert.is(maskSecret('abc'), '••••••••');
  assert.is(maskSecret('fifteen-chars!!'), '••••••••', '15 characters: nothing revealed');
  assert.is(maskSecret('sixteen-chars-XY'), '••••••••s-XY');
  assert.is(maskSecret('sk_live_0123456789abcdefWXYZ'), '••••••••WXYZ');
  assert.not.ok(maskSecret('a'.repeat(40)).includes('a'.repeat(5)));
});

test('isSecretKey: secret names in any case and style', () => {
  for (const key of [
    'password',
    'Password',
    'secret',
    'token',
    'api_key',
    'apikey',
    'apiKey',
    'app_password',
    'appPassword',
    'client_secret',
    'clientSecret',
    'consumer_secret',
    'access_token',
    'accessToken',
    'refresh_token',
    'authorization',
    'Authorization',
    'cookie',
    'set-cookie',
    'private_key',
    'privateKey',
    'x-api-key',
    'webhook_secret',
    'HMAC_SECRET',
    'stripe_secret_key',
    'password_hash',
    'secret_value',
    'OAUTH_TOKEN',
    'passwordConfirmation',
    'refresh-token',
  ]) {
    assert.ok(isSecretKey(key), key);
  }
});

test('isSecretKey: ordinary names are not secrets', () => {
  for (const key of [
    'name',
    'user_login',
    'token_url',
    'tokenType',
    'max_tokens',
    'password_changed_at',
    'client_id',
    'url',
    'keywords',
    'has_secrets_count',
    '',
    'id',
  ]) {
    assert.not.ok(isSecretKey(key), key);
  }
});

test('maskDeep masks values under secret keys in nested objects and arrays, leaves the rest', () => {
  const input = {
    name: 'Blog',
    settings: { client_id: 'abc', client_secret: 'super-secret-value-1234', nested: [{ token: 'tok' }, { label: 'x' }] },
    credentials: [{ apiKey: 'k' }],
    has_password: true,
    password: null,
    count: 3,
  };
  const out = maskDeep(input);
  assert.equal(out, {
    name: 'Blog',
    settings: { client_id: 'abc', client_secret: '••••••••1234', nested: [{ token: '••••••••' }, { label: 'x' }] },
    credentials: [{ apiKey: '••••••••' }],
    has_password: true,
    password: null,
    count: 3,
  });
  assert.is(input.settings.client_secret, 'super-secret-value-1234', 'the input is not modified');
  assert.is.not(out.settings, input.settings, 'a copy, not the same object');
});

test('maskDeep masks every leaf of an object or array under a secret key, and non-string secrets', () => {
  const out = maskDeep({ secret: { a: 'one', b: ['two', 3] }, pin_password: 1234, token: new Date(0) });
  assert.equal(out, { secret: { a: '••••••••', b: ['••••••••', '••••••••'] }, pin_password: '••••••••', token: '••••••••' });
});

test('maskDeep survives cycles and keeps their shape', () => {
  type Node = { name: string; password: string; self?: Node; list: unknown[] };
  const node: Node = { name: 'n', password: 'p', list: [] };
  node.self = node;
  node.list.push(node);
  const out = maskDeep(node);
  assert.is(out.password, '••••••••');
  assert.is(out.self, out);
  assert.is(out.list[0], out);
  assert.is(node.password, 'p');
});

test('maskDeep passes scalars through and copies Dates', () => {
  assert.is(maskDeep('plain'), 'plain');
  assert.is(maskDeep(5), 5);
  assert.is(maskDeep(null), null);
  const when = new Date(1000);
  const out = maskDeep({ when });
  assert.equal(out.when, when);
  assert.is.not(out.when, when);
});

test("the host's logger hides credential headers and secret fields, top level and one down", () => {
  let written = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  const log = createLogger('info', sink);
  const logged = {
    req: {
      method: 'GET',
      headers: {
        authorization: 'Basic YWRtaW46aHVudGVyMg==',
        cookie: 'sid=abc123',
        'x-api-key': 'k-999',
        'x-wp-nonce': 'n-1',
        accept: 'json',
      },
    },
    res: { headers: { 'set-cookie': 'sid=def456', 'content-type': 'json' } },
    headers: { 'x-api-key': 'k-777', host: 'example.com' },
    user: { login: 'admin', password: 'hunter2', app_password: 'abcd efgh' },
    token: 'top-level-token',
    deeper: { level: { password: 'not-covered-by-the-logger' } },
  };
  const before = JSON.stringify(logged);
  log.info(logged, 'request');
  const line = JSON.parse(written) as typeof logged;
  assert.is(line.req.headers.authorization, '[redacted]');
  assert.is(line.req.headers.cookie, '[redacted]');
  assert.is(line.req.headers['x-api-key'], '[redacted]');
  assert.is(line.req.headers['x-wp-nonce'], '[redacted]');
  assert.is(line.req.headers.accept, 'json');
  assert.is(line.res.headers['set-cookie'], '[redacted]');
  assert.is(line.res.headers['content-type'], 'json');
  assert.is(line.headers['x-api-key'], '[redacted]');
  assert.is(line.headers.host, 'example.com');
  assert.is(line.user.password, '[redacted]');
  assert.is(line.user.app_password, '[redacted]');
  assert.is(line.user.login, 'admin');
  assert.is(line.token, '[redacted]');
  // Deeper than one level is maskDeep's job (documented), as it was with pino's paths.
  assert.is(line.deeper.level.password, 'not-covered-by-the-logger');
  for (const leaked of ['YWRtaW46aHVudGVyMg', 'abc123', 'def456', 'hunter2', 'k-999', 'k-777', 'n-1', 'top-level-token'])
    assert.not.ok(written.includes(leaked), leaked);
  assert.is(JSON.stringify(logged), before, 'the object logged is not changed');
});

test("a child logger's bindings are redacted, and an error keeps its message", () => {
  let written = '';
  const sink = new Writable({
    write(chunk, _enc, done) {
      written += String(chunk);
      done();
    },
  });
  const log = createLogger('info', sink)
    .child({ req_id: 'r-1', secret: 'bound-secret' })
    .child({ job: { token: 'nested-child' } });
  const error = Object.assign(new Error('upstream refused'), { password: 'in-the-error' });
  log.error({ err: error }, 'failed');
  const line = JSON.parse(written) as { req_id: string; secret: string; err: { message: string; password: string; stack: string } };
  assert.is(line.req_id, 'r-1');
  assert.is(line.secret, '[redacted]');
  assert.is(line.err.message, 'upstream refused');
  assert.ok(line.err.stack.includes('upstream refused'));
  assert.is(line.err.password, '[redacted]');
  assert.is(error.password, 'in-the-error');
  assert.not.ok(written.includes('bound-secret'));
  assert.not.ok(written.includes('nested-child'));
});

test.run();
