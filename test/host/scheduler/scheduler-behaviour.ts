// Agenda on the DocumentStore port: one behaviour suite, run against each adapter by
// scheduler-embedded.test.ts and scheduler-mongodb.test.ts.
import { suite, type Test } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Agenda } from 'agenda';
import type { Collection, DocumentStore, Filter, FindOneAndUpdateOptions, Update } from '../../../core/store/port.js';
import {
  createScheduler,
  FLOW_RUN_JOB,
  JOBS_COLLECTION,
  scheduleFlow,
  unscheduleFlow,
  type SchedulerOptions,
} from '../../../host/scheduler/index.js';
import { scheduledForOf } from '../../../host/scheduler/job-document.js';
import { sleep, waitFor } from './wait-for.js';

export interface SharedStores {
  a: DocumentStore;
  b: DocumentStore;
  /** Arguments for scheduler-crash-child.js to open the same data. */
  childArgs: string[];
}

export interface SchedulerTarget {
  /** A fresh, empty store. */
  open: () => Promise<DocumentStore>;
  /** Two connections to one fresh data set (two hosts), and how a child process opens it. */
  openShared: () => Promise<SharedStores>;
}

const FAST: Omit<SchedulerOptions, 'store' | 'name'> = { processEvery: 50, lockLifetime: 5000 };

type Doc = Record<string, unknown>;

/**
 * Wraps a store so that each of the next upserts first lets the next rival write, then
 * runs with a filter that cannot see what that rival inserted (both "found nothing", both
 * insert).
 */
