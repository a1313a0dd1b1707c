// Agenda's lock on the port (host/scheduler/port-job-repository.ts), on each store: the
// job claimed first is the earliest due one or the earliest whose lock expired (its holder
// died), whichever comes first; a live lock and a job not yet due are never taken; and
// two claims never win the same job. The embedded store reads candidates first and claims
// by id, MongoDB uses one findOneAndUpdate: both must pick alike.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { DocumentStore } from '../../../core/store/port.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { PortJobRepository } from '../../../host/scheduler/port-job-repository.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';

const stores: Array<[string, () => Promise<DocumentStore>]> = [['embedded', async () => openEmbeddedStore({ file: ':memory:' })]];
const url = requireMongo('scheduler lock order (mongodb)');
if (url) stores.push(['mongodb', () => openMongoStore({ url: freshDatabaseUrl(url) })]);

const T0 = new Date('2026-11-23T12:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

for (const [label, open] of stores) {
  const test = suite(`scheduler lock order: ${label}`);
  let store: DocumentStore;
  let repo: PortJobRepository;
  test.before.each(async () => {
    store = await open();
    repo = new PortJobRepository(store);
    await repo.connect();
  });
  test.after.each(async () => {
    await store.close();
  });
  const add = (id: string, fields: Record<string, unknown>) =>
    repo.jobs.insertOne({
      _id: id,
      name: 'flow.run',
      type: 'normal',
      priority: 0,
      data: {},
      disabled: false,
      lockedAt: null,
      ...fields,
    } as never);
  // Agenda's arguments: due up to nextScanAt; a lock taken before lockDeadline has expired.
  const claim = () => repo.getNextJobToRun('flow.run', at(5), at(-600), at(0), { lastModifiedBy: 'test' });

  test('an expired lock with an earlier slot is claimed before a due job; then the due one; a live lock and a future job never', async () => {
    await add('due', { nextRunAt: at(2) });
    await add('dead-holder', { nextRunAt: at(-30), lockedAt: at(-900) });
    await add('live-lock', { nextRunAt: at(-60), lockedAt: at(-10) });
    await add('later', { nextRunAt: at(60) });
    await add('off', { nextRunAt: at(-120), disabled: true });
    const first = await claim();
    assert.is(String(first?._id), 'dead-holder');
    const second = await claim();
    assert.is(String(second?._id), 'due');
    assert.is(await claim(), undefined, 'nothing else is claimable');
    const stored = await repo.jobs.findOne({ _id: 'due' });
    assert.equal(stored?.lockedAt, at(0), 'the claim stored its lock time');
  });

  test('a due job before an expired lock with a later slot; equal slots go by priority', async () => {
    await add('dead-later', { nextRunAt: at(3), lockedAt: at(-900) });
    await add('due-low', { nextRunAt: at(1), priority: 0 });
    await add('due-high', { nextRunAt: at(1), priority: 10 });
    assert.equal(
      [String((await claim())?._id), String((await claim())?._id), String((await claim())?._id)],
      ['due-high', 'due-low', 'dead-later'],
    );
  });

  test('concurrent claims never win the same job', async () => {
    for (let i = 0; i < 20; i++) await add(`job-${i}`, { nextRunAt: at(i % 5) });
    const won = await Promise.all(Array.from({ length: 30 }, () => claim()));
    const ids = won.filter(Boolean).map((j) => String(j!._id));
    assert.is(ids.length, 20);
    assert.is(new Set(ids).size, 20);
  });

  test.run();
}
