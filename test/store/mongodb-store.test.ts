// The MongoDB adapter: the shared DocumentStore contract plus what only this adapter does.
// Needs a server: MONGODB_URL (CI starts test/support/mongo-server/start-mongo.sh). Without
// it the server-bound suites are reported as skipped, or fail when FLOWHOST_REQUIRE_MONGO=1
// (CI sets it so a missing server can never pass silently). The start-up failure suite needs
// no server and always runs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import { documentStoreContract } from '../contracts/document-store.contract.js';
import { DuplicateKeyError, UnsupportedQueryError, type DocumentStore } from '../../core/store/port.js';
import { type MongoStore, MongoStoreUnavailableError, openMongoStore } from '../../host/store/mongodb/index.js';

const url = process.env.MONGODB_URL;

/** A loopback port nothing listens on: bind one, note it, close it. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

async function rejection(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected a rejection');
}

const startup = suite('mongodb store: start-up failures');

startup('an unreachable server fails within the timeout, naming host and port but not the password', async () => {
  const port = await closedPort();
  const error = await rejection(
    openMongoStore({ url: `mongodb://flowhost:s3cr3t-Pa%40ss@127.0.0.1:${port}/app`, serverSelectionTimeoutMs: 300 }),
  );
  assert.instance(error, MongoStoreUnavailableError);
  assert.match(error.message, `127.0.0.1:${port}`);
  for (const secret of ['s3cr3t', 'Pa%40ss', 'Pa@ss']) assert.not.match(error.message, secret);
  assert.not.match(String(error.stack), 's3cr3t');
});

startup('a URL that is not a MongoDB URL is refused without echoing it', async () => {
  const error = await rejection(openMongoStore({ url: 'postgres://user:hunter2@db.example:5432/x' }));
  assert.match(error.message, /mongodb:\/\//);
  assert.not.match(error.message, 'hunter2');
});

startup.run();

if (!url) {
  if (process.env.FLOWHOST_REQUIRE_MONGO === '1') {
    const required = suite('mongodb store: server');
    required('a MongoDB server to test against', () => {
      throw new Error('MONGODB_URL is required (FLOWHOST_REQUIRE_MONGO=1): start one with test/support/mongo-server/start-mongo.sh');
    });
    required.run();
  } else {
    // No uvu skip: the runner (test/run.mjs) counts this line as a skipped suite.
    console.log('mongodb store: MONGODB_URL is not set; the contract and server suites did not run');
    console.log('  Skipped suites:   1');
  }
} else {
  const serverUrl = url;
  /** The same server, another database: `mongodb://host/db?x` with db replaced. */
  const withDatabase = (database: string) => serverUrl.replace(/^(mongodb(?:\+srv)?:\/\/[^/?#]*)(\/[^?#]*)?/i, `$1/${database}`);
  const openFresh = () => openMongoStore({ url: withDatabase(`flowhost_test_${randomBytes(6).toString('hex')}`) });
  const dropAndClose = async (store: DocumentStore) => {
    await (store as MongoStore).dropDatabase();
    await store.close();
  };

  documentStoreContract('mongodb', openFresh, dropAndClose);

  type Ctx = { store: MongoStore };
  const mongo = suite<Ctx>('mongodb store: adapter specifics');
  mongo.before(async (ctx) => {
    ctx.store = await openFresh();
  });
  mongo.after(async (ctx) => dropAndClose(ctx.store));
  const fresh = (store: MongoStore) => store.collection(`m_${randomBytes(4).toString('hex')}`);

  mongo('kind, database from the URL, and a location without the password', async ({ store }) => {
    assert.is(store.kind, 'mongodb');
    assert.match(store.database, /^flowhost_test_[0-9a-f]{12}$/);
    assert.ok(store.location.startsWith('mongodb://'));
  });

  mongo('a DuplicateKeyError names the collection and index, never the duplicate value', async ({ store }) => {
    const c = fresh(store);
    await c.createIndex({ fields: { token: 1 }, unique: true, name: 'token_unique' });
    await c.createIndex({ fields: { 'owner.id': 1, slot: -1 }, unique: true });
    await c.insertOne({ _id: 'one', token: 'tok-secret-1', owner: { id: 'o' }, slot: 1 });
    const byName = (await rejection(c.insertOne({ token: 'tok-secret-1' }))) as DuplicateKeyError;
    assert.instance(byName, DuplicateKeyError);
    assert.is(byName.collection, c.name);
    assert.is(byName.index, 'token_unique');
    assert.not.match(byName.message, 'tok-secret-1');
    const derived = (await rejection(c.insertOne({ token: 'other', owner: { id: 'o' }, slot: 1 }))) as DuplicateKeyError;
    assert.is(derived.index, 'owner_id_1_slot_-1', "the default name is the embedded store's");
    const id = (await rejection(c.insertOne({ _id: 'one', token: 'third' }))) as DuplicateKeyError;
    assert.is(id.index, '_id_');
  });

  mongo('insertMany with a refused document inserts none of them', async ({ store }) => {
    const c = fresh(store);
    await c.createIndex({ fields: { k: 1 }, unique: true });
    await c.insertOne({ _id: 'old', k: 'taken' });
    const error = await rejection(
      c.insertMany([
        { _id: 'n1', k: 'a' },
        { _id: 'n2', k: 'b' },
        { _id: 'n3', k: 'taken' },
        { _id: 'n4', k: 'c' },
      ]),
    );
    assert.instance(error, DuplicateKeyError);
    assert.equal(
      (await c.find({}, { sort: { _id: 1 } })).map((d) => d._id),
      ['old'],
    );
    assert.equal(await c.insertMany([]), []);
  });

  mongo('upserts without an _id in the filter get a 24-hex string _id, not an ObjectId', async ({ store }) => {
    const c = fresh(store);
    const res = await c.updateOne({ key: 'a' }, { $set: { v: 1 } }, { upsert: true });
    assert.type(res.upsertedId, 'string');
    assert.match(res.upsertedId!, /^[0-9a-f]{24}$/);
    assert.is((await c.findOne({ key: 'a' }))!._id, res.upsertedId);
    const doc = await c.findOneAndUpdate({ key: 'b', $and: [{ n: 1 }] }, { $inc: { hits: 1 } }, { upsert: true });
    assert.type(doc!._id, 'string');
    assert.match(doc!._id, /^[0-9a-f]{24}$/);
    const fixed = await c.findOneAndUpdate({ $and: [{ _id: 'given' }] }, { $set: { v: 2 } }, { upsert: true });
    assert.is(fixed!._id, 'given', 'an _id from the filter is kept');
    assert.instance(await rejection(c.updateOne({ _id: 5 }, { $set: { v: 3 } }, { upsert: true })), UnsupportedQueryError);
  });

  mongo('regex flags: s is dot-all, g is ignored (the driver would turn g into s)', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'x', s: 'Hello\nWorld' });
    assert.is(await c.count({ s: /hello.world/is }), 1);
    assert.is(await c.count({ s: /hello.world/gi }), 0);
    assert.is(await c.count({ s: { $regex: 'hello.world', $options: 'is' } }), 1);
    assert.is(await c.count({ s: { $in: [/^world/im] } }), 1);
    assert.is(await c.count({ s: { $ne: /^hello/i } }), 0);
    assert.is(await c.count({ s: { $eq: /^hello/i } }), 1, '$eq with a RegExp matches like the embedded store');
    await rejection(c.count({ s: /x/y })).then((e) => assert.instance(e, UnsupportedQueryError));
    await rejection(c.count({ s: { $regex: '(' } })).then((e) => assert.instance(e, UnsupportedQueryError));
  });

  mongo('properties set to undefined are not stored (as on the embedded store)', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'u', a: 1, gone: undefined });
    await c.updateOne({ _id: 'u' }, { $set: { b: 2, alsoGone: undefined } });
    assert.equal(await c.findOne({ _id: 'u' }), { _id: 'u', a: 1, b: 2 });
  });

  mongo('$pull removes equal elements only, not documents that merely contain the value', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'p', items: [{ a: 1 }, { a: 1, b: 2 }, { a: 2 }] });
    await c.updateOne({ _id: 'p' }, { $pull: { items: { a: 1 } } });
    assert.equal((await c.findOne({ _id: 'p' }))!.items, [{ a: 1, b: 2 }, { a: 2 }]);
    await rejection(c.updateOne({ _id: 'p' }, { $push: { items: { $each: [1, 2] } } })).then((e) =>
      assert.instance(e, UnsupportedQueryError),
    );
  });

  mongo('updates that do not fit the stored types are UnsupportedQueryError without stored values', async ({ store }) => {
    const c = fresh(store);
    await c.insertOne({ _id: 'x', s: 'private-value', list: [] });
    for (const update of [{ $push: { s: 1 } }, { $set: { 's.deeper': 1 } }, { $inc: { list: 1 } }]) {
      const error = await rejection(c.updateOne({ _id: 'x' }, update));
      assert.instance(error, UnsupportedQueryError);
      assert.not.match(error.message, 'private-value');
    }
  });

  mongo('nextId keeps its sequences apart from a collection named "counters"', async ({ store }) => {
    await store.collection('counters').insertOne({ _id: 'jobs', value: 41 });
    assert.is(await store.nextId('jobs'), 1);
    assert.is((await store.collection('counters').findOne({ _id: 'jobs' }))!.value, 41);
  });

  mongo('a closed store refuses work; close twice is fine', async () => {
    const store = await openFresh();
    const c = store.collection('x');
    await store.dropDatabase();
    await store.close();
    await store.close();
    assert.match((await rejection(c.find({}))).message, /closed/);
    assert.match((await rejection(store.nextId('s'))).message, /closed/);
    assert.match((await rejection(store.ping())).message, /closed/);
  });

  mongo('bad collection names and bad input are refused before they reach the server', async ({ store }) => {
    assert.throws(
      () => store.collection('system.users'),
      (e: Error) => e instanceof UnsupportedQueryError,
    );
    assert.throws(
      () => store.collection('a$b'),
      (e: Error) => e instanceof UnsupportedQueryError,
    );
    const c = fresh(store);
    const attempts: Array<() => Promise<unknown>> = [
      () => c.find({}, { sort: { a: 2 as 1 } }),
      () => c.find({}, { limit: -1 }),
      () => c.find({}, { projection: { a: 1, b: 0 } }),
      () => c.find({ a: { $eq: 1, b: 2 } }),
      () => c.insertOne({ _id: '' }),
      () => c.updateOne({}, {}),
      () => c.updateOne({ _id: 'x' }, { $set: { _id: 'y' } }),
      () => c.createIndex({ fields: {} }),
      () => c.createIndex({ fields: { a: 1 }, name: 'bad name' }),
    ];
    for (const attempt of attempts) assert.instance(await rejection(attempt()), UnsupportedQueryError);
  });

  mongo.run();
}