function loseUpsertRaces(store: DocumentStore, rivals: Array<() => Promise<void>>): DocumentStore {
  const wrapCollection = (collection: Collection<Doc>): Collection<Doc> =>
    new Proxy(collection, {
      get(target, prop) {
        const value: unknown = Reflect.get(target, prop, target);
        if (prop !== 'findOneAndUpdate') return typeof value === 'function' ? value.bind(target) : value;
        return async (filter: Filter, update: Update, options?: FindOneAndUpdateOptions) => {
          const rival = options?.upsert ? rivals.shift() : undefined;
          if (!rival) return target.findOneAndUpdate(filter, update, options);
          const before = new Set((await target.find({})).map((d) => d._id));
          await rival();
          const inserted = (await target.find({})).map((d) => d._id).filter((id) => !before.has(id));
          return target.findOneAndUpdate({ ...filter, _id: { $nin: inserted } }, update, options);
        };
      },
    });
  return new Proxy(store, {
    get(target, prop) {
      const value: unknown = Reflect.get(target, prop, target);
      if (prop === 'collection') return (name: string) => wrapCollection(target.collection<Doc>(name));
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** The suite, not yet run: the calling test file calls `.run()`. */
export function schedulerBehaviour(label: string, target: SchedulerTarget): Test {
  const ctx = schedulerSuite(label, target);
  const { test } = ctx;
  oneHostCases(ctx);
  lockCases(ctx);
  upsertCases(ctx);
  flowScheduleCases(ctx);
  return test;
}

/** What the parts of schedulerBehaviour share: its arguments and the suites and helpers set up first. */
function schedulerSuite(label: string, target: SchedulerTarget) {
  const test = suite(`scheduler on ${label}`);
  const cleanups: Array<() => Promise<void>> = [];

  async function scheduler(store: DocumentStore, name = 'host-a', options: Partial<SchedulerOptions> = {}): Promise<Agenda> {
    const agenda = await createScheduler({ store, name, ...FAST, ...options });
    cleanups.push(() => agenda.stop());
    return agenda;
  }
  /**
   * Proves "nothing else ran" without a fixed sleep: a probe job made due now (or at `at`) runs
   * in a processing round that would also have picked up any job due before it, so once the
   * probe has run, a job that was going to run (again) has had its chance.
   */
  async function probeRound(agenda: Agenda, name: string, at = new Date()): Promise<void> {
    let ran = false;
    agenda.define(name, async () => {
      ran = true;
    });
    await agenda.schedule(at, name);
    await waitFor(`the probe '${name}' to run`, () => ran);
  }
  async function fresh(): Promise<DocumentStore> {
    const store = await target.open();
    cleanups.push(() => store.close());
    return store;
  }
  const jobsOf = (store: DocumentStore) => store.collection<Doc>(JOBS_COLLECTION);

  test.after.each(async () => {
    // Agendas first (they were pushed after their stores), then stores.
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch(() => {});
  });

  return { label, target, test, cleanups, scheduler, probeRound, fresh, jobsOf };
}
type SchedulerSuite = ReturnType<typeof schedulerSuite>;

/** One host: now, a date, the slot, repeats, cancel, failures. */
function oneHostCases({ test, scheduler, probeRound, fresh, jobsOf }: SchedulerSuite): void {
  test('now() runs a defined job exactly once and leaves it finished and unlocked', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    const seen: unknown[] = [];
    agenda.define('once', async (job) => {
      seen.push(job.attrs.data);
    });
    await agenda.start();
    const job = await agenda.now('once', { n: 1 });
    assert.type(job.attrs._id, 'string');
    await waitFor('the job to finish', async () => Boolean((await jobsOf(store).findOne({ _id: String(job.attrs._id) }))?.lastFinishedAt));
    await probeRound(agenda, 'probe');
    await probeRound(agenda, 'probe-2');
    assert.equal(seen, [{ n: 1 }]);
    const doc = await jobsOf(store).findOne({ _id: String(job.attrs._id) });
    assert.is(doc?.nextRunAt, null);
    assert.is(doc?.lockedAt, null);
    assert.instance(doc?.lastRunAt, Date);
  });

  test('schedule(date) runs the job once, not before that date', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    const ranAt: number[] = [];
    agenda.define('later', async () => {
      ranAt.push(Date.now());
    });
    await agenda.start();
    const when = new Date(Date.now() + 400);
    await agenda.schedule(when, 'later', { x: 1 });
    assert.equal(ranAt, [], 'not run at once');
    await waitFor('the delayed run', () => ranAt.length === 1);
    assert.ok(ranAt[0]! >= when.getTime(), 'ran before its date');
  });

  test('the handler sees the slot its run was locked for (Agenda has moved nextRunAt on by then); it is never stored', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    const seen: Array<{ slot: Date | undefined; next: Date | null | undefined }> = [];
    agenda.define('slotted', async (job) => {
      seen.push({ slot: scheduledForOf(job.attrs), next: job.attrs.nextRunAt });
    });
    const slot = new Date(Date.now() + 300);
    const job = agenda.create('slotted', {});
    job.repeatEvery(60_000);
    job.schedule(slot);
    await job.save();
    await agenda.start();
    await waitFor('the run', () => seen.length === 1);
    assert.is(seen[0]!.slot?.getTime(), slot.getTime());
    assert.ok((seen[0]!.next?.getTime() ?? 0) > slot.getTime(), 'nextRunAt is the next slot by the time the handler runs');
    const doc = await jobsOf(store).findOne({ _id: String(job.attrs._id) });
    assert.not.ok(doc && 'scheduledFor' in doc, 'the slot is not written to the store');
  });

  test("every('1 second') repeats and advances nextRunAt, keeping one document", async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    const runs: Array<Date | undefined> = [];
    agenda.define('tick', async (job) => {
      runs.push(job.attrs.nextRunAt ?? undefined);
    });
    await agenda.start();
    await agenda.every('1 second', 'tick');
    await waitFor('two runs', () => runs.length >= 2, 6000);
    const docs = await jobsOf(store).find({ name: 'tick' });
    assert.is(docs.length, 1);
    assert.is(docs[0]!.repeatInterval, '1 second');
    await waitFor('the next run to be stored', async () => {
      const doc = await jobsOf(store).findOne({ name: 'tick' });
      return doc?.lockedAt === null && (doc.nextRunAt as Date) > (doc.lastRunAt as Date);
    });
    const doc = await jobsOf(store).findOne({ name: 'tick' });
    assert.ok((doc!.nextRunAt as Date).getTime() > Date.now() - 1000, 'nextRunAt moved forward');
  });

  test('cancel removes the job and it never runs', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    let runs = 0;
    agenda.define('doomed', async () => {
      runs++;
    });
    agenda.define('kept', async () => {});
    await agenda.schedule(new Date(Date.now() + 200), 'doomed');
    await agenda.schedule(new Date(Date.now() + 60_000), 'kept');
    assert.is(await agenda.cancel({ name: 'doomed' }), 1);
    assert.is(await agenda.cancel({}), 0, 'empty options cancel nothing');
    await agenda.start();
    // Due after the cancelled job's date: by the time it has run, the cancelled one would have.
    await probeRound(agenda, 'probe', new Date(Date.now() + 250));
    assert.is(runs, 0);
    assert.equal(
      (await jobsOf(store).find({ name: { $ne: 'probe' } })).map((d) => d.name),
      ['kept'],
    );
  });

  test('a failing job records failReason and failCount, and its schedule continues', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    let runs = 0;
    agenda.define('flaky', async () => {
      runs++;
      throw new Error(`boom ${runs}`);
    });
    await agenda.start();
    await agenda.every(200, 'flaky');
    await waitFor('two failed runs to be stored', async () => (await jobsOf(store).findOne({ name: 'flaky' }))?.failCount === 2);
    const doc = await jobsOf(store).findOne({ name: 'flaky' });
    assert.match(String(doc!.failReason), /^boom \d$/);
    assert.instance(doc!.failedAt, Date);
    assert.instance(doc!.nextRunAt, Date, 'still scheduled');
    await waitFor('a third run', () => runs >= 3);
  });
}

