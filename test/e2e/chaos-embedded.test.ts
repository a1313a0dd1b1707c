// Issue 53's chaos suite, embedded store: one host under webhook, execute and delayed-execute
// load, SIGKILLed every few seconds and restarted at once on its data directory. After a
// bounded quiet period: nothing acknowledged lost, nothing run or published twice, nothing
// left pending or processing (a run a kill cut off is failed as interrupted), delayed
// executes on time. Short leases keep it bounded (docs/architecture.md, "Run leases").
import { suite } from 'uvu';
import { chaosRun } from '../support/chaos-scenario.js';
import { assertChaosOutcome } from '../support/chaos-assert.js';

const test = suite('e2e: chaos, one host on the embedded store killed and restarted');

test('webhook, execute and delayed-execute load through kills: 0 lost, 0 run twice, 0 unfinished', async () => {
  const outcome = await chaosRun({
    hosts: 1,
    leaseSeconds: 3,
    stepMs: 40,
    plan: { seconds: 15, deliveriesPerSecond: 8, executeEveryMs: 700, delayedEveryMs: 2_000, killEveryMs: 4_000 },
  });
  assertChaosOutcome('embedded', outcome);
});

test.run();
