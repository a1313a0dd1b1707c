// LogsService on the DocumentStore port: the embedded store always, MongoDB too when
// MONGODB_URL is set (the filters lean on $regex and Date ranges, which both must agree on).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { ApiError } from '../../../core/errors.js';
import { LogsRepository } from '../../../core/logs/repository.js';
import { LogsService, escapeRegex } from '../../../core/logs/service.js';
import type { DocumentStore } from '../../../core/store/port.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { FakeClock } from '../../../sdk/testing/fake-clock.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';

interface Ctx {
  store: DocumentStore;
  clock: FakeClock;
  logs: LogsService;
}

async function rejects(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    assert.instance(error, ApiError);
    return error as ApiError;
  }
  throw new assert.Assertion({
    message: 'expected a rejection',
    generated: true,
    operator: 'rejects',
    expects: 'rejection',
    actual: 'resolved',
  });
}

function logsServiceCases(label: string, open: () => Promise<DocumentStore>): void {
  const ctx = logsSuite(label, open);
  const { test } = ctx;
  writeCases(ctx);
  readCases(ctx);
  retentionCases(ctx);
  test.run();
}

/** What the parts of logsServiceCases share: its arguments and the suites and helpers set up first. */
function logsSuite(label: string, open: () => Promise<DocumentStore>) {
  const test = suite<Ctx>(`logs service (${label})`);
  test.before.each(async (ctx) => {
    ctx.store = await open();
    ctx.clock = new FakeClock('2026-03-04T05:06:07.890Z');
    ctx.logs = new LogsService(new LogsRepository(ctx.store), ctx.clock);
    await ctx.logs.init();
  });
  test.after.each(async (ctx) => ctx.store.close());

  return { label, open, test };
}
type LogsSuite = ReturnType<typeof logsSuite>;

/** Writing entries: defaults, refusals, masking, exact ids, literal search. */
function writeCases({ test }: LogsSuite): void {
  test('write applies defaults, counts ids up and formats created_at in UTC', async ({ logs, clock }) => {
    const first = await logs.write({ message: 'Flow triggered' });
    clock.advance(1500);
    const second = await logs.write({ level: 'error', message: 'Boom', context: { job_id: 3 }, agent_id: 2, user_id: 1 });
    assert.equal(first, {
      id: 1,
      agent_id: null,
      user_id: null,
      level: 'info',
      message: 'Flow triggered',
      context: {},
      created_at: '2026-03-04 05:06:07',
    });
    assert.is(second.id, 2);
    assert.is(second.created_at, '2026-03-04 05:06:09');
    assert.equal(second.context, { job_id: 3 });
    const page = await logs.query();
    assert.equal(page.items[0], second);
  });

  test('write refuses bad entries', async ({ logs }) => {
    assert.is((await rejects(logs.write({ level: 'fatal' as never, message: 'x' }))).status, 400);
    assert.is((await rejects(logs.write({ message: 42 as never }))).status, 400);
    assert.is((await rejects(logs.write({ message: 'x', context: ['a'] as never }))).status, 400);
    assert.is((await rejects(logs.write({ message: 'x', agent_id: -1 }))).status, 400);
    assert.is((await rejects(logs.write({ message: 'x', user_id: 1.5 }))).status, 400);
    assert.is((await logs.query()).total, 0);
  });

  test('write masks secret-named context fields and stores id-like context values as integers', async ({ logs }) => {
    const entry = await logs.write({
      message: 'auth',
      context: { access_token: 'abc', flow_id: '7', job_id: [1, 2], pipeline_id: 'p-1', handler: 'rss' },
    });
    assert.is.not(entry.context.access_token, 'abc');
    assert.is(entry.context.flow_id, 7);
    assert.is(entry.context.job_id, '[1,2]');
    assert.is(entry.context.pipeline_id, 'p-1');
    assert.is(entry.context.handler, 'rss');
    assert.is((await logs.query({ flow_id: 7 })).total, 1);
  });

  test('context ids match exactly: job 12 never matches 123 or 1', async ({ logs }) => {
    await logs.write({ message: 'a', context: { job_id: 12, flow_id: 5, pipeline_id: 9 } });
    await logs.write({ message: 'b', context: { job_id: 123, flow_id: 55 } });
    await logs.write({ message: 'c', context: { job_id: 1, pipeline_id: 99 } });
    await logs.write({ message: 'd', context: { job_id: '12' } });
    await logs.write({ message: 'e' });
    const messages = async (filters: Parameters<LogsService['query']>[0]) => (await logs.query(filters)).items.map((i) => i.message).sort();
    assert.equal(await messages({ job_id: 12 }), ['a', 'd']);
    assert.equal(await messages({ job_id: 123 }), ['b']);
    assert.equal(await messages({ flow_id: 5 }), ['a']);
    assert.equal(await messages({ pipeline_id: 9 }), ['a']);
    assert.equal(await messages({ job_id: 12, pipeline_id: 9 }), ['a']);
    assert.equal(await messages({ job_id: 4 }), []);
    assert.is((await rejects(logs.query({ job_id: 1.5 }))).status, 400);
  });

  test('search is a case-insensitive substring with regex characters taken literally', async ({ logs }) => {
    for (const message of [
      'File a.b saved',
      'File axb saved',
      'Call (x failed',
      'Price $5 ^up',
      'path C:\\tmp',
      'ÉCOLE done',
      'Nothing here',
    ]) {
      await logs.write({ message });
    }
    const find = async (search: string) => (await logs.query({ search })).items.map((i) => i.message).sort();
    assert.equal(await find('a.b'), ['File a.b saved']);
    assert.equal(await find('(x'), ['Call (x failed']);
    assert.equal(await find('$5 ^'), ['Price $5 ^up']);
    assert.equal(await find('c:\\t'), ['path C:\\tmp']);
    assert.equal(await find('file A'), ['File a.b saved', 'File axb saved']);
    assert.equal(await find('école'), ['ÉCOLE done']);
    assert.equal(await find('.*'), []);
    assert.equal(await find('[a-z]'), []);
  });

  test('escapeRegex escapes every metacharacter', () => {
    const special = '.*+?^${}()|[]\\';
    assert.ok(new RegExp(`^${escapeRegex(special)}$`).test(special));
  });
}

