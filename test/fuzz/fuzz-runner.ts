// Sends generated requests, checks each answer, and runs one fast-check property per call
// of runProperty: seeded, and followed by the host checks (GET /healthz 200, no crash, no
// prototype pollution).
import fc from 'fast-check';
import { checkResponse } from './check-response.js';
import { crashCount, crashesSince, crashSignal, prototypePollution } from './crash-watch.js';
import { reproduceHint, type FuzzConfig } from './fuzz-config.js';
import type { FuzzHost } from './fuzz-host.js';
import type { FuzzStats } from './fuzz-stats.js';
import { preview } from './json-text.js';
import type { RawResponse } from './raw-request.js';
import type { FuzzRequest } from './request-plan.js';

export interface RunContext {
  host: FuzzHost;
  stats: FuzzStats;
  config: FuzzConfig;
  /** crashCount() when this store's suite started. */
  crashFrom: number;
}

const REQUEST_TIMEOUT_MS = 10_000;

async function send(ctx: RunContext, req: FuzzRequest): Promise<{ res?: RawResponse; error?: string }> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.auth === 'admin') headers.Authorization = ctx.host.adminAuth();
  else if (req.auth === 'flow-token') headers.Authorization = `Bearer ${ctx.host.flowToken}`;
  else if (typeof req.auth === 'object') Object.assign(headers, req.auth.junk);
  const { signal, release } = crashSignal();
  try {
    const res = await ctx.host.send({
      method: req.method,
      path: req.path,
      headers,
      body: req.body,
      localAddress: req.localAddress,
      signal,
      timeoutMs: REQUEST_TIMEOUT_MS,
    });
    return { res };
  } catch (error) {
    return { error: (error as Error).message };
  } finally {
    release();
  }
}

/**
 * One request; answers a failure report, or null when the answer is fine. Every failure is
 * recorded in the stats (the suite's last test fails on them); a refusal by Node's own HTTP
 * parser is only recorded, so that this one transport-level cause does not stop every
 * route's property before it finds anything else.
 */
export async function fuzzOnce(ctx: RunContext, req: FuzzRequest): Promise<string | null> {
  const before = crashCount();
  const { res, error } = await send(ctx, req);
  ctx.host.noteAnswer(req.method, res?.status);
  // The fuzzer may delete the administrator it logs in as (DELETE /users/{id} once it has
  // created another one): not a bug, but every later admin request would be a 401.
  if (res && req.auth === 'admin' && res.status === 401 && res.text.includes('rest_invalid_credentials')) {
    ctx.stats.adminRestored += 1;
    await ctx.host.restoreAdmin();
    return null;
  }
  // The route that answered (check mode names it): a mutated path or method may reach another one.
  const answered = res?.headers['x-flowhost-route'];
  const target = typeof answered === 'string' ? ctx.host.t.host.routes.find((r) => `${r.method} ${r.fullPath}` === answered) : undefined;
  const pageRoute = ctx.host.t.host.routes.some((r) => `${r.method} ${r.fullPath}` === req.route && r.definition.credentials === 'page');
  const verdict = res
    ? checkResponse(req.method, res, { pageRoute, route: target })
    : { problems: [`no answer: ${error}`], code: undefined };
  ctx.stats.count(req.route, res ? res.status : 'none', verdict.code);
  // Node's parser answers malformed requests itself (a bare 400/431 before restify, e.g.
  // for raw non-ASCII bytes in the path): one failure for all routes, as the host can only
  // fix it in one place (a clientError handler answering JSON).
  const byParser = res !== undefined && res.status >= 400 && !res.headers['content-type'] && !res.headers.server;
  if (byParser) ctx.stats.parserRejected += 1;
  const route = byParser ? "(Node's HTTP parser)" : req.route;
  for (const crash of crashesSince(before)) verdict.problems.push(`host ${crash.kind}: ${crash.error.split('\n')[0]}`);
  if (!verdict.problems.length) return null;
  const failure = ctx.stats.fail(
    { route, input: req.describe(), status: res ? res.status : 'none', problems: verdict.problems, body: res?.text ?? '' },
    req.method,
    verdict.code,
  );
  if (byParser && verdict.problems.every((p) => !p.startsWith('host '))) return null;
  return `${failure.signature}\n  input: ${req.describe()}\n  answer: ${res ? res.status : 'none'} ${preview(res?.text ?? error ?? '', 400)}`;
}

/** After a property: the host answers /healthz, nothing crashed, Object.prototype is clean. */
export async function hostProblems(ctx: RunContext, crashesFrom: number): Promise<string[]> {
  const problems: string[] = [];
  try {
    const health = await ctx.host.send({ method: 'GET', path: '/healthz', timeoutMs: 5000 });
    if (health.status !== 200) problems.push(`GET /healthz answered ${health.status} ${preview(health.text, 200)}`);
  } catch (error) {
    problems.push(`GET /healthz: no answer (${(error as Error).message})`);
  }
  for (const crash of crashesSince(crashesFrom)) problems.push(`host ${crash.kind}:\n${crash.error}`);
  const polluted = prototypePollution();
  if (polluted.length) problems.push(`Object.prototype polluted: ${polluted.join(', ')}`);
  return problems;
}

/**
 * A seeded property over `requests` (a list is sent all at once, to shake out races), then
 * the host checks; throws with a reproduction hint.
 */
export async function runProperty(ctx: RunContext, requests: fc.Arbitrary<FuzzRequest | FuzzRequest[]>, numRuns: number): Promise<void> {
  const property = fc.asyncProperty(requests, async (generated) => {
    const batch = Array.isArray(generated) ? generated : [generated];
    const failures = (await Promise.all(batch.map((req) => fuzzOnce(ctx, req)))).filter((f) => f !== null);
    if (failures.length && !ctx.config.keepGoing) throw new Error(failures.join('\n'));
  });
  const messages: string[] = [];
  const crashesFrom = crashCount();
  try {
    const replay = ctx.config.path ? { path: ctx.config.path, endOnFailure: true } : {};
    await fc.assert(property, { seed: ctx.config.seed, numRuns, ...replay });
  } catch (error) {
    const cause = (error as Error).cause instanceof Error ? `\n${((error as Error).cause as Error).message}` : '';
    messages.push(`${(error as Error).message}${cause}\n${reproduceHint(ctx.config)}`);
  }
  const host = await hostProblems(ctx, crashesFrom);
  if (host.length) messages.push(`after the run: ${host.join('\n')}`);
  if (messages.length) throw new Error(messages.join('\n'));
}
