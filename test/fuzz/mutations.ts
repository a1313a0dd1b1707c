// Hostile inputs: junk scalars for path and query, odd path segments, and mutations of a
// schema-valid body (missing required fields, wrong types, extra and prototype keys,
// unrepresentable numbers, huge strings, deep nesting).
import fc from 'fast-check';
import { bareObject, deepJson, raw, type RawJson } from './json-text.js';

/** Numbers JavaScript cannot hold exactly, or at all, written as text. */
export const NUMERIC_JUNK = [
  '1e309',
  '-1e309',
  '1e999',
  'Infinity',
  '-Infinity',
  'NaN',
  '-0',
  '0',
  '-1',
  '99999999999999999999',
  '9007199254740993',
  '9007199254740992',
  '-9007199254740993',
  '1.5',
  '1e2',
  '0x10',
  '1_000',
  '+1',
  '00001',
  '1e-400',
  '4294967296',
  '2147483648',
] as const;

/** Scalars as query or path text: numeric junk plus empties, words and JSON-looking text. */
export const SCALAR_JUNK = [...NUMERIC_JUNK, '', ' ', 'true', 'false', 'null', 'undefined', '[]', '{}', 'abc', '%00', 'ü'] as const;

/**
 * Path segments as sent on the wire: escaped, badly escaped (overlong and truncated UTF-8),
 * dot segments, empties, very long ones, and raw Latin-1 bytes (\u00fc, \u00ff), which
 * HTTP does not allow unescaped in a request target.
 */
export const ODD_SEGMENTS = [
  '%ff',
  '%E0%A4%A',
  '%C0%AF',
  '%C0%80',
  '%ED%A0%80',
  '%F0%9F%98%80',
  '%',
  '%%',
  '%2',
  '%00',
  '%0A',
  '%2F',
  '%2e%2e',
  '%25',
  '..',
  '.',
  '',
  '%20',
  '1%20',
  ';',
  '1;x=y',
  '1,2',
  '1%3F',
  '1%23',
  '\u00fc',
  '\u00ff',
  'a'.repeat(2048),
  '9'.repeat(400),
] as const;

/** Keys that reach Object.prototype when copied carelessly. */
export const POISON_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** Keys a document store treats specially (operators, paths) or cannot keep (NUL), and odd ones. */
export const ODD_KEYS = [
  '$where',
  '$gt',
  '$set',
  '$',
  'a.b',
  '.',
  '..',
  '\u0000',
  'a\u0000b',
  '',
  ' ',
  '\u{1F600}',
  'k'.repeat(1000),
  'hasOwnProperty',
  'toString',
  'toJSON',
] as const;

/** 100 KB and more of one character (ASCII, two- and four-byte UTF-8, a JSON escape). */
export const hugeString = fc
  .constantFrom(100_000, 120_000)
  .chain((n) => fc.constantFrom('x', 'é', '\u{1F600}', '\\').map((unit) => unit.repeat(Math.ceil(n / unit.length))));

/** 100..5000 levels of nesting as raw JSON text, sometimes just around the host's 64-level limit. */
export const deepValue: fc.Arbitrary<RawJson> = fc
  .tuple(
    fc.oneof({ arbitrary: fc.integer({ min: 100, max: 5000 }), weight: 3 }, { arbitrary: fc.integer({ min: 55, max: 70 }), weight: 1 }),
    fc.constantFrom('array' as const, 'object' as const),
  )
  .map(([depth, shape]) => deepJson(depth, shape));

/** Strings JSON can carry but not every store or encoder keeps: lone surrogates, NUL. */
export const oddString: fc.Arbitrary<RawJson> = fc
  .constantFrom('"\\ud800"', '"\\udc00x"', '"\\u0000"', '"a\\u0000b"', '{"\\ud800":1}', '{"a\\u0000":1}', '"\\u2028\\u2029"', '"\\uFEFF"')
  .map(raw);

export const rawNumber: fc.Arbitrary<RawJson> = fc
  .constantFrom(...NUMERIC_JUNK.filter((n) => /^-?[\d.]+(e[-+]?\d+)?$/i.test(n)), '1e999', '-1e999', '1.0', '1E400')
  .map(raw);

/** Any hostile JSON value (a wrong type for almost every field). */
export const junkValue: fc.Arbitrary<unknown> = fc.oneof(
  { arbitrary: fc.jsonValue({ maxDepth: 2 }), weight: 4 },
  { arbitrary: rawNumber, weight: 3 },
  { arbitrary: fc.constantFrom<unknown>(null, true, false, '', 0, -1, [], {}, '1', [1], { a: 1 }), weight: 3 },
  { arbitrary: hugeString, weight: 1 },
  { arbitrary: oddString, weight: 1 },
  { arbitrary: deepValue, weight: 1 },
  {
    arbitrary: fc.constantFrom(...POISON_KEYS).map((k) => bareObject([[k, { polluted: 'yes', prototype: { polluted: 'yes' } }]])),
    weight: 1,
  },
  {
    arbitrary: fc.constantFrom(...ODD_KEYS).map((k) =>
      bareObject([
        [k, 1],
        ['nested', bareObject([[k, { $ne: null }]])],
      ]),
    ),
    weight: 1,
  },
);

export type BodyMutation = (body: Record<string, unknown>, required: readonly string[]) => unknown;

const withKeys = (body: Record<string, unknown>) => bareObject(Object.entries(body));

/** Mutations of a generated body; each answers a new value (objects use own `__proto__` keys). */
export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
  // missing required field
  fc.nat().map(
    (i): BodyMutation =>
      (body, required) => {
        const out = withKeys(body);
        if (required.length) delete out[required[i % required.length]!];
        return out;
      },
  ),
  // a field of the wrong type (or huge, or deep, or an impossible number)
  fc.tuple(fc.nat(), junkValue).map(
    ([i, value]): BodyMutation =>
      (body, required) => {
        const keys = Object.keys(body).length ? Object.keys(body) : [...required, 'x'];
        const out = withKeys(body);
        out[keys[i % keys.length]!] = value;
        return out;
      },
  ),
  // an extra field, often a prototype key
  fc.tuple(fc.oneof(fc.constantFrom(...POISON_KEYS), fc.constantFrom(...ODD_KEYS), fc.string({ maxLength: 10 })), junkValue).map(
    ([key, value]): BodyMutation =>
      (body) => {
        const out = withKeys(body);
        out[key] = value;
        return out;
      },
  ),
  // the body is not an object at all
  junkValue.map(
    (value): BodyMutation =>
      () =>
        value,
  ),
);

/** Whole body texts that are not (valid) JSON objects. */
export const junkBodyText: fc.Arbitrary<string | Buffer> = fc.oneof(
  fc.constantFrom(
    '{',
    '{"a":',
    '[',
    'nul',
    '{"a":1,"a":2}',
    '{"__proto__":{"polluted":"yes"}}',
    '{"constructor":{"prototype":{"polluted":"yes"}}}',
    '\uFEFF{}',
    '{}garbage',
    '"str"',
    '1e999',
    'NaN',
    '{"a":1e999}',
    ' ',
  ),
  fc.constantFrom(Buffer.from([0xff, 0xfe, 0x7b, 0x7d]), Buffer.from([0xc0, 0xaf]), Buffer.from('{"a":"\xff"}', 'latin1')),
  fc.string({ maxLength: 40 }),
);
