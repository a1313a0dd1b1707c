import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DuplicateKeyError, UnsupportedQueryError } from '../../core/store/port.js';
import { documentStoreContract } from '../contracts/document-store.contract.js';
import { EmbeddedStore, StoreClosedError, StoreLockedError, openEmbeddedStore } from '../../host/store/embedded/index.js';

const dir = mkdtempSync(join(tmpdir(), 'flowhost-store-'));
process.on('exit', () => rmSync(dir, { recursive: true, force: true }));
let files = 0;
const tempFile = (name: string) => join(dir, `${name}-${files++}.db`);

documentStoreContract('embedded (:memory:)', async () => openEmbeddedStore({ file: ':memory:' }));
documentStoreContract('embedded (file, exclusive)', async () => openEmbeddedStore({ file: tempFile('contract'), exclusive: true }));

// ---------------------------------------------------------------------------
// Child processes that hold the file or write to it until killed.

const childScript = fileURLToPath(new URL('../support/store-writer-child.js', import.meta.url));

function startChild(file: string, mode: 'write' | 'hold') {
  const proc: ChildProcess = spawn(process.execPath, [childScript, file, mode], { stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (err += d));
  const waitFor = (test: (out: string) => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const deadline = Date.now() + 15_000;
      const timer = setInterval(() => {
        if (test(out)) {
          clearInterval(timer);
          resolve();
        } else if (proc.exitCode !== null || Date.now() > deadline) {
          clearInterval(timer);
          proc.kill('SIGKILL');
          reject(new Error(`child never got to "${what}" (exit ${proc.exitCode}): ${err}`));
        }
      }, 10);
    });
  const killed = () =>
    new Promise<void>((resolve) => (proc.exitCode !== null || proc.signalCode ? resolve() : proc.once('exit', () => resolve())));
  return { proc, waitFor, killed, out: () => out };
}

async function rejectsWith(promise: Promise<unknown>, type: abstract new (...args: never[]) => Error): Promise<void> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, type);
    return;
  }
  assert.unreachable(`expected ${type.name}`);
}

// ---------------------------------------------------------------------------
const files_ = suite('embedded store: files, locks and crashes');

files_('data, indexes, sequences and array fields survive close and reopen', async () => {
  const file = tempFile('reopen');
  const a = openEmbeddedStore({ file });
  await a.collection('things').createIndex({ fields: { k: 1 }, unique: true });
  await a.collection('things').insertOne({ _id: 'one', k: 'v', at: new Date('2026-05-05T00:00:00Z'), tags: ['red'] });
  assert.is(await a.nextId('things'), 1);
  await a.close();

  const b = openEmbeddedStore({ file });
  const things = b.collection('things');
  const doc = await things.findOne({ _id: 'one' });
  assert.instance(doc!.at, Date);
  assert.is((await things.findOne({ tags: 'red' }))?._id, 'one', 'element matching still knows tags is an array');
  await rejectsWith(things.insertOne({ k: 'v' }), DuplicateKeyError);
  assert.is(await b.nextId('things'), 2);
  await b.close();
});

files_('an exclusive store refuses a second opener, exclusive or not, with StoreLockedError', async () => {
  const file = tempFile('locked');
  const holder = openEmbeddedStore({ file, exclusive: true });
  await holder.collection('c').insertOne({ a: 1 });
  assert.throws(
    () => openEmbeddedStore({ file, exclusive: true }),
    (e: Error) => e instanceof StoreLockedError && e.message.includes(file),
  );
  assert.throws(
    () => openEmbeddedStore({ file }),
    (e: Error) => e instanceof StoreLockedError,
  );
  await holder.close();
  const next = openEmbeddedStore({ file, exclusive: true });
  assert.is(await next.collection('c').count(), 1);
  await next.close();
});

files_('a holder killed with SIGKILL does not block the next open', async () => {
  const file = tempFile('killed-holder');
  const child = startChild(file, 'hold');
  await child.waitFor((out) => out.includes('holding'), 'holding');
  assert.throws(
    () => openEmbeddedStore({ file, exclusive: true }),
    (e: Error) => e instanceof StoreLockedError,
  );
  child.proc.kill('SIGKILL');
  await child.killed();
  const store = openEmbeddedStore({ file, exclusive: true });
  await store.ping();
  await store.close();
});