/** Two hosts and locks: never twice, lapsed locks taken over, a killed holder. */
function lockCases({ target, test, cleanups, scheduler, probeRound, fresh, jobsOf }: SchedulerSuite): void {
  test('two hosts on one store never run the same job twice', async () => {
    const { a, b } = await target.openShared();
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const hostA = await scheduler(a, 'host-a', { defaultConcurrency: 4 });
    const hostB = await scheduler(b, 'host-b', { defaultConcurrency: 4 });
    const runs = new Map<string, string[]>();
    for (const [agenda, host] of [
      [hostA, 'a'],
      [hostB, 'b'],
    ] as const) {
      agenda.define('work', async (job) => {
        const id = String(job.attrs._id);
        runs.set(id, [...(runs.get(id) ?? []), host]);
        await sleep(5);
      });
    }
    const ids: string[] = [];
    for (let i = 0; i < 30; i++) ids.push(String((await hostA.now('work', { i })).attrs._id));
    await Promise.all([hostA.start(), hostB.start()]);
    await waitFor('every job to run', () => ids.every((id) => runs.has(id)), 10_000);
    // Each host processes one more round (a probe only it defines) after every job ran once.
    await Promise.all([probeRound(hostA, 'probe-a'), probeRound(hostB, 'probe-b')]);
    const twice = [...runs].filter(([, hosts]) => hosts.length > 1);
    assert.equal(twice, [], 'no job ran twice');
    assert.is(runs.size, 30);
  });

  test('a lock older than the lock lifetime is taken over; a fresh one is respected', async () => {
    const store = await fresh();
    const agenda = await scheduler(store, 'host-a', { lockLifetime: 1000 });
    const ran: string[] = [];
    agenda.define('stale', async () => void ran.push('stale'));
    agenda.define('held', async () => void ran.push('held'), { lockLifetime: 60_000 });
    const stale = await agenda.now('stale');
    const held = await agenda.now('held');
    // What a host that died mid-run leaves behind: a lock it will never release.
    await jobsOf(store).updateOne(
      { _id: String(stale.attrs._id) },
      { $set: { lockedAt: new Date(Date.now() - 5000), lastModifiedBy: 'dead-host' } },
    );
    await jobsOf(store).updateOne({ _id: String(held.attrs._id) }, { $set: { lockedAt: new Date(), lastModifiedBy: 'live-host' } });
    await agenda.start();
    await waitFor('the stale job to run', () => ran.includes('stale'));
    await probeRound(agenda, 'probe');
    await probeRound(agenda, 'probe-2');
    assert.equal(ran, ['stale']);
    assert.is((await jobsOf(store).findOne({ _id: String(held.attrs._id) }))!.lastModifiedBy, 'live-host');
  });

  test('a job held by a killed process runs elsewhere after its lock lifetime', async () => {
    const { a, b, childArgs } = await target.openShared();
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const client = await scheduler(a, 'client');
    const job = await client.now('crash');
    const id = String(job.attrs._id);
    const childScript = fileURLToPath(new URL('./scheduler-crash-child.js', import.meta.url));
    const child = spawn(process.execPath, [childScript, ...childArgs], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (err += d));
    cleanups.push(async () => void child.kill('SIGKILL'));
    try {
      await waitFor('the child to claim the job', () => out.includes(`started ${id}`) || child.exitCode !== null, 15_000);
    } catch (error) {
      throw new Error(`${(error as Error).message}; child stderr: ${err}`);
    }
    assert.ok(out.includes(`started ${id}`), `child exited early: ${err}`);
    child.kill('SIGKILL');
    await new Promise((resolve) => (child.exitCode !== null || child.signalCode ? resolve(null) : child.once('exit', resolve)));
    const left = await jobsOf(b).findOne({ _id: id });
    assert.instance(left!.lockedAt, Date, 'the dead process left its lock');
    assert.is(left!.lastModifiedBy, 'crashing-child');

    const survivor = await scheduler(b, 'survivor', { lockLifetime: 1000 });
    let reran = 0;
    survivor.define('crash', async () => void reran++);
    await survivor.start();
    await waitFor('the survivor to run the job', () => reran === 1);
    await waitFor('the job to be finished and unlocked', async () => (await jobsOf(b).findOne({ _id: id }))?.lockedAt === null);
    assert.is((await jobsOf(b).findOne({ _id: id }))!.lastModifiedBy, 'survivor');
  });
}

