import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { checkTemplate, parseSignedTemplate } from '../../../core/webhooks/hmac-template.js';

const test = suite('webhooks: HMAC template checks');

const base = () => ({
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'hex' },
});

test('a minimal template is valid, and its defaults are not written into it', () => {
  const template: Record<string, unknown> = base();
  assert.equal(checkTemplate(template), []);
  assert.equal(template, base());
});

test('non-objects and unknown fields are refused', () => {
  assert.equal(checkTemplate(null), ['the template must be an object']);
  assert.equal(checkTemplate([]), ['the template must be an object']);
  const problems = checkTemplate({ ...base(), extra: 1 });
  assert.ok(
    problems.some((p) => p.includes('extra is not an allowed property')),
    problems.join('; '),
  );
});

test('bad algo, encoding, format and missing fields are each reported', () => {
  const problems = checkTemplate({
    mode: 'hmac',
    algo: 'md5',
    signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base32' },
    timestamp_source: { header: 'X-Ts', format: 'rfc822' },
  });
  const text = problems.join('\n');
  assert.match(text, /algo must be one of: sha1, sha256, sha512/);
  assert.match(text, /signed_template is required/);
  assert.match(text, /signature_source\.encoding must be one of/);
  assert.match(text, /timestamp_source\.format must be one of/);
});

test('a source needs exactly one of header and param', () => {
  assert.ok(checkTemplate({ ...base(), signature_source: { extract: { kind: 'raw' }, encoding: 'hex' } }).length > 0);
  assert.ok(
    checkTemplate({ ...base(), signature_source: { header: 'a', param: 'b', extract: { kind: 'raw' }, encoding: 'hex' } }).length > 0,
  );
  assert.equal(checkTemplate({ ...base(), signature_source: { param: 'sig', extract: { kind: 'raw' }, encoding: 'hex' } }), []);
});

test('prefix, kv_pairs and regex need a key; kv_pairs needs a separator', () => {
  const withExtract = (extract: Record<string, unknown>) =>
    checkTemplate({ ...base(), signature_source: { header: 'X', extract, encoding: 'hex' } });
  assert.match(withExtract({ kind: 'prefix' }).join(), /key is required/);
  assert.match(withExtract({ kind: 'regex' }).join(), /key is required/);
  assert.match(withExtract({ kind: 'kv_pairs', key: 'v1' }).join(), /separator is required/);
  assert.equal(withExtract({ kind: 'kv_pairs', key: 'v1', separator: ',' }), []);
  assert.match(withExtract({ kind: 'split' }).join(), /kind must be one of/);
});

test('an invalid regex is rejected when the template is saved, in any source', () => {
  const bad = checkTemplate({ ...base(), signature_source: { header: 'X', extract: { kind: 'regex', key: 'v1=([a-f' }, encoding: 'hex' } });
  assert.match(bad.join(), /signature_source\.extract\.key is not a pattern the host can run/);
  const badTs = checkTemplate({ ...base(), timestamp_source: { header: 'T', extract: { kind: 'regex', key: '(?<=' }, format: 'unix' } });
  assert.match(badTs.join(), /timestamp_source\.extract\.key is not a pattern the host can run/);
  assert.equal(
    checkTemplate({ ...base(), signature_source: { header: 'X', extract: { kind: 'regex', key: '/V1=([a-f0-9]+)/i' }, encoding: 'hex' } }),
    [],
  );
});

test('a pattern the linear-time engine cannot run is refused when saved, naming the construct', () => {
  const withPattern = (key: string) =>
    checkTemplate({ ...base(), signature_source: { header: 'X', extract: { kind: 'regex', key }, encoding: 'hex' } }).join();
  assert.match(withPattern('(v1)=\\1([a-f0-9]+)'), /signature_source\.extract\.key .*backreferences/);
  assert.match(withPattern('(?<k>v1)=\\k<k>'), /backreferences/);
  assert.match(withPattern('v1=(?=[a-f0-9])([a-f0-9]+)'), /lookaheads/);
  assert.match(withPattern('(?<!x)v1=([a-f0-9]+)'), /lookbehinds/);
  assert.match(withPattern('(?>v1)=([a-f0-9]+)'), /atomic groups/);
  assert.match(withPattern('v1=([a-f0-9]++)'), /possessive quantifiers/);
  // Counted repeats compile to one instruction per count: a pattern's cost on a stranger's
  // header is its size times the header's, so a large one is refused (20 × {1,1000} held the
  // host 31 s on a 4,000-character header even in a linear-time engine).
  assert.match(withPattern(`${'[a-z]{1,1000}'.repeat(20)}(!)`), /too large .* instructions, at most 256/);
  assert.match(withPattern('[a-z]{1,500}(!)'), /too large/);
  assert.equal(withPattern('sha512=([a-f0-9]{128})'), '');
  assert.match(withPattern('/v1=([a-f0-9]+)/g'), /only the flags i, m, s and u/);
  assert.match(withPattern('/v1=([a-f0-9]+)/iy'), /only the flags/);
  // What RE2 takes stays accepted: named groups, classes, Unicode properties, flags.
  for (const ok of ['(?<sig>[a-f0-9]+)', '/^(?:[a-z0-9]+\\s?)*=\\s?([a-f0-9]+)$/m', '\\p{L}+=(\\w+)', '/t=(\\d+)/is'])
    assert.equal(withPattern(ok), '', ok);
});

test('a template is stored as sent: checking it adds no defaults (no pair_separator on every extract)', () => {
  const template = {
    ...base(),
    signature_source: { header: 'X', extract: { kind: 'regex', key: 'v1=([a-f0-9]+)' }, encoding: 'hex' },
    timestamp_source: { header: 'T', extract: { kind: 'raw' }, format: 'unix' },
  };
  const sent = structuredClone(template);
  assert.equal(checkTemplate(template), []);
  assert.equal(template, sent);
});

test('placeholders: unknown ones and {timestamp}/{id} without their source are refused', () => {
  assert.match(checkTemplate({ ...base(), signed_template: '{body}.{nonce}' }).join(), /unknown placeholder \{nonce\}/);
  assert.match(checkTemplate({ ...base(), signed_template: '{timestamp}.{body}' }).join(), /no timestamp_source/);
  assert.match(checkTemplate({ ...base(), signed_template: '{id}.{body}' }).join(), /no id_source/);
  assert.equal(checkTemplate({ ...base(), signed_template: '{url}|{header:X-A}|{param:b}|{body}' }), []);
});

test('parseSignedTemplate keeps literals and placeholders in order', () => {
  assert.equal(parseSignedTemplate('v0:{timestamp}:{body}').parts, [
    { kind: 'literal', text: 'v0:' },
    { kind: 'timestamp' },
    { kind: 'literal', text: ':' },
    { kind: 'body' },
  ]);
  assert.equal(parseSignedTemplate('{header:X-Req}{param:a:b}').parts, [
    { kind: 'header', name: 'X-Req' },
    { kind: 'param', name: 'a:b' },
  ]);
});

test('secret_encoding and integer limits are checked', () => {
  assert.equal(checkTemplate({ ...base(), secret_encoding: { encoding: 'base64', prefix: 'whsec_' } }), []);
  assert.ok(checkTemplate({ ...base(), secret_encoding: { encoding: 'rot13' } }).length > 0);
  assert.ok(checkTemplate({ ...base(), tolerance_seconds: -1 }).length > 0);
  assert.ok(checkTemplate({ ...base(), max_body_bytes: 1.5 }).length > 0);
});

test.run();
