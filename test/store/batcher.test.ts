// Group commit (core/store/batcher.ts): calls in one turn share one flush, each caller gets
// its own result or error, drain waits for everything added, and a refused insertMany
// falls back to one insert per document so one bad document fails alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createBatcher, idBlocks, insertBatcher } from '../../core/store/batcher.js';

const test = suite('store: batcher');

test('calls made in one turn go to one flush, in order; later calls to the next', async () => {
  const flushes: number[][] = [];
  const batcher = createBatcher<number, number>(async (items) => {
    flushes.push(items);
    await new Promise((done) => setTimeout(done, 5));
    return items.map((n) => n * 10);
  });
  const first = await Promise.all([1, 2, 3].map((n) => batcher.add(n)));
  assert.equal(first, [10, 20, 30]);
  const later = await batcher.add(4);
  assert.is(later, 40);
  assert.equal(flushes, [[1, 2, 3], [4]]);
});

test('soon: items added in one run of microtasks are flushed together before the next turn; others wait for it', async () => {
  const flushes: number[][] = [];
  const batcher = createBatcher<number, number>(async (items) => {
    flushes.push(items);
    return items;
  });
  let turned = false;
  setImmediate(() => {
    turned = true;
  });
  // Three callers resumed by one resolution (as a turn's triggers are by their job batch).
  const stored = Promise.resolve();
  const added = await Promise.all([1, 2, 3].map((n) => stored.then(() => batcher.add(n, true))));
  assert.equal(added, [1, 2, 3]);
  assert.is(turned, false, 'written within the turn');
  assert.equal(flushes, [[1, 2, 3]]);
  // Without `soon`: the next turn, as before.
  const later = batcher.add(4);
  await Promise.resolve();
  assert.equal(flushes, [[1, 2, 3]]);
  assert.is(await later, 4);
  assert.equal(flushes, [[1, 2, 3], [4]]);
});

test('an Error result fails its own caller only; a throwing flush fails the whole batch', async () => {
  const batcher = createBatcher<number, number>(async (items) => {
    if (items.includes(99)) throw new Error('store down');
    return items.map((n) => (n < 0 ? new Error(`bad ${n}`) : n));
  });
  const results = await Promise.allSettled([batcher.add(1), batcher.add(-2), batcher.add(3)]);
  assert.equal(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.match(String((results[1] as PromiseRejectedResult).reason), /bad -2/);
  const down = await Promise.allSettled([batcher.add(5), batcher.add(99)]);
  assert.equal(
    down.map((r) => r.status),
    ['rejected', 'rejected'],
  );
});

test('maxBatch splits a large turn; drain resolves once everything added is settled', async () => {
  const sizes: number[] = [];
  const settled: number[] = [];
  const batcher = createBatcher<number, number>(async (items) => {
    sizes.push(items.length);
    return items;
  }, 4);
  for (let i = 0; i < 10; i++) void batcher.add(i).then((n) => settled.push(n));
  await batcher.drain();
  await Promise.resolve();
  assert.equal(sizes, [4, 4, 2]);
  assert.is(settled.length, 10);
  await batcher.drain(); // nothing pending: resolves at once
});

test('insertBatcher: insertMany for a batch; refused, one insert per document so only the bad one fails', async () => {
  const calls: string[] = [];
  const batcher = insertBatcher<{ id: number }, { id: number }>(
    async (docs) => {
      calls.push(`many:${docs.length}`);
      if (docs.some((d) => d.id === 2)) throw new Error('duplicate');
      return docs;
    },
    async (doc) => {
      calls.push(`one:${doc.id}`);
      if (doc.id === 2) throw new Error('duplicate 2');
      return doc;
    },
  );
  const results = await Promise.allSettled([1, 2, 3].map((id) => batcher.add({ id })));
  assert.equal(
    results.map((r) => r.status),
    ['fulfilled', 'rejected', 'fulfilled'],
  );
  assert.equal(calls, ['many:3', 'one:1', 'one:2', 'one:3']);
  assert.equal(await batcher.add({ id: 7 }), { id: 7 });
  assert.is(calls.at(-1), 'one:7', 'a batch of one is a plain insert');
});

test('insertBatcher prepare: one call per batch turns items into documents (ids in order); a throw fails the batch', async () => {
  let next = 100;
  const prepared: number[] = [];
  let idsDown = false;
  const batcher = insertBatcher<{ id: number; text: string }, { id: number; text: string }, string>(
    async (docs) => docs,
    async (doc) => doc,
    {
      prepare: async (items) => {
        if (idsDown) throw new Error('sequence unavailable');
        prepared.push(items.length);
        const first = next;
        next += items.length;
        return items.map((text, i) => ({ id: first + i, text }));
      },
    },
  );
  assert.equal(await Promise.all(['a', 'b', 'c'].map((t) => batcher.add(t))), [
    { id: 100, text: 'a' },
    { id: 101, text: 'b' },
    { id: 102, text: 'c' },
  ]);
  assert.equal(prepared, [3], 'one prepare for the batch');
  idsDown = true;
  const failed = await Promise.allSettled([batcher.add('d'), batcher.add('e')]);
  assert.equal(
    failed.map((r) => r.status),
    ['rejected', 'rejected'],
  );
  assert.match(String((failed[0] as PromiseRejectedResult).reason), /sequence unavailable/);
});

test('idBlocks: with a reserve, one write serves later batches in order; without, each batch writes', async () => {
  let sequence = 0;
  const writes: number[] = [];
  const nextId = async (count: number) => {
    writes.push(count);
    const first = sequence + 1;
    sequence += count;
    return first;
  };
  const blocks = idBlocks(nextId, () => 10);
  assert.equal([await blocks(3), await blocks(4), await blocks(2)], [1, 4, 8]);
  assert.equal(writes, [10], 'one reservation of 10 served 9 ids');
  // 1 left in the block, 2 asked: a new block; the leftover id is a gap, never reused.
  assert.is(await blocks(2), 11);
  assert.equal(writes, [10, 10]);
  assert.is(await blocks(12), 21, 'a batch larger than the reserve gets a block of its own size');
  assert.equal(writes, [10, 10, 12]);

  const plain = idBlocks(nextId);
  assert.is(await plain(2), 33);
  assert.is(await plain(1), 35);
  assert.equal(writes.slice(3), [2, 1], 'no reserve: one write per batch, no gaps');
});

test.run();
