// The route fuzz suite for one store (routes.fuzz.test.ts: embedded; routes-mongo.fuzz.test.ts:
// MongoDB — one file per store, so each has the runner's whole per-suite time budget).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import { createTestHost } from '../../sdk/testing/index.js';
import type { CompiledRoute } from '../../host/http/route-table.js';
import { defaultPlugins, optionalPlugins } from '../../plugins/index.js';
import type { TestStore } from '../support/test-stores.js';
import { crashCount, crashesSince, watchCrashes } from './crash-watch.js';
import { exitWhenDone } from './exit-when-done.js';
import { fuzzConfig, reproduceHint } from './fuzz-config.js';
import { allPlugins, startFuzzHost } from './fuzz-host.js';
import { hostProblems, runProperty, type RunContext } from './fuzz-runner.js';
import { FuzzStats } from './fuzz-stats.js';
import { junkPathRequest, requestArbitrary, type PlanContext } from './request-plan.js';

/** Registers every property of the route fuzz on `store`'s host; the caller runs the suite. */
export async function routeFuzzSuite(store: TestStore) {
  const config = fuzzConfig();
  watchCrashes();
  const label = (r: CompiledRoute) => `${r.method} ${r.fullPath}`;
  const isTrigger = (r: CompiledRoute) => r.method === 'POST' && r.fullPath.includes('/trigger/{');

  // The route table, read from a host with every plugin; each store's host must have the same.
  const probe = await createTestHost({ plugins: allPlugins() });
  const routeLabels = probe.host.routes.map(label);
  await probe.stop();

  // The budget: most of it spread over the routes, the rest on odd methods and paths anywhere.
  const perRoute = Math.max(3, Math.floor((config.totalRuns * 0.85) / routeLabels.length));
  const transportRuns = Math.max(10, Math.floor((config.totalRuns - perRoute * routeLabels.length) / 3));
  const burstRuns = Math.max(3, Math.floor(transportRuns / 5)); // about five requests each
  console.log(
    `[fuzz] seed ${config.seed}${config.seedWasGiven ? ' (FUZZ_SEED)' : ''}, per store: ${routeLabels.length} routes × ${perRoute} runs, 2 × ${transportRuns} transport runs, ${burstRuns} concurrent bursts${config.keepGoing ? ', keep going' : ''}`,
  );
  console.log(`[fuzz] ${reproduceHint(config)}`);

  // FUZZ_ONLY names one property exactly, or else is a substring of the names to run.
  const transportNames = [
    'odd methods and mangled paths on any route',
    'paths no route produces (asterisk and absolute forms, traversal, bad escapes)',
    'concurrent bursts: mixed requests, and one request repeated at once',
  ] as const;
  const exactOnly = config.only !== undefined && [...routeLabels, ...transportNames].includes(config.only);

  type Ctx = RunContext & { started: number; plan: PlanContext; live: Map<string, CompiledRoute> };
  const test = suite<Ctx>(`fuzz: every route (${store.label})`);

  test.before(async (ctx) => {
    ctx.config = config;
    ctx.crashFrom = crashCount();
    ctx.started = Date.now();
    ctx.stats = new FuzzStats(store.label);
    ctx.host = await startFuzzHost(store);
    ctx.plan = { known: ctx.host.known, knownKeys: ctx.host.knownKeys, isTrigger };
    ctx.live = new Map(ctx.host.t.host.routes.map((r) => [label(r), r]));
  });

  test.after(async (ctx) => {
    const ms = Date.now() - ctx.started;
    const crashes = crashesSince(ctx.crashFrom).length;
    console.log(ctx.stats.report(crashes, ms));
    console.log(ctx.stats.summaryLine(crashes, ms, config.seed));
    await ctx.host.stop();
    exitWhenDone();
  });

  test('every built-in plugin is loaded, and the live route table is the one the suite was generated from', (ctx) => {
    const builtIn = [...defaultPlugins, ...Object.values(optionalPlugins)].map((p) => p.id).sort();
    const loaded = new Set(ctx.host.t.host.plugins.map((p) => p.id));
    assert.equal(
      builtIn.filter((id) => !loaded.has(id)),
      [],
      'built-in plugins not loaded',
    );
    assert.equal([...ctx.live.keys()].sort(), [...routeLabels].sort());
  });

  // Each property starts from the fixtures (the one before may have deleted them: a refresh
  // puts them back whenever a request since the last one may have changed them). FUZZ_ONLY:
  // register just the matching properties (to replay one failure).
  const chosen = (name: string) => !config.only || (exactOnly ? name === config.only : name.includes(config.only));
  const property = (name: string, fn: (ctx: Ctx) => Promise<void>) =>
    chosen(name) &&
    test(name, async (ctx) => {
      if (ctx.host.dirty) {
        await ctx.host.refresh();
        ctx.stats.refreshes += 1;
      }
      await fn(ctx);
    });

  for (const name of routeLabels) {
    property(name, async (ctx) => {
      const route = ctx.live.get(name);
      assert.ok(route, `${name} is not registered on the ${store.label} host`);
      await runProperty(ctx, requestArbitrary(route, ctx.plan), perRoute);
    });
  }

  property(transportNames[0], async (ctx) => {
    const routes = [...ctx.live.values()];
    await runProperty(ctx, fc.oneof(...routes.map((r) => requestArbitrary(r, ctx.plan, true))), transportRuns);
  });

  property(transportNames[1], async (ctx) => {
    await runProperty(ctx, junkPathRequest, transportRuns);
  });

  property(transportNames[2], async (ctx) => {
    const any = fc.oneof(...[...ctx.live.values()].map((r) => requestArbitrary(r, ctx.plan)));
    const mixed = fc.array(any, { minLength: 2, maxLength: 8 });
    const repeated = fc.tuple(any, fc.integer({ min: 2, max: 6 })).map(([req, n]) => Array.from({ length: n }, () => req));
    await runProperty(ctx, fc.oneof(mixed, repeated), burstRuns);
  });

  test('every route was fuzzed, the host is healthy, and nothing failed', async (ctx) => {
    const missed = config.only ? [] : routeLabels.filter((r) => !ctx.stats.routesCovered.has(r));
    assert.equal(missed, [], `routes never fuzzed: ${missed.join(', ')}`);
    const problems = await hostProblems(ctx, ctx.crashFrom);
    assert.equal(problems, [], problems.join('\n'));
    const failures = [...ctx.stats.failures.values()].map((f) => f.signature);
    assert.equal(failures, [], `${failures.length} distinct failures (see the [fuzz] report above); ${reproduceHint(config)}`);
  });
  return test;
}
