// The bundle's string-width (host/cli/string-width.ts) answers as string-width itself for
// every string: its own shortcut for printable ASCII, the library for everything else.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import realStringWidth from 'string-width';
import stringWidth from '../../../host/cli/string-width.js';

const test = suite('cli: string-width for the bundle');

test('the same widths as string-width on ASCII, colour codes, accents, wide characters and emoji', () => {
  for (const text of [
    '',
    'flowhost flows list',
    '  --json  Print JSON  [boolean]',
    '\u001b[31mred\u001b[39m',
    'héllo',
    'e\u0301',
    '日本語',
    '👍🏽',
    '👨‍👩‍👧',
    '\t',
    '1\u20e3',
    '\u0000x',
  ])
    assert.is(stringWidth(text), realStringWidth(text), JSON.stringify(text));
  assert.is(
    stringWidth('\u001b[31mred\u001b[39m', { countAnsiEscapeCodes: true }),
    realStringWidth('\u001b[31mred\u001b[39m', { countAnsiEscapeCodes: true }),
  );
});

test('the same widths as string-width on any string', () => {
  fc.assert(
    fc.property(
      fc.oneof(fc.string(), fc.string({ unit: 'grapheme' }), fc.string({ unit: 'binary' })),
      (text) => stringWidth(text) === realStringWidth(text),
    ),
    { numRuns: 2000 },
  );
});

test.run();
