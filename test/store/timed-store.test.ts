import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { SyncHook } from 'tapable';
import type { StoreOperationTiming } from '../../core/kernel/hooks.js';
import { DuplicateKeyError, UnsupportedQueryError } from '../../core/store/port.js';
import { openEmbeddedStore } from '../../host/store/embedded/index.js';
import { TimedStore } from '../../host/store/timed-store.js';
import type { Logger } from '../../core/kernel/logger.js';

const test = suite('store: operations reported for measuring (TimedStore)');
const warnings: unknown[] = [];
const silent = { warn: (fields: unknown) => void warnings.push(fields) } as unknown as Logger;

test('each operation is reported once, with its collection, name, duration and outcome; results pass through', async () => {
  const inner = openEmbeddedStore({ file: ':memory:' });
  const hook = new SyncHook<[StoreOperationTiming]>(['operation']);
  const seen: StoreOperationTiming[] = [];
  hook.tap('test', (timing) => void seen.push(timing));
  const store = new TimedStore(inner, { hook, log: silent });
  assert.is(store.kind, 'embedded');
  assert.is(store.singleWriter, true);
  const c = store.collection<{ k: number }>('things');
  assert.is(store.collection('things'), c, 'one wrapper per collection');
  await c.createIndex({ fields: { k: 1 }, unique: true });
  const doc = await c.insertOne({ k: 1 });
  assert.is((await c.findOne({ k: 1 }))?._id, doc._id);
  const duplicate = await c.insertOne({ k: 1 }).then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(duplicate instanceof DuplicateKeyError, `the adapter's error comes through unchanged: ${String(duplicate)}`);
  assert.is(await store.nextId('seq', 5), 1);
  assert.equal(
    seen.map((s) => [s.collection, s.operation, s.failed]),
    [
      ['things', 'createIndex', false],
      ['things', 'insertOne', false],
      ['things', 'findOne', false],
      ['things', 'insertOne', true],
      ['', 'nextId', false],
    ],
  );
  assert.ok(seen.every((s) => Number.isFinite(s.durationMs) && s.durationMs >= 0));
  await store.close();
});

test('a call the adapter refuses before it starts is a failed operation; with nothing tapped nothing is reported', async () => {
  const inner = openEmbeddedStore({ file: ':memory:' });
  const hook = new SyncHook<[StoreOperationTiming]>(['operation']);
  const store = new TimedStore(inner, { hook, log: silent });
  // Untapped: passed straight through, same answers.
  assert.is(await store.nextId('s'), 1);
  const seen: StoreOperationTiming[] = [];
  hook.tap('test', (timing) => void seen.push(timing));
  let refused: unknown;
  try {
    await store.nextId('s', 0);
  } catch (error) {
    refused = error;
  }
  assert.ok(refused instanceof UnsupportedQueryError, String(refused));
  assert.equal(
    seen.map((s) => [s.operation, s.failed]),
    [['nextId', true]],
  );
  await store.close();
});

test('a tap that throws is logged and never fails or changes the operation it measures', async () => {
  const inner = openEmbeddedStore({ file: ':memory:' });
  const hook = new SyncHook<[StoreOperationTiming]>(['operation']);
  hook.tap('broken', () => {
    throw new Error('tap broke');
  });
  const store = new TimedStore(inner, { hook, log: silent });
  const before = warnings.length;
  const c = store.collection('things');
  await c.createIndex({ fields: { k: 1 }, unique: true });
  const doc = await c.insertOne({ k: 1 });
  assert.is((await c.findOne({ k: 1 }))?._id, doc._id);
  const duplicate = await c.insertOne({ k: 1 }).then(
    () => null,
    (error: unknown) => error,
  );
  assert.ok(duplicate instanceof DuplicateKeyError, `the adapter's own error, not the tap's: ${String(duplicate)}`);
  assert.is(warnings.length - before, 4, 'each failed report logged');
  await store.close();
});

test.run();
