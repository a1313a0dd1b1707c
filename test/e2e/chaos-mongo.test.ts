// Issue 53's chaos suite, MongoDB store: two hosts on one database under webhook, execute and
// delayed-execute load, one of them SIGKILLed every few seconds (in turn) and restarted at
// once. After a bounded quiet period: nothing acknowledged lost, nothing run or published
// twice, nothing left pending or processing (a run a kill cut off is failed as interrupted
// by the other host's sweep), delayed executes on time. Short leases keep it bounded.
import { suite } from 'uvu';
import { chaosRun } from '../support/chaos-scenario.js';
import { assertChaosOutcome } from '../support/chaos-assert.js';
import { freshDatabaseUrl, requireMongo } from '../support/mongo-env.js';

const mongoUrl = requireMongo('e2e: chaos, two hosts on MongoDB');
if (mongoUrl) {
  const test = suite('e2e: chaos, two hosts on MongoDB, one killed and restarted every few seconds');
  test('webhook, execute and delayed-execute load through kills: 0 lost, 0 run twice, 0 unfinished', async () => {
    const outcome = await chaosRun({
      hosts: 2,
      leaseSeconds: 3,
      stepMs: 40,
      mongoUrl: freshDatabaseUrl(mongoUrl),
      plan: { seconds: 13, deliveriesPerSecond: 8, executeEveryMs: 700, delayedEveryMs: 2_000, killEveryMs: 3_000 },
    });
    assertChaosOutcome('mongodb', outcome);
  });
  test.run();
}
