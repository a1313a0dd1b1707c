// The venue check's edit distance (optimal string alignment): known pairs, and the
// properties a distance must have, over random strings including astral characters.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { editDistance } from '../../../plugins/events/edit-distance.js';

const test = suite('events: edit distance');

test('known pairs: insert, delete, replace and a swap of neighbours are one edit each', () => {
  const cases: Array<[string, string, number]> = [
    ['', '', 0],
    ['', 'abc', 3],
    ['abc', '', 3],
    ['lido', 'lido', 0],
    ['kesselhaus', 'keselhaus', 1],
    ['kesselhaus', 'kesselhuas', 1],
    ['kesselhaus', 'kesselraum', 2],
    ['lido', 'lidl', 1],
    ['kitten', 'sitting', 3],
    ['ca', 'abc', 3],
    ['😀a', 'a😀', 1],
    ['😀', '😁', 1],
  ];
  for (const [a, b, d] of cases) assert.is(editDistance(a, b), d, `${a} / ${b}`);
});

test('a distance: zero only for equal strings, symmetric, within the longer length, triangle inequality', () => {
  const text = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'ß', '😀'), maxLength: 8 });
  fc.assert(
    fc.property(text, text, text, (a, b, c) => {
      const ab = editDistance(a, b);
      assert.is(ab === 0, a === b);
      assert.is(ab, editDistance(b, a));
      assert.ok(ab <= Math.max(Array.from(a).length, Array.from(b).length));
      assert.ok(ab >= Math.abs(Array.from(a).length - Array.from(b).length));
      assert.ok(editDistance(a + c, b + c) <= ab, 'a shared tail adds nothing');
    }),
  );
});

test('one edit of any kind, anywhere, is distance 1 (or 0 when it changes nothing)', () => {
  const chars = fc.constantFrom('a', 'b', 'ß', '😀');
  fc.assert(
    fc.property(
      fc.array(chars, { minLength: 2, maxLength: 8 }),
      fc.nat(),
      chars,
      fc.constantFrom('insert', 'delete', 'replace', 'swap'),
      (letters, at, c, kind) => {
        const i = at % letters.length;
        const edited = [...letters];
        if (kind === 'insert') edited.splice(i, 0, c);
        else if (kind === 'delete') edited.splice(i, 1);
        else if (kind === 'replace') edited[i] = c;
        else if (i + 1 < edited.length) [edited[i], edited[i + 1]] = [edited[i + 1]!, edited[i]!];
        const d = editDistance(letters.join(''), edited.join(''));
        assert.is(d, letters.join('') === edited.join('') ? 0 : 1, `${kind} at ${i}`);
      },
    ),
  );
});

test.run();
