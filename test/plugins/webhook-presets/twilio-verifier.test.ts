import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHash } from 'node:crypto';
import { twilioSignature, twilioVerifier } from '../../../plugins/webhook-presets/twilio-verifier.js';
import type { VerifierRequest } from '../../../sdk/index.js';

/** Runs the verifier; answers true, or the logged reason of a refusal. */
async function verdict(request: Omit<VerifierRequest, 'query' | 'now'>): Promise<true | string> {
  const result = await twilioVerifier.verify({ query: {}, now: new Date(), ...request });
  if (typeof result === 'boolean') throw new Error('the Twilio verifier answers a verdict with a reason, not a bare boolean');
  return result.ok ? true : result.reason;
}

const test = suite('webhook-presets: twilio verifier');

// Twilio's documented example (docs "Webhooks security", snippet
// TwilioDevEd/api-snippets security/signature_validation): auth token 12345.
const URL_ = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS: Array<[string, string]> = [
  ['CallSid', 'CA1234567890ABCDE'],
  ['Caller', '+14158675309'],
  ['Digits', '1234'],
  ['From', '+14158675309'],
  ['To', '+18005551212'],
];
const SIGNATURE = 'RSOYDt4T1cUTdK1PDd93/VVr8B8=';
// Sent in another order than the sorted one: the verifier must sort.
const FORM = Buffer.from(new URLSearchParams([...PARAMS].reverse()).toString());
const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': SIGNATURE };

test('reproduces the documented signature', () => {
  assert.is(twilioSignature('12345', URL_, PARAMS), SIGNATURE);
});

test('verifies the documented request; any secret of the list may match', async () => {
  assert.is(await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: URL_, secrets: ['12345'] }), true);
  assert.is(await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: URL_, secrets: ['old', '12345'] }), true);
});

test('a tampered parameter, another URL, a wrong token or no header fail', async () => {
  const tampered = Buffer.from(FORM.toString().replace('Digits=1234', 'Digits=1235'));
  const mismatch = `X-Twilio-Signature does not match any active secret for ${URL_} (check the public URL the host is configured with)`;
  assert.is(await verdict({ rawBody: tampered, headers: FORM_HEADERS, url: URL_, secrets: ['12345'] }), mismatch);
  assert.match(
    String(await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: URL_.replace('foo=1', 'foo=2'), secrets: ['12345'] })),
    /does not match any active secret/,
  );
  assert.is(await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: URL_, secrets: ['54321'] }), mismatch);
  assert.is(
    await verdict({ rawBody: FORM, headers: { 'content-type': 'application/x-www-form-urlencoded' }, url: URL_, secrets: ['12345'] }),
    'header X-Twilio-Signature missing',
  );
});

test('the URL with the default port written out is accepted, as Twilio libraries do', async () => {
  assert.is(
    await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: 'https://mycompany.com:443/myapp.php?foo=1&bar=2', secrets: ['12345'] }),
    true,
  );
  assert.match(
    String(
      await verdict({ rawBody: FORM, headers: FORM_HEADERS, url: 'https://mycompany.com:8443/myapp.php?foo=1&bar=2', secrets: ['12345'] }),
    ),
    /does not match/,
  );
});

test('JSON webhooks: URL signed alone, body checked against bodySHA256', async () => {
  const body = Buffer.from('{"event":"x"}');
  const url = `https://mycompany.com/hook?bodySHA256=${createHash('sha256').update(body).digest('hex')}`;
  const headers = { 'content-type': 'application/json', 'x-twilio-signature': twilioSignature('12345', url, []) };
  assert.is(await verdict({ rawBody: body, headers, url, secrets: ['12345'] }), true);
  assert.is(
    await verdict({ rawBody: Buffer.from('{"event":"y"}'), headers, url, secrets: ['12345'] }),
    'the body does not hash to the bodySHA256 of the URL',
  );
});

test.run();
