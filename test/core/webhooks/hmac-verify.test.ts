import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { checkTemplate, type HmacTemplate } from '../../../core/webhooks/hmac-template.js';
import { verifyHmac, type HmacResult, type HmacSecret, type InboundRequest } from '../../../core/webhooks/hmac-verify.js';

const SECRET = 'top-secret-value';
const NOW = new Date('2026-03-01T12:00:00Z');
const NOW_S = Math.floor(NOW.getTime() / 1000);
const BODY = Buffer.from('{"event":"ping","n":1}');

const mac = (payload: Buffer | string, algo = 'sha256', key: string | Buffer = SECRET) => createHmac(algo, key).update(payload).digest();

/** A template checked as it would be when saved (defaults applied). */
function template(over: Partial<HmacTemplate> = {}): HmacTemplate {
  const t = {
    mode: 'hmac',
    algo: 'sha256',
    signed_template: '{body}',
    signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'hex' },
    ...over,
  };
  assert.equal(checkTemplate(t), [], 'fixture template must be valid');
  return t as HmacTemplate;
}

function request(over: Partial<InboundRequest> = {}): InboundRequest {
  return { rawBody: BODY, headers: {}, query: {}, bodyParams: null, url: 'https://hooks.example.com/api/automation/v1/trigger/7', ...over };
}

const active: HmacSecret[] = [{ id: 's1', value: SECRET, expires_at: null }];
const run = (t: HmacTemplate, r: InboundRequest, secrets: HmacSecret[] = active, now = NOW): HmacResult =>
  verifyHmac({ template: t, secrets, request: r, now });
const ok = (result: HmacResult) => {
  assert.ok(result.ok, result.ok ? '' : result.reason);
  return result as Extract<HmacResult, { ok: true }>;
};
const reason = (result: HmacResult) => {
  assert.not.ok(result.ok, 'expected a failure');
  return (result as Extract<HmacResult, { ok: false }>).reason;
};

const test = suite('webhooks: verifyHmac');

test('raw extract, hex lower and upper case', () => {
  const hex = mac(BODY).toString('hex');
  assert.is(ok(run(template(), request({ headers: { 'x-sig': hex } }))).secretId, 's1');
  ok(run(template(), request({ headers: { 'x-sig': `  ${hex.toUpperCase()} ` } })));
  assert.is(
    reason(run(template(), request({ headers: { 'x-sig': mac('other').toString('hex') } }))),
    'signature does not match any active secret',
  );
  assert.is(reason(run(template(), request({ headers: { 'x-sig': `zz${hex}` } }))), 'signature header X-Sig is not valid hex');
});

test('a missing signature header is named in the reason', () => {
  assert.is(reason(run(template(), request())), 'signature header X-Sig missing');
});

