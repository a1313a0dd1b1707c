// The trigger's failure budgets on each kind of counter: in memory (the embedded store's one
// host) and in MongoDB's `rate_limits`, where two hosts on one database count together.
// A failure is counted after verification; within every budget it answers 401, past one it
// answers 429 with the time left, per client address and per (flow, client address).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MongoClient } from 'mongodb';
import { FakeClock } from '../../../sdk/testing/index.js';
import { clockLimiters } from '../../../host/auth/clock-limiter.js';
import { mongoLimiters } from '../../../host/auth/mongo-limiters.js';
import {
  FAILURE_WINDOW_SECONDS,
  FAILURES_PER_ADDRESS,
  FAILURES_PER_FLOW_AND_ADDRESS,
  TriggerLimits,
} from '../../../core/webhooks/trigger-limits.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';

interface Backend {
  label: string;
  /** The limits of two hosts sharing the backend (in memory: one host, so the same limits twice). */
  hosts(): Promise<[TriggerLimits, TriggerLimits]>;
  close(): Promise<void>;
}

const backends: Backend[] = [];
const memoryClock = new FakeClock();
backends.push({
  label: 'memory',
  hosts: async () => {
    const limits = new TriggerLimits(clockLimiters(memoryClock));
    return [limits, limits];
  },
  close: async () => undefined,
});
const url = requireMongo('webhook trigger limits (mongodb)');
if (url) {
  const databaseUrl = freshDatabaseUrl(url, 'flowhost_trigger_limits');
  const clients = [new MongoClient(databaseUrl), new MongoClient(databaseUrl)];
  const database = new URL(databaseUrl).pathname.slice(1);
  backends.push({
    label: 'mongodb',
    hosts: async () => {
      await Promise.all(clients.map((c) => c.connect()));
      const [one, two] = clients.map((client) => new TriggerLimits(mongoLimiters({ driverClient: client, database })));
      return [one!, two!];
    },
    close: async () => {
      await clients[0]!.db(database).dropDatabase();
      await Promise.all(clients.map((c) => c.close()));
    },
  });
}

for (const backend of backends) {
  const test = suite<{ a: TriggerLimits; b: TriggerLimits }>(`webhooks: trigger failure budgets (${backend.label})`);
  test.before(async (ctx) => {
    [ctx.a, ctx.b] = await backend.hosts();
  });
  test.after(() => backend.close());

  test('per (flow, address): 401 within the budget, 429 with the time left past it, counted on every host', async ({ a, b }) => {
    for (let i = 1; i <= FAILURES_PER_FLOW_AND_ADDRESS; i++) {
      assert.is(await (i % 2 ? a : b).failed('10.1.0.1', 7), null, `failure ${i} is within the budget`);
    }
    const refusal = await b.failed('10.1.0.1', 7);
    assert.ok(refusal, 'the failure past the budget is refused');
    assert.is(refusal.status, 429);
    assert.is(refusal.code, 'rest_too_many_requests');
    const wait = Number(refusal.headers?.['Retry-After']);
    assert.ok(wait > 0 && wait <= FAILURE_WINDOW_SECONDS, `Retry-After ${wait}`);
    assert.is(await a.failed('10.1.0.1', 8), null, 'another flow from that address has its own budget');
    assert.is(await a.failed('10.1.0.2', 7), null, 'another address on that flow too');
  });

  test('per address, over every flow: past its budget every flow refuses that address', async ({ a, b }) => {
    // One failure on each of many flows: only the address's own budget can trip.
    for (let i = 1; i <= FAILURES_PER_ADDRESS; i++) assert.is(await (i % 2 ? a : b).failed('10.2.0.1', 100 + i), null, `failure ${i}`);
    assert.is((await a.failed('10.2.0.1', 999))?.status, 429);
    assert.is(await b.failed('10.2.0.2', 999), null, 'other addresses are not refused');
  });

  test.run();
}
