// The metrics plugin loads prom-client after the host's first answer: what was measured
// before must reach the collectors, in order, and a scrape must wait for them.
// test-runner: alone (the last test asserts what this process has loaded, so no other suite may
// have loaded prom-client before it).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createRequire } from 'node:module';
import type { Collectors } from '../../../plugins/metrics/collectors.js';
import { deferredCollectors } from '../../../plugins/metrics/deferred-collectors.js';
import type { RequestTiming, StoreOperationTiming } from '../../../sdk/index.js';

const test = suite('metrics: collectors loaded after the first answer');

function fakeCollectors(seen: string[]): Collectors {
  const note = (kind: string) => (value: unknown) => void seen.push(`${kind} ${JSON.stringify(value)}`);
  return {
    registry: {} as Collectors['registry'],
    request: note('request'),
    step: note('step'),
    job: note('job'),
    scheduled: note('scheduled'),
    storeOperation: note('storeOperation'),
  };
}

/** Deferred collectors over fake ones, counting the loads; `failFirst`: the first load throws. */
function counting(failFirst = false) {
  const seen: string[] = [];
  let loads = 0;
  const deferred = deferredCollectors(async () => {
    loads++;
    if (failFirst && loads === 1) throw new Error('prom-client is missing');
    return fakeCollectors(seen);
  });
  return { seen, deferred, loads: () => loads };
}

const request = (n: number) => ({ method: 'GET', route: `/r${n}`, status: 200, ms: n }) as unknown as RequestTiming;
const storeOp = (n: number) => ({ collection: 'jobs', operation: 'find', ms: n }) as unknown as StoreOperationTiming;

test('nothing loads until asked; measurements taken before are replayed in order, later ones go straight in', async () => {
  const { seen, deferred, loads } = counting();
  deferred.storeOperation(storeOp(1));
  deferred.request(request(2));
  assert.is(loads(), 0, 'measuring does not load prom-client');
  deferred.loadSoon();
  deferred.loadSoon();
  assert.is(loads(), 0, 'not in the turn of the answer that asked');
  await deferred.loaded();
  assert.is(loads(), 1, 'loaded once, however often asked');
  deferred.request(request(3));
  assert.equal(seen, [
    `storeOperation ${JSON.stringify(storeOp(1))}`,
    `request ${JSON.stringify(request(2))}`,
    `request ${JSON.stringify(request(3))}`,
  ]);
});

test('a scrape before any answer loads them and sees what was measured', async () => {
  const { seen, deferred } = counting();
  deferred.request(request(1));
  await deferred.loaded();
  assert.equal(seen, [`request ${JSON.stringify(request(1))}`]);
});

test('a long backlog (a host no request reached) loads them by itself and loses nothing', async () => {
  const { seen, deferred, loads } = counting();
  for (let i = 0; i < 9_999; i++) deferred.storeOperation(storeOp(i));
  await new Promise((done) => setImmediate(done));
  assert.is(loads(), 0, 'below the bound, still waiting for an answer');
  deferred.storeOperation(storeOp(9_999));
  deferred.storeOperation(storeOp(10_000));
  await new Promise((done) => setImmediate(done));
  assert.is(loads(), 1, 'the bound started the load');
  await deferred.loaded();
  assert.is(seen.length, 10_001);
  assert.is(seen[0], `storeOperation ${JSON.stringify(storeOp(0))}`);
});

test('a failed load is told to the scrape, drops its backlog, and the next scrape tries again', async () => {
  const { seen, deferred, loads } = counting(true);
  deferred.request(request(1));
  await deferred.loaded().then(
    () => assert.unreachable('the first load fails'),
    (error: Error) => assert.match(error.message, /prom-client is missing/),
  );
  deferred.request(request(2));
  await deferred.loaded();
  assert.is(loads(), 2);
  assert.equal(seen, [`request ${JSON.stringify(request(2))}`], 'what the failed load held is gone; later ones are kept');
});

test('importing the plugin loads no prom-client', async () => {
  await import('../../../plugins/metrics/index.js');
  const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.includes('/node_modules/prom-client/'));
  assert.equal(loaded, []);
});

test.run();
