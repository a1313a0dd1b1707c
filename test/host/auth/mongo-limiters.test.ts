// The failed-login counters on MongoDB: the reads of one turn go to the server as one
// `find` (the throttle reads four counters for every request with Basic credentials), and
// what they answer is what rate-limiter-flexible's own limiter answers for the counters it
// wrote, so a library release that changes its document format fails here.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MongoClient, type CommandStartedEvent } from 'mongodb';
import { RateLimiterMongo } from 'rate-limiter-flexible';
import { mongoLimiters } from '../../../host/auth/mongo-limiters.js';
import { LoginThrottle } from '../../../host/auth/login-throttle.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';

const url = requireMongo('mongo limiters');

if (url) {
  const test = suite('mongo limiters: one read a turn, the library’s counters');
  const databaseUrl = freshDatabaseUrl(url, 'flowhost_limiters');
  const client = new MongoClient(databaseUrl, { monitorCommands: true });
  const database = new URL(databaseUrl).pathname.slice(1);
  const commands: CommandStartedEvent[] = [];
  client.on('commandStarted', (event) => commands.push(event));
  // Reads and writes on the counters (each limiter also creates its indexes once, as it is made).
  const onRateLimits = () =>
    commands.filter((c) => c.commandName !== 'createIndexes' && (c.command as Record<string, unknown>)[c.commandName] === 'rate_limits');

  test.before(async () => {
    await client.connect();
  });
  test.after(async () => {
    await client.db(database).dropDatabase();
    await client.close();
  });

  test('four reads in one turn are one find on rate_limits; a read alone is one too', async () => {
    const factory = mongoLimiters({ driverClient: client, database });
    const limiters = ['a', 'b', 'c', 'd'].map((name) => factory(`batch_${name}`, 5, 60));
    commands.splice(0);
    const answers = await Promise.all(limiters.map((l) => l.get('someone')));
    assert.equal(answers, [null, null, null, null], 'no counters yet');
    assert.equal(
      onRateLimits().map((c) => c.commandName),
      ['find'],
      'one round trip for the four',
    );
    commands.splice(0);
    assert.is(await limiters[0]!.get('someone'), null);
    assert.equal(
      onRateLimits().map((c) => c.commandName),
      ['find'],
    );
  });

  test('a read answers what the library’s own get answers for the counters it wrote', async () => {
    const factory = mongoLimiters({ driverClient: client, database });
    const ours = factory('same_as_library', 3, 600);
    const theirs = new RateLimiterMongo({
      storeClient: client,
      dbName: database,
      tableName: 'rate_limits',
      keyPrefix: 'same_as_library',
      points: 3,
      duration: 600,
    });
    await ours.penalty('ana|10.0.0.1', 2);
    await ours.set('forever', 1, 0);
    const [mine, library, endless, libraryEndless, other] = await Promise.all([
      ours.get('ana|10.0.0.1'),
      theirs.get('ana|10.0.0.1'),
      ours.get('forever'),
      theirs.get('forever'),
      // Another key of the same batch: not mixed up with the first.
      ours.get('ana|10.0.0.2'),
    ]);
    assert.ok(mine && library && endless && libraryEndless);
    assert.is(mine.consumedPoints, 2);
    assert.is(mine.consumedPoints, library.consumedPoints);
    assert.is(mine.remainingPoints, library.remainingPoints);
    assert.ok(Math.abs(mine.msBeforeNext - library.msBeforeNext) < 1000, `${mine.msBeforeNext} vs ${library.msBeforeNext}`);
    assert.ok(mine.msBeforeNext > 590_000 && mine.msBeforeNext <= 600_000, 'the window’s time left');
    assert.is(endless.msBeforeNext, -1, 'no expiry, as the library says it');
    assert.is(endless.msBeforeNext, libraryEndless.msBeforeNext);
    assert.is(other, null, 'a key without a counter reads none, in the same batch');
  });

  test('a counter whose window has passed reads as none', async () => {
    const factory = mongoLimiters({ driverClient: client, database });
    const short = factory('short_window', 3, 1);
    await short.penalty('bo', 1);
    assert.is((await short.get('bo'))?.consumedPoints, 1);
    // The counter's stored expiry moved into the past, as a second later.
    await client
      .db(database)
      .collection('rate_limits')
      .updateOne({ key: 'short_window:bo' }, { $set: { expire: new Date(Date.now() - 1) } });
    assert.is(await short.get('bo'), null);
  });

  test('the throttle on these limiters: three wrong passwords refuse the fourth with 429; the reads stay one find a check', async () => {
    const factory = mongoLimiters({ driverClient: client, database });
    const throttle = new LoginThrottle(
      { maxFailures: 3, maxFailuresPerIp: 100, maxFailuresPerLogin: 5, windowSeconds: 600, knownAddressSeconds: 86_400 },
      factory,
    );
    for (let i = 0; i < 3; i++) {
      await throttle.check('10.0.0.9', 'cy');
      await throttle.failed('10.0.0.9', 'cy');
    }
    commands.splice(0);
    const refused = await throttle.check('10.0.0.9', 'cy').then(
      () => null,
      (error: unknown) => error as { status?: number; code?: string },
    );
    assert.ok(refused, 'the fourth attempt is refused');
    assert.is(refused.status, 429);
    assert.is(refused.code, 'rest_too_many_requests');
    assert.equal(
      onRateLimits().map((c) => c.commandName),
      ['find'],
    );
    // Another address keeps its own budget: this check must not throw.
    await throttle.check('10.0.0.10', 'cy');
  });

  test.run();
}