/** Reading: filters, order, pages, metadata, deletes. */
function readCases({ test }: LogsSuite): void {
  test('level, agent and date filters combine', async ({ logs, clock }) => {
    clock.set('2026-01-01T00:00:00Z');
    await logs.write({ level: 'error', message: 'old error', agent_id: 1 });
    clock.set('2026-01-02T00:00:00Z');
    await logs.write({ level: 'error', message: 'new error', agent_id: 2 });
    await logs.write({ level: 'critical', message: 'new critical', agent_id: 1 });
    clock.set('2026-01-03T00:00:00Z');
    await logs.write({ level: 'info', message: 'newest info', agent_id: 0 });
    const messages = async (filters: Parameters<LogsService['query']>[0]) => (await logs.query(filters)).items.map((i) => i.message);
    assert.equal(await messages({ level: 'error' }), ['new error', 'old error']);
    assert.equal(await messages({ level: 'critical' }), ['new critical']);
    assert.equal(await messages({ agent_id: 1 }), ['new critical', 'old error']);
    assert.equal(await messages({ agent_id: 0 }), ['newest info']);
    assert.equal(await messages({ level: 'error', agent_id: 2 }), ['new error']);
    // Both bounds are exclusive (the spec: entries after since, before before).
    assert.equal(await messages({ since: new Date('2026-01-02T00:00:00Z') }), ['newest info']);
    assert.equal(await messages({ since: new Date('2026-01-01T23:59:59.999Z') }), ['newest info', 'new critical', 'new error']);
    assert.equal(await messages({ before: new Date('2026-01-02T00:00:00Z') }), ['old error']);
    assert.equal(await messages({ since: new Date('2026-01-01T23:59:59.999Z'), before: new Date('2026-01-03T00:00:00Z') }), [
      'new critical',
      'new error',
    ]);
    assert.is((await rejects(logs.query({ since: new Date('nope') }))).status, 400);
    assert.is((await rejects(logs.query({ level: 'loud' as never }))).status, 400);
  });

  test('newest first; entries of the same instant by id descending', async ({ logs, clock }) => {
    clock.set('2026-02-01T10:00:00Z');
    await logs.write({ message: 'first' });
    await logs.write({ message: 'second' });
    clock.set('2026-02-01T09:00:00Z'); // a clock that went back: time still decides first
    await logs.write({ message: 'earlier' });
    clock.set('2026-02-01T10:00:00Z');
    await logs.write({ message: 'third' });
    const page = await logs.query();
    assert.equal(
      page.items.map((i) => [i.id, i.message]),
      [
        [4, 'third'],
        [2, 'second'],
        [1, 'first'],
        [3, 'earlier'],
      ],
    );
  });

  test('pagination: totals, pages, page contents and bounds', async ({ logs, clock }) => {
    for (let i = 1; i <= 7; i++) {
      await logs.write({ message: `m${i}`, level: i % 2 ? 'info' : 'debug' });
      clock.advance(1000);
    }
    const first = await logs.query({}, { per_page: 3 });
    assert.equal(
      { total: first.total, page: first.page, pages: first.pages, per_page: first.per_page },
      { total: 7, page: 1, pages: 3, per_page: 3 },
    );
    assert.equal(
      first.items.map((i) => i.message),
      ['m7', 'm6', 'm5'],
    );
    assert.equal(
      (await logs.query({}, { per_page: 3, page: 3 })).items.map((i) => i.message),
      ['m1'],
    );
    const beyond = await logs.query({}, { per_page: 3, page: 9 });
    assert.equal([beyond.items.length, beyond.total, beyond.pages], [0, 7, 3]);
    const filtered = await logs.query({ level: 'debug' }, { per_page: 2, page: 2 });
    assert.equal([filtered.total, filtered.pages, filtered.items.map((i) => i.message)], [3, 2, ['m2']]);
    assert.is((await logs.query()).per_page, 50);
    assert.is((await logs.query({}, { per_page: 500 })).items.length, 7);
    assert.is((await rejects(logs.query({}, { per_page: 501 }))).status, 400);
    assert.is((await rejects(logs.query({}, { per_page: 0 }))).status, 400);
    assert.is((await rejects(logs.query({}, { page: 0 }))).status, 400);
    const empty = await logs.query({ level: 'critical' });
    assert.equal([empty.total, empty.pages, empty.items], [0, 0, []]);
  });

  test('metadata: count, oldest and newest, globally or per agent', async ({ logs, clock }) => {
    assert.equal(await logs.metadata(), { total_entries: 0, oldest: null, newest: null });
    clock.set('2026-05-01T01:02:03.999Z');
    await logs.write({ message: 'a', agent_id: 4 });
    clock.set('2026-05-02T00:00:00Z');
    await logs.write({ message: 'b' });
    clock.set('2026-05-03T23:59:59Z');
    await logs.write({ message: 'c', agent_id: 4 });
    clock.set('2026-05-04T00:00:00Z');
    await logs.write({ message: 'd', agent_id: 5 });
    assert.equal(await logs.metadata(), { total_entries: 4, oldest: '2026-05-01 01:02:03', newest: '2026-05-04 00:00:00' });
    assert.equal(await logs.metadata({ agent_id: 4 }), { total_entries: 2, oldest: '2026-05-01 01:02:03', newest: '2026-05-03 23:59:59' });
    assert.equal(await logs.metadata({ agent_id: 9 }), { total_entries: 0, oldest: null, newest: null });
  });

  test('delete: one agent, then everything', async ({ logs }) => {
    await logs.write({ message: 'a', agent_id: 1 });
    await logs.write({ message: 'b', agent_id: 1 });
    await logs.write({ message: 'c', agent_id: 2 });
    await logs.write({ message: 'd' });
    assert.is(await logs.delete({ agent_id: 1 }), 2);
    assert.equal(
      (await logs.query()).items.map((i) => i.message),
      ['d', 'c'],
    );
    assert.is(await logs.delete({ agent_id: 1 }), 0);
    assert.is(await logs.delete(), 2);
    assert.is((await logs.metadata()).total_entries, 0);
    // Ids keep counting after a clear: an id is never reused.
    assert.is((await logs.write({ message: 'e' })).id, 5);
  });
}