/** One job per key: unique(), and saves racing from two hosts. */
function upsertCases({ target, test, cleanups, scheduler, fresh, jobsOf }: SchedulerSuite): void {
  test('unique() upserts one job per key, and re-declaring a schedule keeps its lock', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    for (const at of [60_000, 120_000]) {
      await agenda
        .create('mail', { to: 'x' })
        .unique({ 'data.to': 'x' })
        .schedule(new Date(Date.now() + at))
        .save();
    }
    await agenda
      .create('mail', { to: 'y' })
      .unique({ 'data.to': 'y' })
      .schedule(new Date(Date.now() + 60_000))
      .save();
    const mails = await jobsOf(store).find({ name: 'mail' }, { sort: { 'data.to': 1 } });
    assert.equal(
      mails.map((d) => (d.data as { to: string }).to),
      ['x', 'y'],
    );
    assert.ok((mails[0]!.nextRunAt as Date).getTime() > Date.now() + 90_000, 'the second save updated the first job');

    await agenda.create('mail', { to: 'x' }).unique({ 'data.to': 'x' }, { insertOnly: true }).schedule(new Date()).save();
    assert.ok(
      ((await jobsOf(store).findOne({ 'data.to': 'x' }))!.nextRunAt as Date).getTime() > Date.now() + 90_000,
      'insertOnly left it alone',
    );

    // A host re-declaring every() while another runs the job must not clear that host's lock.
    await agenda.every('1 hour', 'hourly');
    const lockedAt = new Date();
    await jobsOf(store).updateOne({ name: 'hourly' }, { $set: { lockedAt, failCount: 3 } });
    await agenda.every('1 hour', 'hourly');
    const hourly = await jobsOf(store).find({ name: 'hourly' });
    assert.is(hourly.length, 1);
    assert.equal(hourly[0]!.lockedAt, lockedAt);
    assert.is(hourly[0]!.failCount, 3);
  });

  test('concurrent saves of one schedule from two hosts leave one document', async () => {
    const { a, b } = await target.openShared();
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const hostA = await scheduler(a, 'host-a');
    const hostB = await scheduler(b, 'host-b');
    for (let round = 0; round < 5; round++) {
      await Promise.all([hostA.every('5 minutes', `single-${round}`), hostB.every('5 minutes', `single-${round}`)]);
      await Promise.all([
        scheduleFlow(hostA, 100 + round, { interval: '5 minutes' }),
        scheduleFlow(hostB, 100 + round, { interval: '5 minutes' }),
      ]);
    }
    for (let round = 0; round < 5; round++) {
      assert.is(await jobsOf(a).count({ name: `single-${round}` }), 1, `every() round ${round}`);
      assert.is(await jobsOf(a).count({ name: FLOW_RUN_JOB, 'data.flowId': 100 + round }), 1, `scheduleFlow round ${round}`);
    }
  });

  test('an upsert that lost the insert race to another host updates the winner instead of duplicating', async () => {
    const { a, b } = await target.openShared();
    cleanups.push(
      () => a.close(),
      () => b.close(),
    );
    const hostB = await scheduler(b, 'host-b');
    // Host A's store lets host B insert first, then runs A's upsert as if A had not seen
    // B's document: what two hosts upserting at the same moment on MongoDB can do.
    const hostA = await scheduler(
      loseUpsertRaces(a, [
        async () => void (await hostB.every('5 minutes', 'raced')),
        async () => void (await scheduleFlow(hostB, 9, { interval: '5 minutes' })),
      ]),
      'host-a',
    );
    await hostA.every('10 minutes', 'raced');
    await scheduleFlow(hostA, 9, { interval: '10 minutes' });
    const raced = await jobsOf(a).find({ name: 'raced' });
    assert.equal(
      raced.map((d) => d.repeatInterval),
      ['10 minutes'],
    );
    const flows = await jobsOf(a).find({ name: FLOW_RUN_JOB });
    assert.equal(
      flows.map((d) => d.repeatInterval),
      ['10 minutes'],
    );
    assert.equal(
      flows.map((d) => d.lastModifiedBy),
      ['host-a'],
      'the loser updated the winner',
    );
  });
}

