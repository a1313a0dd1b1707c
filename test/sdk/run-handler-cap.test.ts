// A flow step passes on max_items new items per run (1 when the handler's settings have no
// max_items). runHandler shows it: { cap: true } returns what a flow would, and without it
// a handler that returns more than a flow keeps is warned about.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { once } from 'node:events';
import { defineHandler, type DataPacket } from '../../sdk/index.js';
import { runHandler } from '../../sdk/testing/index.js';

const test = suite('runHandler: the max_items cap of a fetch step');

const three = (): DataPacket[] => [1, 2, 3].map((n) => ({ type: 'n', data: { title: `item ${n}` }, metadata: { item_id: `n${n}` } }));
const uncapped = defineHandler({ slug: 'three', type: 'fetch', label: 'Three', description: 'Three items.', fetch: async () => three() });
const declared = defineHandler<{ max_items: number }>({
  slug: 'three-declared',
  type: 'fetch',
  label: 'Three',
  description: 'Three items, max_items declared.',
  settings: { type: 'object', properties: { max_items: { type: 'integer', minimum: 1, default: 2 } } },
  fetch: async () => three(),
});

test('a handler without max_items: cap gives the one item a flow passes on', async () => {
  const packets = await runHandler(uncapped, {}, { cap: true });
  assert.equal(
    packets.map((p) => p.data.title),
    ['item 1'],
  );
});

test('without cap every item comes back, with a warning naming the handler and max_items', async () => {
  const warning = once(process, 'warning');
  const packets = await runHandler(uncapped, {});
  assert.is(packets.length, 3);
  const [emitted] = (await warning) as [Error & { code?: string }];
  assert.is(emitted.code, 'FLOWHOST_MAX_ITEMS');
  assert.match(
    emitted.message,
    "runHandler 'three': returned 3 items, but a flow step passes on 1 per run: its settings have no max_items",
  );
});

test('a handler that declares max_items gets its default, or what the settings say', async () => {
  assert.is((await runHandler(declared, {}, { cap: true })).length, 2);
  assert.is((await runHandler(declared, { max_items: 3 }, { cap: true })).length, 3);
});

test.run();
