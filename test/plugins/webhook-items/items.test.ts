// The webhook handler's reading of a payload: its paths, and the presets' senders' shapes.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ItemPathError, parsePath, PATH_PATTERN, readPath } from '../../../plugins/webhook-items/item-path.js';
import { deliveryOf, deliveryPackets, type WebhookItemsSettings } from '../../../plugins/webhook-items/items.js';
import { decodePayload } from '../../../core/webhooks/routes/payload.js';

const test = suite('webhook-items: payload paths and items');

const delivery = (payload: unknown) => ({ payload, request_id: 'req-1', received_at: '2026-12-07T10:00:00.000Z' });
const items = (payload: unknown, settings: WebhookItemsSettings = {}) => deliveryPackets(delivery(payload), settings);

test('paths: names, [n] indexes and digit names on arrays; the settings pattern accepts exactly what parses', () => {
  assert.equal(parsePath('items_path', ''), []);
  assert.equal(parsePath('items_path', 'data.items[2].tags'), [{ key: 'data' }, { key: 'items' }, { index: 2 }, { key: 'tags' }]);
  assert.equal(readPath({ a: [{ b: 1 }, { b: 2 }] }, parsePath('p', 'a.1.b')), { found: true, value: 2 });
  assert.equal(readPath({ a: [{ b: 1 }] }, parsePath('p', 'a[0].b')), { found: true, value: 1 });
  const pattern = new RegExp(PATH_PATTERN);
  for (const good of ['', 'a', 'data.items', 'a[0]', 'a[0][1].b', 'commits.0.id', 'author.name', 'x-y.z_1'])
    assert.ok(pattern.test(good) && parsePath('p', good), good);
  for (const bad of ['.a', 'a.', 'a..b', '[0]', 'a[x]', 'a[0', 'a]', 'a[0]b', 'a[-1]']) {
    assert.not.ok(pattern.test(bad), `pattern accepts ${bad}`);
    assert.throws(
      () => parsePath('items_path', bad),
      (e: Error) => e instanceof ItemPathError && e.message.includes(`items_path '${bad}'`),
    );
  }
});

test('a generic JSON array: the body arrives as {items: [...]}, items_path "items"; ids dedupe, a missing id is a hash of the item', () => {
  const payload = decodePayload(
    Buffer.from(
      JSON.stringify([
        { id: 7, title: 'Seven', url: 'https://e.test/7' },
        { title: 'No id', content: 'c' },
      ]),
    ),
    'application/json',
  );
  const packets = items(payload, { items_path: 'items' });
  assert.is(packets.length, 2);
  assert.equal(packets[0]!.data, {
    title: 'Seven',
    content: '',
    link: 'https://e.test/7',
    guid: '7',
    item: { id: 7, title: 'Seven', url: 'https://e.test/7' },
  });
  assert.equal(packets[0]!.metadata, {
    item_id: '7',
    source_url: 'https://e.test/7',
    webhook_request_id: 'req-1',
    received_at: '2026-12-07T10:00:00.000Z',
  });
  assert.match(packets[1]!.metadata.item_id as string, /^sha256:[0-9a-f]{64}$/);
  // The same item with its keys in another order is the same item.
  const reordered = items({ items: [{ content: 'c', title: 'No id' }] }, { items_path: 'items' });
  assert.is(reordered[0]!.metadata.item_id, packets[1]!.metadata.item_id);
});

test('a Stripe event: items_path empty takes the event as one item, fields read deep inside it', () => {
  const event = {
    id: 'evt_1',
    type: 'charge.succeeded',
    data: { object: { id: 'ch_1', description: 'Order 1001', amount: 1999 } },
  };
  const [packet, ...rest] = items(event, { id_field: 'id', title_field: 'type', content_field: 'data.object.description' });
  assert.is(rest.length, 0);
  assert.is(packet!.data.title, 'charge.succeeded');
  assert.is(packet!.data.content, 'Order 1001');
  assert.is(packet!.metadata.item_id, 'evt_1');
  // Or the event's object as the item: a path to an object is one item.
  assert.is(items(event, { items_path: 'data.object', content_field: 'amount' })[0]!.data.content, '1999');
});

test("GitHub's form content type: payload=<json> is read through by the path", () => {
  const push = { commits: [{ id: 'abc', message: 'Fix it', url: 'https://github.com/a/b/commit/abc' }] };
  const form = decodePayload(Buffer.from(`payload=${encodeURIComponent(JSON.stringify(push))}`), 'application/x-www-form-urlencoded');
  const packets = items(form, { items_path: 'payload.commits', title_field: 'message' });
  assert.is(packets.length, 1);
  assert.is(packets[0]!.data.title, 'Fix it');
  assert.is(packets[0]!.metadata.item_id, 'abc');
});

test('items that are text, empty items, fields that are not text', () => {
  const packets = items({ list: ['first', 2, null, {}, { title: { nested: true }, content: 'x' }] }, { items_path: 'list' });
  assert.equal(
    packets.map((p) => [p.data.title, p.data.content]),
    [
      ['', 'first'],
      ['', '2'],
      ['', 'x'],
    ],
  );
  assert.equal(items({}), [], 'an empty body is no item');
});

test('a path that leads nowhere names the path and what is there; skip_missing makes it no items', () => {
  const cases: Array<[unknown, string, string]> = [
    [{ data: { items: [] } }, 'data.entries', "items_path 'data.entries' does not lead to the items: data is an object without 'entries'"],
    [{ data: 'text' }, 'data.items', "items_path 'data.items' does not lead to the items: data is a string, not an object"],
    [{ list: [1] }, 'list[3]', "items_path 'list[3]' does not lead to the items: list is an array of 1"],
    [
      { data: { count: 3 } },
      'data.count',
      "items_path 'data.count' does not lead to the items: data.count is a number, not an array or an object",
    ],
    [{ zen: 'hi' }, 'commits', "items_path 'commits' does not lead to the items: the payload is an object without 'commits'"],
  ];
  for (const [payload, path, message] of cases) {
    assert.throws(
      () => items(payload, { items_path: path }),
      (e: Error) => e.message.startsWith(message),
      path,
    );
    if (path !== 'data.count') assert.equal(items(payload, { items_path: path, skip_missing: true }), [], path);
  }
});

test('deliveryOf: the trigger the run was started with, or null', () => {
  assert.is(deliveryOf({}), null);
  assert.is(deliveryOf({ webhook_trigger: 'x' }), null);
  assert.equal(deliveryOf({ webhook_trigger: { payload: { a: 1 }, request_id: 'r', received_at: 't', headers: {} } }), {
    payload: { a: 1 },
    request_id: 'r',
    received_at: 't',
  });
});

test.run();
