// Agenda's job watchdog (see host/scheduler/agenda-watchdog.ts): after a job has run and
// Agenda has stopped, no timer of it may keep the process alive. Counted with Node's own
// list of what holds the event loop, right after the stop: no waiting involved.
import { createHook } from 'node:async_hooks';
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Agenda } from 'agenda';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { createScheduler } from '../../../host/scheduler/index.js';
import { unrefJobWatchdogs } from '../../../host/scheduler/agenda-watchdog.js';

const test = suite('scheduler: Agenda job watchdog');
const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

/** Runs one quick job on a 60 s lock lifetime, stops; returns the ref'd timers left over. */
async function timersLeftAfterOneJob(adapt: (agenda: Agenda) => void): Promise<number> {
  const store = openEmbeddedStore({ file: ':memory:' });
  const agenda = await createScheduler({ store, name: 'watchdog-test', processEvery: 50, lockLifetime: 60_000 });
  agenda.define('quick', async () => {});
  const before = timers();
  await agenda.start();
  adapt(agenda);
  const done = new Promise<void>((resolve) => agenda.once('complete:quick', () => resolve()));
  await agenda.now('quick');
  await done;
  await agenda.stop();
  await store.close();
  return timers() - before;
}

test('a stopped Agenda leaves no ref-d timer once its watchdogs are unref-d', async () => {
  assert.is(await timersLeftAfterOneJob(unrefJobWatchdogs), 0);
});

test('Agenda itself still leaves its watchdog timer (when this fails, the adapter can go)', async () => {
  // Every timer made during this test is noted and unref'd once counted, so the 30 s
  // watchdog left here does not hold this suite's process.
  const made: NodeJS.Timeout[] = [];
  const hook = createHook({
    init: (_id, type, _t, resource) => void (type === 'Timeout' && made.push(resource as NodeJS.Timeout)),
  }).enable();
  try {
    const left = await timersLeftAfterOneJob(() => {});
    assert.is(left, 1, 'Agenda 6.2 leaves exactly one timer per job run: its watchdog');
  } finally {
    hook.disable();
    for (const timer of made) timer.unref();
  }
});

test('the adapter refuses an Agenda without the method it wraps, naming itself', async () => {
  const fake = { jobProcessor: {} } as unknown as Agenda;
  assert.throws(() => unrefJobWatchdogs(fake), /agenda-watchdog\.ts/);
});

test.run();