files_('every write acknowledged before kill -9 is there after restart', async () => {
  const file = tempFile('durable');
  const child = startChild(file, 'write');
  await child.waitFor((out) => out.split('\n').length > 200, '200 acknowledged inserts');
  child.proc.kill('SIGKILL');
  await child.killed();
  const acked = child
    .out()
    .split('\n')
    .filter((line) => /^[0-9a-f]{24}$/.test(line));
  assert.ok(acked.length >= 200, `acked ${acked.length}`);
  const store = openEmbeddedStore({ file, exclusive: true });
  const acks = store.collection('acks');
  assert.is(await acks.count({ _id: { $in: acked } }), acked.length);
  assert.ok((await acks.count({ tags: 't1' })) > 0, 'the array-path record committed with the documents');
  await store.close();
});

files_("two non-exclusive stores on one file see each other's writes, array fields included", async () => {
  const file = tempFile('shared');
  const a = openEmbeddedStore({ file });
  const b = openEmbeddedStore({ file });
  await a.collection('c').insertOne({ _id: 'x', v: 1 });
  assert.is((await b.collection('c').findOne({ v: 1 }))?._id, 'x');
  await a.collection('c').insertOne({ _id: 'y', tags: ['p', 'q'] });
  assert.is((await b.collection('c').findOne({ tags: 'q' }))?._id, 'y');
  assert.is(await a.nextId('s'), 1);
  assert.is(await b.nextId('s'), 2);
  await a.close();
  await b.close();
});

files_.run();

// ---------------------------------------------------------------------------
const embedded = suite('embedded store: atomicity, bad input, query plans');

embedded('insertMany and updateMany are all or nothing', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const c = store.collection('c');
  await c.createIndex({ fields: { k: 1 }, unique: true });
  await c.insertOne({ _id: 'taken', k: 0 });
  await rejectsWith(
    c.insertMany([
      { _id: 'first', k: 1 },
      { _id: 'taken', k: 2 },
    ]),
    DuplicateKeyError,
  );
  assert.is(await c.count(), 1, 'the first document of the failed batch was rolled back');
  await c.insertMany([{ k: 1 }, { k: 2 }]);
  await rejectsWith(c.updateMany({}, { $set: { k: 5 } }), DuplicateKeyError);
  assert.equal(
    (await c.find({}, { sort: { k: 1 } })).map((d) => d.k),
    [0, 1, 2],
  );
  await store.close();
});

embedded('bulkWrite is one transaction: a failing write rolls back the writes before it, on every collection', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const jobs = store.collection('jobs');
  const flows = store.collection('flows');
  await flows.createIndex({ fields: { k: 1 }, unique: true });
  await flows.insertOne({ _id: 'taken', k: 1 });
  await jobs.insertOne({ _id: 'j', status: 'processing' });
  await rejectsWith(
    store.bulkWrite([
      { collection: 'jobs', updateOne: { filter: { _id: 'j' }, update: { $set: { status: 'completed' } } } },
      { collection: 'new_table', insertOne: { document: { _id: 'n' } } },
      { collection: 'flows', insertOne: { document: { _id: 'other', k: 1 } } },
    ]),
    DuplicateKeyError,
  );
  assert.is((await jobs.findOne({ _id: 'j' }))!.status, 'processing');
  assert.is(await store.collection('new_table').count(), 0);
  await store.close();
});

embedded('a rolled-back write does not teach the store a false array field', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const c = store.collection('c');
  await c.insertOne({ _id: 'a', tags: 'x' });
  await rejectsWith(c.insertMany([{ _id: 'b', tags: ['x'] }, { _id: 'a' }]), DuplicateKeyError);
  assert.is(await c.count({ tags: 'x' }), 1);
  // A plain equality keeps its plain, indexable SQL: no json_each branch was added.
  assert.not.match(store.explainFind('c', { tags: 'x' }).join(' | '), /json_each|VIRTUAL TABLE/);
  await store.close();
});

// MongoDB's rule, which the CI MongoDB stand-in does not follow (see the contract).
embedded('two range conditions on an array field may be met by different elements', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const c = store.collection('c');
  await c.insertMany([
    { _id: 'a', scores: [1, 9] },
    { _id: 'b', scores: [5] },
    { _id: 'c', scores: [7, 8] },
    { _id: 'd', scores: 5 },
  ]);
  const found = async (filter: Record<string, unknown>) => (await c.find(filter, { sort: { _id: 1 } })).map((d) => d._id).join('');
  assert.is(await found({ scores: { $gt: 4, $lt: 6 } }), 'abd');
  assert.is(await found({ scores: { $elemMatch: { $gt: 4, $lt: 6 } } }), 'b');
  await store.close();
});