/** Retention by the clock, and init run twice. */
function retentionCases({ test }: LogsSuite): void {
  test('purgeOlderThan deletes by the clock; 0 keeps everything', async ({ logs, clock }) => {
    clock.set('2026-01-01T00:00:00Z');
    await logs.write({ message: 'ten days old' });
    clock.set('2026-01-04T00:00:00Z');
    await logs.write({ message: 'seven days old' });
    clock.set('2026-01-10T00:00:00Z');
    await logs.write({ message: 'one day old' });
    clock.set('2026-01-11T00:00:00Z');
    assert.is(await logs.purgeOlderThan(0), 0);
    assert.is((await logs.query()).total, 3);
    // Exactly seven days old is not older than seven days.
    assert.is(await logs.purgeOlderThan(7), 1);
    assert.equal(
      (await logs.query()).items.map((i) => i.message),
      ['one day old', 'seven days old'],
    );
    clock.advance(1);
    assert.is(await logs.purgeOlderThan(7), 1);
    assert.is(await logs.purgeOlderThan(2), 0);
    assert.equal(
      (await logs.query()).items.map((i) => i.message),
      ['one day old'],
    );
    assert.is(await logs.purgeOlderThan(1), 1);
    assert.is((await logs.query()).total, 0);
    assert.is((await rejects(logs.purgeOlderThan(-1))).status, 400);
    assert.is((await rejects(logs.purgeOlderThan(Number.NaN))).status, 400);
  });

  test('init is idempotent', async ({ logs }) => {
    await logs.init();
    await logs.write({ message: 'still fine' });
    assert.is((await logs.query()).total, 1);
  });
}

logsServiceCases('embedded', async () => openEmbeddedStore({ file: ':memory:' }));

const mongoUrl = requireMongo('logs service (mongodb)');
if (mongoUrl) logsServiceCases('mongodb', () => openMongoStore({ url: freshDatabaseUrl(mongoUrl) }));

const sinks = suite('logs service: onWritten');
sinks('each stored entry reaches onWritten with its time, after it is stored', async () => {
  const store = openEmbeddedStore({ file: ':memory:' });
  const clock = new FakeClock('2026-07-01T00:00:00.123Z');
  const seen: Array<[string, number, number]> = [];
  const logs: LogsService = new LogsService(new LogsRepository(store), clock, {
    onWritten: async (entry, createdAt) => {
      seen.push([entry.message, createdAt.getTime(), (await logs.query()).total]);
    },
  });
  await logs.init();
  await logs.write({ message: 'one' });
  await logs.write({ message: 'two' });
  await rejects(logs.write({ message: 'bad', level: 'nope' as never }));
  assert.equal(seen, [
    ['one', Date.parse('2026-07-01T00:00:00.123Z'), 1],
    ['two', Date.parse('2026-07-01T00:00:00.123Z'), 2],
  ]);
  await store.close();
});
sinks.run();
