// The DocumentStore contract: written against the port only, run by every adapter's
// suite (test/store/*). Expectations are MongoDB's behaviour; where an adapter differs,
// fix the adapter, not this file.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { DuplicateKeyError, UnsupportedQueryError, type Collection, type DocumentStore } from '../../core/store/port.js';

type Ctx = { store: DocumentStore };
type Doc = Record<string, unknown>;

const fresh = (store: DocumentStore, prefix = 't'): Collection<Doc> => store.collection<Doc>(`${prefix}_${randomBytes(4).toString('hex')}`);
const ids = (docs: Array<{ _id: string }>) => docs.map((d) => d._id);

async function rejects(promise: Promise<unknown>, type: new (...args: never[]) => Error, pattern?: RegExp): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, type);
    if (pattern) assert.match((error as Error).message, pattern);
    return error as Error;
  }
  throw new assert.Assertion({ message: `expected a ${type.name}`, generated: false, operator: 'rejects', expects: type.name, actual: 'resolved' });
}

export function documentStoreContract(label: string, open: () => Promise<DocumentStore>, close: (store: DocumentStore) => Promise<void> = (s) => s.close()): void {
  const basics = suite<Ctx>(`${label}: documents, ids and dates`);
  basics.before(async (ctx) => {
    ctx.store = await open();
  });
  basics.after(async (ctx) => close(ctx.store));

  basics('insertOne generates a 24-hex _id and returns the stored document', async ({ store }) => {
    const c = fresh(store);
    const saved = await c.insertOne({ title: 'a', nested: { n: 1 } });
    assert.match(saved._id, /^[0-9a-f]{24}$/);
    assert.equal(await c.findOne({ _id: saved._id }), { _id: saved._id, title: 'a', nested: { n: 1 } });
    const own = await c.insertOne({ _id: 'custom-id', title: 'b' });
    assert.is(own._id, 'custom-id');
    assert.is((await c.findOne({ _id: 'custom-id' }))!.title, 'b');
  });

  basics('a duplicate _id is a DuplicateKeyError', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'same' });
    await rejects(c.insertOne({ _id: 'same' }), DuplicateKeyError);
  });

  basics('Dates round-trip as Dates and compare in time order', async ({ store }) => {
    const c = fresh(store);
    const t0 = new Date('2026-01-01T00:00:00.000Z');
    for (let i = 0; i < 5; i++) await c.insertOne({ _id: `d${i}`, at: new Date(t0.getTime() + i * 60_000), nested: { when: new Date(t0.getTime() + i) } });
    const one = await c.findOne({ _id: 'd2' });
    assert.instance(one!.at, Date);
    assert.is((one!.at as Date).toISOString(), '2026-01-01T00:02:00.000Z');
    assert.instance((one!.nested as Doc).when, Date);
    assert.equal(ids(await c.find({ at: { $gt: new Date(t0.getTime() + 60_000) } }, { sort: { at: 1 } })), ['d2', 'd3', 'd4']);
    assert.equal(ids(await c.find({ at: { $lte: new Date(t0.getTime() + 60_000) } }, { sort: { at: -1 } })), ['d1', 'd0']);
    assert.equal(ids(await c.find({ at: new Date(t0.getTime() + 3 * 60_000) })), ['d3']);
    // a string never matches a date comparison
    await c.insertOne({ _id: 's', at: 'zzz' });
    assert.equal(ids(await c.find({ at: { $gte: t0 } }, { sort: { at: 1 } })), ['d0', 'd1', 'd2', 'd3', 'd4']);
  });

  basics('count with and without a filter', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany([{ k: 1 }, { k: 2 }, { k: 2 }]);
    assert.is(await c.count(), 3);
    assert.is(await c.count({ k: 2 }), 2);
    assert.is(await c.count({ k: 9 }), 0);
  });

  basics('insertMany returns every stored document', async ({ store }) => {
    const c = fresh(store);
    const saved = await c.insertMany([{ a: 1 }, { a: 2 }]);
    assert.is(saved.length, 2);
    assert.is(await c.count({}), 2);
  });

  basics('nextId counts from 1 per sequence', async ({ store }) => {
    const name = `seq_${randomBytes(4).toString('hex')}`;
    assert.is(await store.nextId(name), 1);
    assert.is(await store.nextId(name), 2);
    assert.is(await store.nextId(`${name}_other`), 1);
  });

  basics('ping answers', async ({ store }) => {
    await store.ping();
  });

  basics.run();

  const filters = suite<Ctx & { c: Collection<Doc> }>(`${label}: filters`);
  filters.before(async (ctx) => {
    ctx.store = await open();
    ctx.c = fresh(ctx.store, 'f');
    await ctx.c.insertMany([
      { _id: 'a', n: 1, s: 'apple', b: true, tags: ['x', 'y'], o: { k: 'v', deep: { z: 1 } }, nil: null },
      { _id: 'b', n: 2, s: 'Banana', b: false, tags: ['y'], o: { k: 'w' } },
      { _id: 'c', n: 3, s: 'cherry', tags: [], o: { k: 'v', deep: { z: 2 } } },
      { _id: 'd', n: '3', s: 'date' },
      { _id: 'e', n: 1.5 },
    ]);
  });
  filters.after(async (ctx) => close(ctx.store));

  const q = async (c: Collection<Doc>, filter: Doc) => ids(await c.find(filter, { sort: { _id: 1 } })).join('');

  filters('equality is type-strict: 3 is not "3", true is not 1', async ({ c }) => {
    assert.is(await q(c, { n: 3 }), 'c');
    assert.is(await q(c, { n: '3' }), 'd');
    assert.is(await q(c, { b: true }), 'a');
    assert.is(await q(c, { b: false }), 'b');
    assert.is(await q(c, { n: 1 }), 'a');
    assert.is(await q(c, { s: 'apple', n: 1 }), 'a');
  });

  filters('null and $eq null also match a missing field', async ({ c }) => {
    assert.is(await q(c, { nil: null }), 'abcde');
    assert.is(await q(c, { b: null }), 'cde');
    assert.is(await q(c, { b: { $eq: null } }), 'cde');
    assert.is(await q(c, { b: { $ne: null } }), 'ab');
  });

  filters('$ne and $nin match documents without the field', async ({ c }) => {
    assert.is(await q(c, { b: { $ne: true } }), 'bcde');
    assert.is(await q(c, { n: { $ne: 1 } }), 'bcde');
    assert.is(await q(c, { n: { $nin: [1, 2] } }), 'cde');
    assert.is(await q(c, { b: { $nin: [null] } }), 'ab');
  });

  filters('$gt $gte $lt $lte compare within a type', async ({ c }) => {
    assert.is(await q(c, { n: { $gt: 1 } }), 'bce');
    assert.is(await q(c, { n: { $gte: 1.5, $lt: 3 } }), 'be');
    assert.is(await q(c, { n: { $lte: 1 } }), 'a');
    assert.is(await q(c, { s: { $gt: 'b' } }), 'cd', 'string order is code-point order: Banana < b');
    assert.is(await q(c, { n: { $gt: '2' } }), 'd');
  });

  filters('$in, with null meaning missing too', async ({ c }) => {
    assert.is(await q(c, { n: { $in: [1, 3] } }), 'ac');
    assert.is(await q(c, { s: { $in: ['date', 'nope'] } }), 'd');
    assert.is(await q(c, { b: { $in: [true, null] } }), 'acde');
    assert.is(await q(c, { n: { $in: [] } }), '');
  });

  filters('$exists counts null as present', async ({ c }) => {
    assert.is(await q(c, { nil: { $exists: true } }), 'a');
    assert.is(await q(c, { b: { $exists: false } }), 'cde');
    assert.is(await q(c, { 'o.deep': { $exists: true } }), 'ac');
  });

  filters('$regex as RegExp or string with $options; the i flag', async ({ c }) => {
    assert.is(await q(c, { s: /^b/ }), '');
    assert.is(await q(c, { s: /^b/i }), 'b');
    assert.is(await q(c, { s: { $regex: 'RR', $options: 'i' } }), 'c');
    assert.is(await q(c, { s: { $regex: /an/ } }), 'b');
    assert.is(await q(c, { n: { $regex: '3' } }), 'd', 'only strings match a regex');
  });

  filters('dot paths reach nested documents', async ({ c }) => {
    assert.is(await q(c, { 'o.k': 'v' }), 'ac');
    assert.is(await q(c, { 'o.deep.z': 2 }), 'c');
    assert.is(await q(c, { 'o.deep.z': { $gte: 1 } }), 'ac');
  });

  filters('whole sub-document equality', async ({ c }) => {
    assert.is(await q(c, { o: { k: 'w' } }), 'b');
    assert.is(await q(c, { tags: ['y'] }), 'b');
    assert.is(await q(c, { tags: [] }), 'c');
  });

  filters('$elemMatch for array elements', async ({ c }) => {
    assert.is(await q(c, { tags: { $elemMatch: { $eq: 'y' } } }), 'ab');
    assert.is(await q(c, { tags: { $elemMatch: { $in: ['x', 'nope'] } } }), 'a');
  });

  filters('$and and $or nest', async ({ c }) => {
    assert.is(await q(c, { $or: [{ n: 1 }, { s: 'date' }] }), 'ad');
    assert.is(await q(c, { $and: [{ n: { $gte: 1 } }, { n: { $lte: 2 } }], $or: [{ b: true }, { b: { $exists: false } }] }), 'ae');
    assert.is(await q(c, { $or: [{ $and: [{ n: 2 }, { b: false }] }, { _id: 'e' }] }), 'be');
  });

  filters('$in on _id', async ({ c }) => {
    assert.is(await q(c, { _id: { $in: ['a', 'c', 'zz'] } }), 'ac');
  });

  filters('unsupported operators and unsafe paths are refused', async ({ c }) => {
    await rejects(c.find({ n: { $where: 'x' } }), UnsupportedQueryError);
    await rejects(c.find({ $nor: [{ n: 1 }] }), UnsupportedQueryError);
    await rejects(c.find({ "x') OR 1=1 --": 1 }), UnsupportedQueryError);
    await rejects(c.find({ 'a..b': 1 }), UnsupportedQueryError);
    await rejects(c.updateOne({ _id: 'a' }, { $rename: { n: 'm' } } as never), UnsupportedQueryError);
  });

  filters.run();

  const paging = suite<Ctx & { c: Collection<Doc> }>(`${label}: sort, skip, limit, projection`);
  paging.before(async (ctx) => {
    ctx.store = await open();
    ctx.c = fresh(ctx.store, 'p');
    await ctx.c.insertMany([
      { _id: '1', g: 'b', v: 3, meta: { x: 1, y: 2 } },
      { _id: '2', g: 'a', v: 1, meta: { x: 3, y: 4 } },
      { _id: '3', g: 'b', v: 2 },
      { _id: '4', g: 'a', v: 5 },
      { _id: '5', v: 4 },
    ]);
  });
  paging.after(async (ctx) => close(ctx.store));

  paging('multi-key sort; a missing field sorts first ascending, last descending', async ({ c }) => {
    assert.equal(ids(await c.find({}, { sort: { g: 1, v: -1 } })), ['5', '4', '2', '1', '3']);
    assert.equal(ids(await c.find({}, { sort: { g: -1, v: 1 } })), ['3', '1', '2', '4', '5']);
  });

  paging('skip and limit page through a sorted result', async ({ c }) => {
    assert.equal(ids(await c.find({}, { sort: { v: 1 }, limit: 2 })), ['2', '3']);
    assert.equal(ids(await c.find({}, { sort: { v: 1 }, skip: 2, limit: 2 })), ['1', '5']);
    assert.equal(ids(await c.find({}, { sort: { v: 1 }, skip: 4 })), ['4']);
    assert.equal(ids(await c.find({}, { sort: { v: 1 }, skip: 10 })), []);
    assert.is((await c.findOne({}, { sort: { v: -1 } }))!._id, '4');
  });

  paging('inclusion and exclusion projections, _id kept unless excluded', async ({ c }) => {
    assert.equal(await c.findOne({ _id: '1' }, { projection: { g: 1 } }), { _id: '1', g: 'b' });
    assert.equal(await c.findOne({ _id: '1' }, { projection: { 'meta.x': 1, _id: 0 } }), { meta: { x: 1 } });
    assert.equal(await c.findOne({ _id: '1' }, { projection: { meta: 0, v: 0 } }), { _id: '1', g: 'b' });
    assert.equal(await c.findOne({ _id: '1' }, { projection: { 'meta.y': 0 } }), { _id: '1', g: 'b', v: 3, meta: { x: 1 } });
  });

  paging.run();

  const updates = suite<Ctx>(`${label}: updates and deletes`);
  updates.before(async (ctx) => {
    ctx.store = await open();
  });
  updates.after(async (ctx) => close(ctx.store));

  updates('$set with dot paths creates nested objects; $unset removes', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'x', a: 1, keep: true });
    const res = await c.updateOne({ _id: 'x' }, { $set: { 'b.c.d': 'deep', a: 2 }, $unset: { keep: '' } });
    assert.equal(res, { matchedCount: 1, modifiedCount: 1 });
    assert.equal(await c.findOne({ _id: 'x' }), { _id: 'x', a: 2, b: { c: { d: 'deep' } } });
  });

  updates('$inc (also on a missing field), $push creates arrays, $pull removes every equal element', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'x', n: 1, list: ['a', 'b', 'a'] });
    await c.updateOne({ _id: 'x' }, { $inc: { n: 2, fresh: 5, 'stats.hits': 1 } });
    await c.updateOne({ _id: 'x' }, { $push: { log: { at: 1 } } });
    await c.updateOne({ _id: 'x' }, { $push: { log: { at: 2 } }, $pull: { list: 'a' } });
    assert.equal(await c.findOne({ _id: 'x' }), { _id: 'x', n: 3, list: ['b'], fresh: 5, stats: { hits: 1 }, log: [{ at: 1 }, { at: 2 }] });
    await rejects(c.updateOne({ _id: 'x' }, { $inc: { list: 1 } }), UnsupportedQueryError);
  });

  updates('updateOne on no match, and a no-op update', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'x', a: 1 });
    assert.equal(await c.updateOne({ _id: 'nope' }, { $set: { a: 2 } }), { matchedCount: 0, modifiedCount: 0 });
    assert.equal(await c.updateOne({ _id: 'x' }, { $set: { a: 1 } }), { matchedCount: 1, modifiedCount: 0 });
  });

  updates('updateMany counts matched and modified', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany([{ s: 'p' }, { s: 'p' }, { s: 'q' }]);
    const res = await c.updateMany({ s: 'p' }, { $set: { s: 'done' } });
    assert.equal(res, { matchedCount: 2, modifiedCount: 2 });
    assert.is(await c.count({ s: 'done' }), 2);
  });

  updates('upsert with updateOne builds from the filter and $setOnInsert', async ({ store }) => {
    const c = fresh(store);
    const res = await c.updateOne({ key: 'k1', 'ctx.flow': 3 }, { $set: { v: 1 }, $setOnInsert: { created: 'now' } }, { upsert: true });
    assert.is(res.matchedCount, 0);
    assert.ok(res.upsertedId);
    const doc = await c.findOne({ key: 'k1' });
    assert.equal({ ...doc, _id: undefined }, { _id: undefined, key: 'k1', ctx: { flow: 3 }, v: 1, created: 'now' });
    const again = await c.updateOne({ key: 'k1' }, { $set: { v: 2 }, $setOnInsert: { created: 'later' } }, { upsert: true });
    assert.equal(again, { matchedCount: 1, modifiedCount: 1 });
    assert.is((await c.findOne({ key: 'k1' }))!.created, 'now');
    assert.is(await c.count({}), 1);
  });

  updates('findOneAndUpdate: sort picks, returnDocument before/after, upsert, projection', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany([{ _id: 'j1', state: 'pending', prio: 2 }, { _id: 'j2', state: 'pending', prio: 1 }]);
    const after = await c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'taken' } }, { sort: { prio: 1 } });
    assert.equal(after, { _id: 'j2', state: 'taken', prio: 1 });
    const before = await c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'taken' } }, { returnDocument: 'before', projection: { state: 1 } });
    assert.equal(before, { _id: 'j1', state: 'pending' });
    assert.is(await c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'x' } }), null);
    const upserted = await c.findOneAndUpdate({ _id: 'counter' }, { $inc: { value: 1 } }, { upsert: true });
    assert.equal(upserted, { _id: 'counter', value: 1 });
    assert.equal(await c.findOneAndUpdate({ _id: 'counter' }, { $inc: { value: 1 } }, { upsert: true }), { _id: 'counter', value: 2 });
  });

  updates("Agenda's lock query: findOneAndUpdate with sort and $or over lockedAt", async ({ store }) => {
    const c = fresh(store);
    const now = new Date('2026-03-01T12:00:00Z');
    const stale = new Date(now.getTime() - 20 * 60_000);
    await c.insertMany([
      { _id: 'locked', name: 'job', nextRunAt: new Date(now.getTime() - 1000), lockedAt: new Date(now.getTime() - 1000) },
      { _id: 'stale', name: 'job', nextRunAt: new Date(now.getTime() - 5000), lockedAt: stale },
      { _id: 'free', name: 'job', nextRunAt: new Date(now.getTime() - 3000), lockedAt: null },
      { _id: 'future', name: 'job', nextRunAt: new Date(now.getTime() + 60_000) },
    ]);
    const query = {
      name: 'job',
      nextRunAt: { $lte: now },
      $or: [{ lockedAt: { $exists: false } }, { lockedAt: null }, { lockedAt: { $lte: new Date(now.getTime() - 10 * 60_000) } }],
    };
    const first = await c.findOneAndUpdate(query, { $set: { lockedAt: now } }, { sort: { nextRunAt: 1, priority: -1 } });
    assert.is(first!._id, 'stale');
    const second = await c.findOneAndUpdate(query, { $set: { lockedAt: now } }, { sort: { nextRunAt: 1, priority: -1 } });
    assert.is(second!._id, 'free');
    assert.is(await c.findOneAndUpdate(query, { $set: { lockedAt: now } }, { sort: { nextRunAt: 1 } }), null);
  });

  updates('deleteOne deletes one, deleteMany all matching; both return counts', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany([{ k: 1 }, { k: 1 }, { k: 1 }, { k: 2 }]);
    assert.is(await c.deleteOne({ k: 1 }), 1);
    assert.is(await c.deleteMany({ k: 1 }), 2);
    assert.is(await c.deleteMany({ k: 1 }), 0);
    assert.is(await c.count({}), 1);
  });

  updates.run();

  const indexes = suite<Ctx>(`${label}: unique and sparse indexes`);
  indexes.before(async (ctx) => {
    ctx.store = await open();
  });
  indexes.after(async (ctx) => close(ctx.store));

  indexes('a unique index refuses duplicates on insert, update and upsert', async ({ store }) => {
    const c = fresh(store);
    await c.createIndex({ fields: { login: 1 }, unique: true });
    await c.createIndex({ fields: { login: 1 }, unique: true }); // idempotent
    await c.insertOne({ _id: 'u1', login: 'ada' });
    await c.insertOne({ _id: 'u2', login: 'bob' });
    const error = (await rejects(c.insertOne({ login: 'ada' }), DuplicateKeyError)) as DuplicateKeyError;
    assert.is(error.code, 'duplicate_key');
    await rejects(c.updateOne({ _id: 'u2' }, { $set: { login: 'ada' } }), DuplicateKeyError);
    await rejects(c.findOneAndUpdate({ _id: 'u2' }, { $set: { login: 'ada' } }), DuplicateKeyError);
    await rejects(c.updateOne({ _id: 'new' }, { $set: { login: 'bob' } }, { upsert: true }), DuplicateKeyError);
    assert.is((await c.findOne({ _id: 'u2' }))!.login, 'bob', 'the failed update changed nothing');
  });

  indexes('compound unique index', async ({ store }) => {
    const c = fresh(store);
    await c.createIndex({ fields: { step: 1, item: 1 }, unique: true });
    await c.insertOne({ step: 's1', item: 'i1' });
    await c.insertOne({ step: 's1', item: 'i2' });
    await c.insertOne({ step: 's2', item: 'i1' });
    await rejects(c.insertOne({ step: 's1', item: 'i1' }), DuplicateKeyError);
  });

  indexes('sparse unique allows many documents without the field', async ({ store }) => {
    const c = fresh(store);
    await c.createIndex({ fields: { email: 1 }, unique: true, sparse: true });
    await c.insertOne({ name: 'a' });
    await c.insertOne({ name: 'b' });
    await c.insertOne({ email: 'x@example.org' });
    await rejects(c.insertOne({ email: 'x@example.org' }), DuplicateKeyError);
  });

  indexes('creating a unique index over existing duplicates fails', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany([{ k: 1 }, { k: 1 }]);
    await rejects(c.createIndex({ fields: { k: 1 }, unique: true }), DuplicateKeyError);
  });

  indexes.run();

  const concurrency = suite<Ctx>(`${label}: concurrency`);
  concurrency.before(async (ctx) => {
    ctx.store = await open();
  });
  concurrency.after(async (ctx) => close(ctx.store));

  concurrency('50 concurrent claimers over 20 pending documents: each claimed exactly once', async ({ store }) => {
    const c = fresh(store);
    await c.insertMany(Array.from({ length: 20 }, (_, i) => ({ _id: `job${i}`, state: 'pending', order: i })));
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => c.findOneAndUpdate({ state: 'pending' }, { $set: { state: 'claimed', by: i } }, { sort: { order: 1 } })),
    );
    const won = results.filter((r): r is NonNullable<typeof r> => r !== null);
    assert.is(won.length, 20);
    assert.is(new Set(won.map((r) => r._id)).size, 20);
    const stored = await c.find({ state: 'claimed' });
    assert.is(stored.length, 20);
    for (const doc of stored) assert.is(won.find((w) => w._id === doc._id)!.by, doc.by, 'the winner is the one whose mark is stored');
  });

  concurrency('200 concurrent nextId calls give 1..200 exactly once', async ({ store }) => {
    const name = `seq_${randomBytes(4).toString('hex')}`;
    const values = await Promise.all(Array.from({ length: 200 }, () => store.nextId(name)));
    assert.equal([...values].sort((a, b) => a - b), Array.from({ length: 200 }, (_, i) => i + 1));
  });

  concurrency('200 concurrent $inc on one document lose nothing', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'n', v: 0 });
    await Promise.all(Array.from({ length: 200 }, () => c.updateOne({ _id: 'n' }, { $inc: { v: 1 } })));
    assert.is((await c.findOne({ _id: 'n' }))!.v, 200);
  });

  concurrency.run();
}