embedded('a closed store rejects every call with StoreClosedError', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const early = store.collection('early');
  await store.close();
  await store.close(); // twice is fine
  await rejectsWith(store.ping(), StoreClosedError);
  await rejectsWith(store.nextId('s'), StoreClosedError);
  await rejectsWith(early.find({}), StoreClosedError);
  await rejectsWith(store.collection('late').insertOne({ a: 1 }), StoreClosedError);
});

embedded('bad documents, names and options are refused', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const c = store.collection('c');
  assert.throws(
    () => store.collection('bad name; DROP'),
    (e: Error) => e instanceof UnsupportedQueryError,
  );
  assert.throws(
    () => store.collection(''),
    (e: Error) => e instanceof UnsupportedQueryError,
  );
  assert.throws(() => openEmbeddedStore({ file: '' }), TypeError);
  await rejectsWith(c.insertOne({ _id: 5 as never }), UnsupportedQueryError);
  await rejectsWith(c.insertOne({ _id: '' }), UnsupportedQueryError);
  await rejectsWith(c.insertOne({ at: new Date(Number.NaN) }), UnsupportedQueryError);
  await rejectsWith(c.insertOne({ at: new Date('+010000-01-01T00:00:00Z') }), UnsupportedQueryError);
  await rejectsWith(c.insertOne({ s: '\u0001\u0002date:2026-01-01T00:00:00.000Z' }), UnsupportedQueryError);
  await rejectsWith(c.insertMany('nope' as never), UnsupportedQueryError);
  await rejectsWith(c.createIndex({ fields: { a: 1 }, name: 'bad"name' }), UnsupportedQueryError);
  await rejectsWith(c.find({ at: { $gt: new Date(Number.NaN) } }), UnsupportedQueryError);
  await rejectsWith(c.find({ n: Number.POSITIVE_INFINITY }), UnsupportedQueryError);
  await rejectsWith(store.nextId(''), UnsupportedQueryError);
  assert.is(await c.count(), 0);
  await store.close();
});

embedded('the generated queries use the expression indexes createIndex made', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const logs = store.collection('logs');
  await logs.createIndex({ fields: { level: 1, created_at: -1 } });
  await logs.createIndex({ fields: { created_at: -1 } });
  await logs.createIndex({ fields: { 'context.flow_id': 1, created_at: -1 } });
  await logs.createIndex({ fields: { token: 1 }, unique: true, sparse: true });
  await logs.insertOne({ level: 'info', tags: ['array', 'elsewhere'], created_at: new Date(), context: { flow_id: 1 } });
  const plan = (filter: Record<string, unknown>, options = {}) => store.explainFind('logs', filter, options).join(' | ');
  const page = { sort: { created_at: -1 as const }, limit: 50 };
  assert.match(plan({ level: 'error' }, page), /USING INDEX c_logs__level_1_created_at_-1 \(<expr>=\?\)/);
  assert.not.match(plan({ level: 'error' }, page), /TEMP B-TREE/, 'the index gives the order too');
  assert.match(plan({ 'context.flow_id': 42 }, page), /USING INDEX c_logs__context_flow_id_1_created_at_-1 \(<expr>=\?\)/);
  assert.match(plan({}, page), /SCAN logs USING INDEX c_logs__created_at_-1|SCAN c_logs USING INDEX c_logs__created_at_-1/);
  assert.match(
    plan({ created_at: { $gte: new Date('2026-01-01') } }),
    /USING INDEX c_logs__created_at_-1 \(<expr>>\? AND <expr><\?\)|USING INDEX c_logs__(level_1_)?created_at_-1/,
  );
  assert.match(plan({ token: 'abc' }), /USING INDEX c_logs__token_1 \(<expr>=\?\)/, 'a sparse (partial) index serves equality');
  assert.match(plan({ level: { $in: ['error', 'warning'] } }), /USING INDEX c_logs__level_1_created_at_-1 \(<expr>=\?\)/);
  assert.match(plan({ _id: 'x' }), /USING INDEX sqlite_autoindex_c_logs_1 \(_id=\?\)/);
  assert.match(plan({ tags: 'array' }), /json_each|VIRTUAL TABLE|SCAN/, 'array fields get element matching');
  await store.close();
});

embedded('explainFind and the store class are exported for diagnostics', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  assert.instance(store, EmbeddedStore);
  assert.is(store.kind, 'embedded');
  assert.ok(Array.isArray(store.explainFind('c', {})));
  await store.close();
});

embedded.run();
