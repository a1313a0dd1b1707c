// New document ids (core/store/document-shape.ts): 24 hex characters in an ObjectId's
// layout, unique, ordered by creation (so SQLite's id index grows at its right edge), with
// a random tail so two processes' ids differ and none can be guessed from the last.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { newDocumentId } from '../../core/store/document-shape.js';

const test = suite('store: new document ids');

test('ids are 24 lower-case hex characters, unique over several refills of the random pool', () => {
  const ids = Array.from({ length: 5000 }, () => newDocumentId());
  for (const id of ids) assert.match(id, /^[0-9a-f]{24}$/);
  assert.is(new Set(ids).size, ids.length);
});

test('ids sort in creation order (a wrap of the 3-byte counter may break it once)', () => {
  const ids = Array.from({ length: 2000 }, () => newDocumentId());
  const outOfOrder = ids.filter((id, i) => i > 0 && id <= ids[i - 1]!).length;
  assert.ok(outOfOrder <= 1, `${outOfOrder} ids sorted before the one made just earlier`);
});

test('the first 4 bytes are the creation time in seconds; the last 5 differ from id to id', () => {
  const before = Math.floor(Date.now() / 1000);
  const [a, b] = [newDocumentId(), newDocumentId()];
  const after = Math.floor(Date.now() / 1000);
  const seconds = parseInt(a!.slice(0, 8), 16);
  assert.ok(seconds >= before && seconds <= after, `time part ${seconds} outside ${before}..${after}`);
  assert.is.not(a!.slice(14), b!.slice(14), 'the random tails differ');
  // The counter advances by one from one id to the next.
  assert.is((parseInt(b!.slice(8, 14), 16) - parseInt(a!.slice(8, 14), 16) + 0x1000000) % 0x1000000, 1);
});

test.run();
