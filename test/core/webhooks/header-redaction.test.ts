import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { isCredentialHeader, webhookHeaders } from '../../../core/webhooks/header-redaction.js';

const test = suite('webhooks: header redaction');

test('credential-like headers are dropped, the rest kept', () => {
  const kept = webhookHeaders({
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/1',
    'x-github-event': 'push',
    'x-github-delivery': 'abc',
    authorization: 'Bearer x',
    cookie: 'a=b',
    'proxy-authorization': 'Basic y',
    'x-hub-signature-256': 'sha256=00',
    'stripe-signature': 't=1,v1=00',
    'x-slack-signature': 'v0=00',
    'webhook-signature': 'v1,AA==',
    'x-shopify-hmac-sha256': 'AA==',
    'x-api-key': 'k',
    'x-apikey': 'k',
    api_key: 'k',
    'x-auth-user': 'u',
    'x-webhook-secret': 's',
    'x-password': 'p',
    'x-access-token': 't',
    'x-bearer': 'b',
    'x-empty': undefined,
  });
  assert.equal(kept, {
    'content-type': 'application/json',
    'user-agent': 'GitHub-Hookshot/1',
    'x-github-event': 'push',
    'x-github-delivery': 'abc',
  });
});

test('matching is case-insensitive and repeated headers are joined', () => {
  assert.ok(isCredentialHeader('X-Twilio-Signature'));
  assert.ok(isCredentialHeader('API-KEY'));
  assert.not.ok(isCredentialHeader('X-Request-Id'));
  assert.equal(webhookHeaders({ 'X-Forwarded-For': ['1.1.1.1', '2.2.2.2'], 'X-HMAC': 'z' }), { 'x-forwarded-for': '1.1.1.1, 2.2.2.2' });
});

test.run();
