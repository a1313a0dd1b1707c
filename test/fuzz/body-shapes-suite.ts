// Bodies as hostile and slow clients send them, on every route that reads one (issue 30):
// chunked and slow, past the route's limit, and stalled part-way. Each answer passes the
// same checks as the route fuzz (no 5xx, the declared status and shape), a stall is
// answered within the idle timeout, an over-limit or unfinished body never gets a success,
// and the host stays up. Its own suite file per store, so it has its own time budget.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import fc from 'fast-check';
import type { CompiledRoute } from '../../host/http/route-table.js';
import type { TestStore } from '../support/test-stores.js';
import { checkResponse } from './check-response.js';
import { crashCount, crashesSince, watchCrashes } from './crash-watch.js';
import { exitWhenDone } from './exit-when-done.js';
import { fuzzConfig, reproduceHint } from './fuzz-config.js';
import { startFuzzHost, type FuzzHost } from './fuzz-host.js';
import { hostProblems } from './fuzz-runner.js';
import { FuzzStats } from './fuzz-stats.js';
import { requestArbitrary } from './request-plan.js';
import { sendShaped, type BodyShape } from './shaped-body.js';

/** Routes in flight at once: a stalled body waits out the idle timeout, in parallel. */
const PARALLEL = 24;

export function bodyShapesSuite(store: TestStore) {
  const config = fuzzConfig();
  watchCrashes();
  const label = (r: CompiledRoute) => `${r.method} ${r.fullPath}`;
  const isTrigger = (r: CompiledRoute) => r.method === 'POST' && r.fullPath.includes('/trigger/{');
  const test = suite<{ host: FuzzHost; stats: FuzzStats; crashFrom: number }>(
    `fuzz: bodies chunked, slow, over the limit and stalled (${store.label})`,
  );

  test.before(async (ctx) => {
    ctx.crashFrom = crashCount();
    ctx.stats = new FuzzStats(store.label);
    // Short body timeouts, so a stalled body is answered within the suite's time.
    ctx.host = await startFuzzHost(store, { config: { bodyIdleTimeoutMs: 600, bodyTimeoutMs: 5_000 } });
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    exitWhenDone();
  });

  test('every route that reads a body answers each shape, and the host stays up', async (ctx) => {
    const plan = { known: ctx.host.known, knownKeys: ctx.host.knownKeys, isTrigger };
    const readers = ctx.host.t.host.routes.filter((r) => r.method !== 'GET');
    assert.ok(readers.length > 50, `only ${readers.length} routes read a body`);
    const problems: string[] = [];
    let sent = 0;
    let reached = 0;
    const one = async (route: CompiledRoute, index: number) => {
      // A seed of its own for each route (from the run's): with one seed for all, every route
      // drew the same choices, so one seed's odd path or method went to every route at once.
      const [sample] = fc.sample(requestArbitrary(route, plan), { seed: (config.seed + index) | 0, numRuns: 1 });
      if (!sample) return problems.push(`${label(route)}: no request could be generated`);
      // The route's own method, never the plan's other ones (OPTIONS, LOCK, an override): a
      // body sent under another method reaches no route that reads it; the route fuzz covers them.
      const headers: Record<string, string> = {
        'Content-Type': 'application/json',
        ...Object.fromEntries(
          Object.entries(sample.headers).filter(
            ([k]) => !/^(content-length|transfer-encoding|host|connection|x-http-method-override)$/i.test(k),
          ),
        ),
      };
      if (sample.auth === 'admin') headers.Authorization = ctx.host.adminAuth();
      else if (sample.auth === 'flow-token') headers.Authorization = `Bearer ${ctx.host.flowToken}`;
      const body = Buffer.from(sample.body ?? '{}');
      const limit = typeof route.definition.bodyLimit === 'number' ? route.definition.bodyLimit : 1024 * 1024;
      const over = limit + 64 * 1024;
      // Uploads cap their own size (64 MiB for media): chunked and stalled only.
      const shapes: BodyShape[] = route.definition.streamBody ? ['chunked-slow', 'stalled'] : ['chunked-slow', 'over-limit', 'stalled'];
      for (const shape of shapes) {
        const before = crashCount();
        try {
          const res = await sendShaped(ctx.host.t.url, {
            method: route.method,
            path: sample.path,
            headers,
            body,
            shape,
            overBytes: over,
            localAddress: sample.localAddress,
            timeoutMs: 10_000,
          });
          const answered = res.headers['x-flowhost-route'];
          const target =
            typeof answered === 'string' ? ctx.host.t.host.routes.find((r) => `${r.method} ${r.fullPath}` === answered) : undefined;
          const verdict = checkResponse(route.method, res, { route: target });
          ctx.stats.count(label(route), res.status, verdict.code);
          sent++;
          if (answered === label(route)) reached++;
          if (shape === 'over-limit' && res.status < 300) verdict.problems.push(`accepted ${over} bytes past a limit of ${limit}`);
          if (shape === 'stalled' && res.status < 300) verdict.problems.push('answered success to a body that never arrived whole');
          for (const crash of crashesSince(before)) verdict.problems.push(`host ${crash.kind}: ${crash.error.split('\n')[0]}`);
          if (verdict.problems.length)
            problems.push(`${label(route)} (${shape}): ${res.status} ${verdict.problems.join('; ')} ${res.text.slice(0, 200)}`);
        } catch (error) {
          problems.push(`${label(route)} (${shape}): ${(error as Error).message}`);
        }
      }
      return undefined;
    };
    for (let i = 0; i < readers.length; i += PARALLEL)
      await Promise.all(readers.slice(i, i + PARALLEL).map((route, j) => one(route, i + j)));
    console.log(ctx.stats.report(crashesSince(ctx.crashFrom).length, 0));
    const host = await hostProblems({ host: ctx.host, stats: ctx.stats, config, crashFrom: ctx.crashFrom }, ctx.crashFrom);
    // Bodies must mostly reach the route they were made for, or the shapes tested nothing
    // (a mangled path or a refusal before routing answers some of them).
    if (reached * 2 < sent) problems.push(`only ${reached} of ${sent} requests reached the route they were sent to`);
    const all = [...problems, ...host];
    assert.equal(all, [], `${all.join('\n')}\n${reproduceHint(config)}`);
  });
  return test;
}
