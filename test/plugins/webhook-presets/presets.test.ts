// Each preset against its provider's published test vector (or, where the provider
// publishes none, a vector built by its documented algorithm; see each test's comment),
// through the real template check and verifier.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTemplate, type HmacTemplate } from '../../../core/webhooks/hmac-template.js';
import { verifyHmac, type HmacResult, type InboundRequest } from '../../../core/webhooks/hmac-verify.js';
import { presets } from '../../../plugins/webhook-presets/presets.js';
import webhookPresets from '../../../plugins/webhook-presets/index.js';
import { startTestHost } from '../../../sdk/testing/index.js';
import { webhookPresets as presetPoint, webhookVerifiers } from '../../../sdk/contract/webhook-points.js';

const test = suite('webhook-presets: provider vectors');

function preset(slug: string): HmacTemplate {
  const found = presets.find((p) => p.slug === slug);
  assert.ok(found, `preset ${slug}`);
  const template = structuredClone(found!.template);
  assert.equal(checkTemplate(template), [], `${slug} template must pass checkTemplate`);
  return template as unknown as HmacTemplate;
}

const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));

function check(
  slug: string,
  vector: { secret: string; body: string; headers: Record<string, string>; now: Date },
  tamper = false,
): HmacResult {
  const body = tamper ? vector.body.replace(/.$/, (c) => (c === ' ' ? '!' : ' ')) : vector.body;
  const request: InboundRequest = {
    rawBody: Buffer.from(body, 'utf8'),
    headers: lower(vector.headers),
    query: {},
    bodyParams: null,
    url: 'https://hooks.example.com/trigger/1',
  };
  return verifyHmac({
    template: preset(slug),
    secrets: [{ id: 'vector', value: vector.secret, expires_at: null }],
    request,
    now: vector.now,
  });
}

function expectVector(slug: string, vector: Parameters<typeof check>[1]) {
  const good = check(slug, vector);
  assert.ok(good.ok, good.ok ? '' : `${slug}: ${good.reason}`);
  const bad = check(slug, vector, true);
  assert.not.ok(bad.ok, `${slug}: a tampered body must fail`);
  assert.is((bad as { reason: string }).reason, 'signature does not match any active secret');
  return good as Extract<HmacResult, { ok: true }>;
}

test('github: GitHub docs "Validating webhook deliveries" example (shared/vectors/hmac.json)', () => {
  expectVector('github', {
    secret: "It's a Secret to Everybody",
    body: 'Hello, World!',
    headers: { 'X-Hub-Signature-256': 'sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17' },
    now: new Date(),
  });
});

test('standard-webhooks: specification example (shared/vectors/hmac.json), fake clock at the signed time', () => {
  const vector = {
    secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
    body: '{"test": 2432232314}',
    headers: {
      'webhook-id': 'msg_p5jXN8AQM9LWM0D4loKWxJek',
      'webhook-timestamp': '1614265330',
      'webhook-signature': 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    },
    now: new Date(1614265330 * 1000 + 5000),
  };
  const result = expectVector('standard-webhooks', vector);
  assert.is(result.eventId, 'msg_p5jXN8AQM9LWM0D4loKWxJek');
  assert.is(result.timestamp?.getTime(), 1614265330 * 1000);
  // Several space-separated signatures, the valid one last.
  const multi = check('standard-webhooks', {
    ...vector,
    headers: {
      ...vector.headers,
      'webhook-signature': 'v1a,AAAA v1,bm90IGl0IG5vdCBpdCBub3QgaXQgbm90IGl0IG5vdCBpdA== v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
    },
  });
  assert.ok(multi.ok);
  // Years later the same delivery is a replay.
  const stale = check('standard-webhooks', { ...vector, now: new Date('2026-01-01T00:00:00Z') });
  assert.match((stale as { reason: string }).reason, /timestamp 1614265330 is outside the 300 s window \(too old\)/);
});

test('slack: Slack docs "Verifying requests from Slack" worked example', () => {
  expectVector('slack', {
    secret: '8f742231b10e8888abcd99yyyzzz85a5',
    body: 'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c',
    headers: {
      'X-Slack-Request-Timestamp': '1531420618',
      'X-Slack-Signature': 'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    },
    now: new Date(1531420618 * 1000),
  });
});

// Stripe publishes the algorithm (HMAC-SHA256 of "<t>.<body>", hex, in v1=) but no fixed
// vector; this one was computed once with node:crypto by that algorithm, outside Flowhost.
test('stripe: vector built by the documented algorithm; a second v1 entry and the window', () => {
  const body = '{"id":"evt_1NG8Du2eZvKYlo2CUI79vXWy","object":"event","type":"payment_intent.succeeded"}';
  const v1 = '806b54e7464fbd486149788af4480c45da2a750022b0bcb75cb5b3fd601e753b';
  const vector = {
    secret: 'whsec_test_secret_for_flowhost',
    body,
    headers: { 'Stripe-Signature': `t=1700000000,v1=${v1},v0=6ffbb59b2300aae63f272406069a9788598b792a944a07aba816edb039989a39` },
    now: new Date(1700000000 * 1000 + 60_000),
  };
  expectVector('stripe', vector);
  assert.ok(check('stripe', { ...vector, headers: { 'Stripe-Signature': `t=1700000000,v1=${'ab'.repeat(32)},v1=${v1}` } }).ok);
  assert.not.ok(check('stripe', { ...vector, now: new Date(1700000000 * 1000 + 301_000) }).ok);
});

// Shopify documents the algorithm (base64 HMAC-SHA256 of the raw body) but no fixed vector;
// computed once with node:crypto by that algorithm.
test('shopify: vector built by the documented algorithm', () => {
  expectVector('shopify', {
    secret: 'shpss_flowhost_test_secret',
    body: '{"id":820982911946154508,"email":"jon@example.com","topic":"orders/create"}',
    headers: { 'X-Shopify-Hmac-Sha256': 'uD+DRWup15LhTcIwehojmK3MIfUaalI5SgsbNgB1go4=' },
    now: new Date(),
  });
});

test('every preset is a complete, valid template; the plugin registers presets and the twilio mode', async () => {
  assert.equal(presets.map((p) => p.slug).sort(), ['github', 'shopify', 'slack', 'standard-webhooks', 'stripe']);
  for (const p of presets) preset(p.slug);
  const t = await startTestHost({ plugins: [webhookPresets] });
  try {
    assert.equal(
      t.host.registries
        .extensionPoint(presetPoint)
        .list()
        .map((p) => p.slug)
        .sort(),
      ['github', 'shopify', 'slack', 'standard-webhooks', 'stripe'],
    );
    assert.equal(
      t.host.registries
        .extensionPoint(webhookVerifiers)
        .list()
        .map((v) => v.mode),
      ['twilio'],
    );
  } finally {
    await t.stop();
  }
});

test.run();