test('prefix extract requires the prefix', () => {
  const t = template({ signature_source: { header: 'X-Hub', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' } });
  ok(run(t, request({ headers: { 'x-hub': `sha256=${mac(BODY).toString('hex')}` } })));
  assert.match(
    reason(run(t, request({ headers: { 'x-hub': `sha1=${mac(BODY).toString('hex')}` } }))),
    /has no signature in the expected form/,
  );
});

test('kv_pairs extract with the default and a custom pair separator; repeated keys are all candidates', () => {
  const hex = mac(BODY).toString('hex');
  const t = template({ signature_source: { header: 'X-Sig', extract: { kind: 'kv_pairs', key: 'v1', separator: ',' }, encoding: 'hex' } });
  ok(run(t, request({ headers: { 'x-sig': `t=1, v1=${'0'.repeat(64)}, v1=${hex}` } })));
  assert.is(
    reason(run(t, request({ headers: { 'x-sig': `t=1,v0=${hex}` } }))),
    'signature header X-Sig has no signature in the expected form',
  );
  const colon = template({
    signature_source: { header: 'X-Sig', extract: { kind: 'kv_pairs', key: 'sig', separator: ';', pair_separator: ':' }, encoding: 'hex' },
  });
  ok(run(colon, request({ headers: { 'x-sig': `alg:sha256;sig:${hex}` } })));
});

test('regex extract returns group 1, or the full match without groups', () => {
  const hex = mac(BODY).toString('hex');
  const group = template({ signature_source: { header: 'X-Sig', extract: { kind: 'regex', key: 'sig="([0-9a-f]+)"' }, encoding: 'hex' } });
  ok(run(group, request({ headers: { 'x-sig': `keyId="k1",sig="${hex}"` } })));
  const full = template({ signature_source: { header: 'X-Sig', extract: { kind: 'regex', key: '[0-9a-f]{64}' }, encoding: 'hex' } });
  ok(run(full, request({ headers: { 'x-sig': `digest ${hex} end` } })));
  const delimited = template({
    signature_source: { header: 'X-Sig', extract: { kind: 'regex', key: '/SIG=([0-9a-f]+)/i' }, encoding: 'hex' },
  });
  ok(run(delimited, request({ headers: { 'x-sig': `sig=${hex}` } })));
  assert.match(reason(run(group, request({ headers: { 'x-sig': 'nothing here' } }))), /expected form/);
});

// The pattern of issue 52: with V8's backtracking engine 40 characters held the process over
// 40 s (each one more doubled it); in a linear-time engine 5,000 answer at once. If this test
// ever runs the pattern in a backtracking engine again, it does not finish.
test('a nested-quantifier pattern on a hostile header answers at once, and still extracts a real signature', () => {
  const hex = mac(BODY).toString('hex');
  const nested = template({
    signature_source: { header: 'X-Signature', extract: { kind: 'regex', key: '^(?:[a-z0-9]+\\s?)*=\\s?([a-f0-9]+)$' }, encoding: 'hex' },
  });
  for (const hostile of [`${'a'.repeat(32)}!`, `${'a'.repeat(1000)}!`, `${'a1 '.repeat(300)}!`])
    assert.match(reason(run(nested, request({ headers: { 'x-signature': hostile } }))), /no signature in the expected form/);
  ok(run(nested, request({ headers: { 'x-signature': `sha256 v1=${hex}` } })));
});

// A pattern's cost is its compiled size times the text it runs on: both are bounded (the
// size when the template is saved), so no value a stranger sends costs more than a few ms.
test('a signature, timestamp or id value longer than 1,024 characters is refused before any extract runs', () => {
  const hex = mac(BODY).toString('hex');
  const nested = template({
    signature_source: { header: 'X-Signature', extract: { kind: 'regex', key: 'v1=([a-f0-9]+)' }, encoding: 'hex' },
    timestamp_source: { header: 'X-Time', extract: { kind: 'regex', key: 't=(\\d+)' }, format: 'unix' },
  });
  const long = `${' '.repeat(1020)}v1=${hex}`;
  assert.match(reason(run(nested, request({ headers: { 'x-signature': long, 'x-time': `t=${NOW_S}` } }))), /longer than 1024 characters/);
  const longTime = `${' '.repeat(1025)}t=${NOW_S}`;
  assert.match(
    reason(run(nested, request({ headers: { 'x-signature': `v1=${hex}`, 'x-time': longTime } }))),
    /timestamp .*longer than 1024/,
  );
});

test('base64 needs RFC 4648 padding; base64url works with and without padding', () => {
  // sha1 gives 20 bytes, whose base64 ends in one '=' — so padding is observable.
  const digest = mac(BODY, 'sha1');
  const b64 = template({ algo: 'sha1', signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64' } });
  assert.ok(digest.toString('base64').endsWith('='));
  ok(run(b64, request({ headers: { 'x-sig': digest.toString('base64') } })));
  assert.is(
    reason(run(b64, request({ headers: { 'x-sig': digest.toString('base64').replace(/=+$/, '') } }))),
    'signature header X-Sig is not valid base64',
  );
  const url = template({ algo: 'sha1', signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64url' } });
  const bare = digest.toString('base64url');
  assert.not.match(bare, /=/);
  ok(run(url, request({ headers: { 'x-sig': bare } })));
  ok(run(url, request({ headers: { 'x-sig': `${bare}=` } })));
  assert.match(reason(run(url, request({ headers: { 'x-sig': `${digest.toString('base64')}+/` } }))), /not valid base64url/);
});

test('every algo: sha1, sha256, sha512; a digest of another algo does not match', () => {
  for (const algo of ['sha1', 'sha256', 'sha512'] as const) {
    ok(run(template({ algo }), request({ headers: { 'x-sig': mac(BODY, algo).toString('hex') } })));
  }
  assert.is(
    reason(run(template({ algo: 'sha512' }), request({ headers: { 'x-sig': mac(BODY, 'sha256').toString('hex') } }))),
    'signature does not match any active secret',
  );
});

test('several signatures in one header are checked entry by entry', () => {
  const t = template({
    signature_source: { header: 'X-Sig', extract: { kind: 'prefix', key: 'v1,' }, encoding: 'base64', entry_separator: ' ' },
  });
  const good = mac(BODY).toString('base64');
  const other = mac('x').toString('base64');
  ok(run(t, request({ headers: { 'x-sig': `v1,${other} v2,${good} v1,${good}` } })));
  assert.is(reason(run(t, request({ headers: { 'x-sig': `v1,${other} v2,${good}` } }))), 'signature does not match any active secret');
});

test('timestamps: unix, unix_ms and iso8601, signed through {timestamp}', () => {
  const cases = [
    { format: 'unix', text: String(NOW_S - 10) },
    { format: 'unix_ms', text: String(NOW.getTime() - 10_000) },
    { format: 'iso8601', text: '2026-03-01T11:59:50Z' },
    { format: 'iso8601', text: '2026-03-01T13:59:50.000+02:00' },
  ] as const;
  for (const { format, text } of cases) {
    const t = template({ signed_template: '{timestamp}.{body}', timestamp_source: { header: 'X-Ts', format } });
    const sig = mac(Buffer.concat([Buffer.from(`${text}.`), BODY])).toString('hex');
    const result = ok(run(t, request({ headers: { 'x-sig': sig, 'x-ts': text } })));
    assert.is(result.timestamp?.getTime(), NOW.getTime() - 10_000, `${format} ${text}`);
  }
});

test('replay window: too old and too far in the future are refused; tolerance 0 disables it', () => {
  const t = template({
    signed_template: '{timestamp}.{body}',
    timestamp_source: { header: 'X-Ts', format: 'unix' },
    tolerance_seconds: 300,
  });
  const signed = (ts: number) => request({ headers: { 'x-ts': String(ts), 'x-sig': mac(`${ts}.${BODY.toString()}`).toString('hex') } });
  ok(run(t, signed(NOW_S - 300)));
  ok(run(t, signed(NOW_S + 300)));
  assert.is(reason(run(t, signed(NOW_S - 301))), `timestamp ${NOW_S - 301} is outside the 300 s window (too old)`);
  assert.is(reason(run(t, signed(NOW_S + 301))), `timestamp ${NOW_S + 301} is outside the 300 s window (in the future)`);
  ok(run(template({ ...t, tolerance_seconds: 0 }), signed(NOW_S - 86_400 * 365)));
});

test('a missing or malformed timestamp fails', () => {
  const t = template({ timestamp_source: { header: 'X-Ts', format: 'unix' } });
  const sig = mac(BODY).toString('hex');
  assert.is(reason(run(t, request({ headers: { 'x-sig': sig } }))), 'timestamp header X-Ts missing');
  assert.is(reason(run(t, request({ headers: { 'x-sig': sig, 'x-ts': '12:00' } }))), 'timestamp 12:00 is not a valid unix timestamp');
  const iso = template({ timestamp_source: { header: 'X-Ts', format: 'iso8601' } });
  assert.match(reason(run(iso, request({ headers: { 'x-sig': sig, 'x-ts': 'yesterday' } }))), /not a valid iso8601/);
});

test('expired secrets never verify; any active secret that matches wins', () => {
  const sig = mac(BODY).toString('hex');
  const expired: HmacSecret = { id: 'old', value: SECRET, expires_at: new Date(NOW.getTime() - 1) };
  assert.is(reason(run(template(), request({ headers: { 'x-sig': sig } }), [expired])), 'no active secret');
  assert.is(
    reason(run(template(), request({ headers: { 'x-sig': sig } }), [expired, { id: 'new', value: 'another', expires_at: null }])),
    'signature does not match any active secret',
  );
  const rotated: HmacSecret[] = [
    { id: 'new', value: 'another', expires_at: null },
    { id: 'previous', value: SECRET, expires_at: new Date(NOW.getTime() + 60_000) },
  ];
  assert.is(ok(run(template(), request({ headers: { 'x-sig': sig } }), rotated)).secretId, 'previous');
});

test('failure reasons never include a secret value', () => {
  const sig = mac(BODY, 'sha256', 'wrong').toString('hex');
  const r = reason(run(template(), request({ headers: { 'x-sig': sig } })));
  assert.not.ok(r.includes(SECRET));
});

test('signature from a parameter: query first, then body', () => {
  const t = template({ signature_source: { param: 'sig', extract: { kind: 'raw' }, encoding: 'hex' } });
  const hex = mac(BODY).toString('hex');
  ok(run(t, request({ query: { sig: [hex] } })));
  ok(run(t, request({ query: { sig: [hex, hex] } }))); // the same value twice is not ambiguous
  ok(run(t, request({ bodyParams: { sig: hex } })));
  assert.is(reason(run(t, request({ query: { sig: ['00'] }, bodyParams: { sig: hex } }))), 'signature does not match any active secret');
  assert.is(
    reason(run(t, request({ query: { sig: [hex, 'other'] } }))),
    'signature parameter sig is sent several times with different values',
  );
  assert.is(
    reason(run(t, request({ bodyParams: { sig: ['00', hex] } }))),
    'signature parameter sig is sent several times with different values',
  );
  assert.is(reason(run(t, request())), 'signature parameter sig missing');
});

test('{param:x} from the query, else the body; {header:x}; {url}', () => {
  const t = template({ signed_template: '{url}|{param:account}|{header:X-Request-Id}|{body}' });
  const url = 'https://hooks.example.com/trigger/7?account=acme';
  const sig = (account: string) => mac(Buffer.concat([Buffer.from(`${url}|${account}|req-1|`), BODY])).toString('hex');
  const headers = { 'x-request-id': 'req-1' };
  ok(
    run(t, request({ url, query: { account: ['acme'] }, bodyParams: { account: 'other' }, headers: { ...headers, 'x-sig': sig('acme') } })),
  );
  ok(run(t, request({ url, bodyParams: { account: 'acme' }, headers: { ...headers, 'x-sig': sig('acme') } })));
  ok(run(t, request({ url, bodyParams: { account: 42 }, headers: { ...headers, 'x-sig': sig('42') } })));
  assert.is(
    reason(run(t, request({ url: `${url}&x=1`, query: { account: ['acme'] }, headers: { ...headers, 'x-sig': sig('acme') } }))),
    'signature does not match any active secret',
  );
  assert.is(
    reason(run(t, request({ url, query: { account: ['acme'] }, headers: { 'x-sig': sig('acme') } }))),
    'signed header X-Request-Id missing',
  );
  assert.is(reason(run(t, request({ url, headers: { ...headers, 'x-sig': sig('acme') } }))), 'signed parameter account missing');
  // A second, different value appended by someone else is refused, not guessed at.
  assert.is(
    reason(run(t, request({ url, query: { account: ['acme', 'evil'] }, headers: { ...headers, 'x-sig': sig('acme') } }))),
    'signed parameter account is sent several times with different values',
  );
});

test('{body} is the exact raw bytes, even when they are not UTF-8', () => {
  const raw = Buffer.from([0xff, 0xfe, 0x00, 0x80, 0x41]);
  const t = template({ signed_template: 'pre:{body}' });
  const sig = mac(Buffer.concat([Buffer.from('pre:'), raw])).toString('hex');
  ok(run(t, request({ rawBody: raw, headers: { 'x-sig': sig } })));
  // Re-encoding through a string would replace the invalid bytes and break the signature.
  const lossy = mac(Buffer.from(`pre:${raw.toString('utf8')}`)).toString('hex');
  assert.is.not(lossy, sig);
  assert.is(reason(run(t, request({ rawBody: raw, headers: { 'x-sig': lossy } }))), 'signature does not match any active secret');
});

test('id_source gives the event id; it is required only when {id} is signed', () => {
  const informative = template({ id_source: { header: 'X-Delivery' } });
  const sig = mac(BODY).toString('hex');
  assert.is(ok(run(informative, request({ headers: { 'x-sig': sig, 'x-delivery': 'd-1' } }))).eventId, 'd-1');
  assert.is(ok(run(informative, request({ headers: { 'x-sig': sig } }))).eventId, null);
  const signed = template({
    signed_template: '{id}.{body}',
    id_source: { header: 'X-Delivery', extract: { kind: 'prefix', key: 'evt_' } },
  });
  ok(run(signed, request({ headers: { 'x-delivery': 'evt_9', 'x-sig': mac(`9.${BODY.toString()}`).toString('hex') } })));
  assert.is(reason(run(signed, request({ headers: { 'x-sig': sig } }))), 'id header X-Delivery missing');
});

test('secret_encoding: base64 after a prefix, and hex', () => {
  const key = Buffer.from('0123456789abcdef0123456789abcdef');
  const sig = mac(BODY, 'sha256', key).toString('hex');
  const b64 = template({ secret_encoding: { encoding: 'base64', prefix: 'whsec_' } });
  ok(run(b64, request({ headers: { 'x-sig': sig } }), [{ id: 'k', value: `whsec_${key.toString('base64')}`, expires_at: null }]));
  ok(run(b64, request({ headers: { 'x-sig': sig } }), [{ id: 'k', value: key.toString('base64'), expires_at: null }]));
  // Used as plain UTF-8, the same secret string would not match.
  assert.is(
    reason(
      run(template(), request({ headers: { 'x-sig': sig } }), [{ id: 'k', value: `whsec_${key.toString('base64')}`, expires_at: null }]),
    ),
    'signature does not match any active secret',
  );
  const hex = template({ secret_encoding: { encoding: 'hex' } });
  ok(run(hex, request({ headers: { 'x-sig': sig } }), [{ id: 'k', value: key.toString('hex'), expires_at: null }]));
  assert.is(
    reason(run(hex, request({ headers: { 'x-sig': sig } }), [{ id: 'k', value: 'not hex', expires_at: null }])),
    'no active secret decodes as hex',
  );
});

test('a body over max_body_bytes is refused; 0 means unlimited', () => {
  const sig = mac(BODY).toString('hex');
  assert.match(reason(run(template({ max_body_bytes: 4 }), request({ headers: { 'x-sig': sig } }))), /exceeds max_body_bytes 4/);
  ok(run(template({ max_body_bytes: 0 }), request({ headers: { 'x-sig': sig } })));
});

test.run();
