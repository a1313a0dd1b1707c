// Which query values of a URL setting are secret, and how they are rewritten: by the same
// names the request log redacts, the rest of the address byte for byte as written.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rewriteSecretParameters, secretParameters } from '../../../core/security/url-query-secrets.js';
import { loggableUrl } from '../../../host/logging/request-url.js';

const test = suite('core/security: secret query parameters in a URL');
const mask = () => '••••••••';

test('the values of secret parameters alone are rewritten; the rest stays as written', () => {
  assert.is(
    rewriteSecretParameters('http://127.0.0.1:18099/feed.xml?token=abc&page=2&api%5Fkey=x%20y#top', mask),
    'http://127.0.0.1:18099/feed.xml?token=••••••••&page=2&api%5Fkey=••••••••#top',
  );
  assert.equal(secretParameters('https://h/f?key=1&key=2&sort=k'), [
    { name: 'key', value: '1' },
    { name: 'key', value: '2' },
  ]);
  assert.is(
    rewriteSecretParameters('https://h/f?key=1&key=2', (_v, name, n) => `${name}${n}`),
    'https://h/f?key=key0&key=key1',
    'each occurrence is counted',
  );
});

test('nothing to rewrite: not a URL, no secret parameter, or an empty value', () => {
  assert.is(rewriteSecretParameters('see https://h/f?token=abc', mask), null, 'text holding a URL is not a URL');
  assert.is(rewriteSecretParameters('https://h/f?page=2&search=token', mask), null);
  assert.is(rewriteSecretParameters('https://h/f?token=&token', mask), null);
  assert.is(rewriteSecretParameters('https://h/f#token=abc', mask), null, 'a fragment is not the query');
  assert.is(rewriteSecretParameters('token=abc', mask), null);
});

test('dropping them leaves the address and the other parameters', () => {
  assert.is(
    rewriteSecretParameters('https://h/feed.xml?token=abc&page=2', () => null),
    'https://h/feed.xml?page=2',
  );
  assert.is(
    rewriteSecretParameters('https://h/feed.xml?token=abc#x', () => null),
    'https://h/feed.xml#x',
  );
});

test('the request log redacts the same names', () => {
  assert.is(loggableUrl('/feed.xml?token=abc&page=2&api_key=xyz'), '/feed.xml?token=[redacted]&page=2&api_key=[redacted]');
});

test.run();