/** scheduleFlow, and the repository's query, overview, enable/disable and bad input. */
function flowScheduleCases({ test, scheduler, fresh, jobsOf }: SchedulerSuite): void {
  test('scheduleFlow keeps one schedule per flow and leaves an unchanged one alone', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    const first = await scheduleFlow(agenda, 7, { interval: '10 minutes' });
    assert.ok(first.changed);
    assert.ok(first.nextRunAt!.getTime() > Date.now() + 9 * 60_000, 'first run one interval away');
    const again = await scheduleFlow(agenda, 7, { interval: '10 minutes' });
    assert.equal(again, { ...first, changed: false });
    const changed = await scheduleFlow(agenda, 7, { interval: '0 3 * * *', timezone: 'Europe/Berlin' });
    assert.ok(changed.changed);
    assert.is(changed.id, first.id, 'same document');
    await scheduleFlow(agenda, 8, { interval: '1 hour' });
    const docs = await jobsOf(store).find({ name: FLOW_RUN_JOB }, { sort: { 'data.flowId': 1 } });
    assert.equal(
      docs.map((d) => [d.data, d.repeatInterval]),
      [
        [{ flowId: 7 }, '0 3 * * *'],
        [{ flowId: 8 }, '1 hour'],
      ],
    );
    assert.is(await unscheduleFlow(agenda, 7), 1);
    assert.is(await unscheduleFlow(agenda, 7), 0);
    assert.is(await jobsOf(store).count({ name: FLOW_RUN_JOB }), 1);
    for (const bad of [0, -1, 1.5, Number.NaN]) {
      try {
        await scheduleFlow(agenda, bad, { interval: '1 hour' });
        assert.unreachable(`flowId ${bad} accepted`);
      } catch (error) {
        assert.instance(error, RangeError);
      }
    }
  });

  test('query, overview, enable/disable and bad input through the repository', async () => {
    const store = await fresh();
    const agenda = await scheduler(store);
    await agenda.schedule(new Date(Date.now() + 60_000), 'report', { kind: 'daily', team: { id: 1 } });
    await agenda.schedule(new Date(Date.now() + 60_000), 'report', { kind: 'weekly', team: { id: 2 } });
    await agenda.schedule(new Date(Date.now() - 1000), 'Cleanup');
    const byData = await agenda.queryJobs({ data: { team: { id: 2 } } });
    assert.equal(
      byData.jobs.map((j) => (j.data as { kind: string }).kind),
      ['weekly'],
    );
    assert.is((await agenda.queryJobs({ search: 'CLEAN' })).total, 1, 'search is case-insensitive');
    assert.is((await agenda.queryJobs({ search: '.*' })).total, 0, 'search is literal');
    const paged = await agenda.queryJobs({ name: 'report', sort: { name: 'asc' }, limit: 1 });
    assert.is(paged.jobs.length, 1);
    assert.is(paged.total, 2);
    assert.is(await agenda.db.getQueueSize(), 1);
    assert.equal((await agenda.db.getDistinctJobNames()).sort(), ['Cleanup', 'report']);
    assert.is(await agenda.disable({ name: 'report' }), 2);
    assert.is((await agenda.queryJobs({ state: 'paused' })).total, 2);
    assert.is((await agenda.queryJobs({ includeDisabled: false })).total, 1);
    const overview = await agenda.getJobsOverview();
    assert.equal(overview.find((o) => o.name === 'report')?.paused, 2);
    assert.is(await agenda.enable({ names: ['report'] }), 2);
    assert.is(await agenda.db.getJobById('no-such-id'), null);
    assert.is(await agenda.cancel({ id: 'no-such-id' }), 0);
    try {
      await agenda.create('evil', {}).unique({ $where: 'sleep(1000)' }).save();
      assert.unreachable('a $where unique() query was accepted');
    } catch (error) {
      assert.not.match(String(error), 'unreachable');
    }
    assert.is(await agenda.cancel({ notNames: ['report'] }), 1);
    assert.is(await agenda.cancelAll(), 2);
  });
}
