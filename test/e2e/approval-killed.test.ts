// Issue 55: a waiting job is state in the store, so it outlives a host killed with SIGKILL.
// Real `flowhost serve` processes run rss (a feed on 127.0.0.1) → approval → remote-post (a
// fake remote that records what it receives). While four jobs wait, their host is killed;
// the next host (embedded: restarted on the same data directory; MongoDB: a second host
// already running on the database) lists them waiting with their items, takes a decision
// item by item (two posts, one rejection recorded) and a signed link obtained before the
// kill (it works once), and decides a job whose flow is busy (so it stays queued). Then it
// is killed itself while a resumed run's second publish is held by the remote, with no host
// up when a short review timeout passes: the host after it (embedded: restarted again;
// MongoDB: the first one restarted) decides the timeout in its sweep, fails the cut-off and
// busy runs as interrupted per the run leases, runs the queued decision on, and a retry
// publishes what was left: no item reaches the remote twice.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { basicAuth, repoRoot, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';
import { freshDatabaseUrl, requireMongo } from '../support/mongo-env.js';
import { startReviewRemote, type ReviewRemote } from '../support/review-remote.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const LEASE_SECONDS = 2;
/** How long a resumed run cut off by a kill may take to be failed: two leases and a start. */
const BOUND_MS = 2 * LEASE_SECONDS * 1000 + 5_000;
/** 3 s: short enough to pass while no host is up, long enough not to pass before the kill. */
const TIMEOUT_MINUTES = 0.05;
const plugin = join(repoRoot, 'dist/test/support/remote-post-plugin.js');

/** Until `done` holds of what `read` answers, or the deadline: the last answer. */
async function until<T>(read: () => Promise<T> | T, done: (value: T) => boolean, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value) || Date.now() > deadline) return value;
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** One host's API as the administrator (or anonymously, for the signed link). */
function api(host: RunningHost, auth: string | null) {
  return async (method: string, path: string, body?: unknown): Promise<{ status: number; body: Body; text: string }> => {
    const res = await fetch(path.startsWith('/api/') ? `${host.url}${path}` : `${host.url}/api/automation/v1${path}`, {
      method,
      headers: { ...(auth ? { Authorization: auth } : {}), ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: Body = {};
    try {
      parsed = JSON.parse(text) as Body;
    } catch {
      // an HTML page (the signed link's)
    }
    return { status: res.status, body: parsed, text };
  };
}
type Api = ReturnType<typeof api>;

/** A flow rss(feed `name`, 3 items) → approval (`approval` config) → remote-post; answers its id. */
async function reviewedFlow(call: Api, remote: ReviewRemote, name: string, approval: Record<string, unknown> = {}): Promise<number> {
  const pipelineId = (await call('POST', '/pipelines', { pipeline_name: `Reviewed ${name}` })).body.data.pipeline_id as number;
  const steps: string[] = [];
  for (const [order, type] of ['fetch', 'approval', 'publish'].entries()) {
    const res = await call('POST', `/pipelines/${pipelineId}/steps`, { step_type: type, execution_order: order });
    assert.is(res.status, 200, JSON.stringify(res.body));
    steps.push(res.body.data.pipeline_step_id as string);
  }
  if (Object.keys(approval).length) {
    const res = await call('PUT', `/pipelines/steps/${steps[1]}/config`, approval);
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  const flowId = (await call('POST', '/flows', { pipeline_id: pipelineId, flow_name: `Reviewed ${name}` })).body.data.flow_id as number;
  for (const [n, body] of [
    [0, { handler_slug: 'rss', settings: { feed_url: remote.feedUrl(name), max_items: 3 } }],
    [2, { handler_slug: 'remote-post', settings: { endpoint: remote.postsUrl } }],
  ] as const) {
    const res = await call('PUT', `/flows/steps/${steps[n]}_${flowId}/handler`, body);
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return flowId;
}

const job = async (call: Api, jobId: number) => {
  const res = await call('GET', `/jobs/${jobId}`);
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data as Body;
};
/** The job once its status is one of `states` (fails naming the status it stayed in). */
async function jobIn(call: Api, jobId: number, states: string[], timeoutMs = 10_000): Promise<Body> {
  const last = await until(
    () => job(call, jobId),
    (j) => states.includes(j.status),
    timeoutMs,
  );
  assert.ok(
    states.includes(last.status),
    `job ${jobId} is ${last.status}, not ${states.join(' or ')}: ${JSON.stringify({ error: last.error, steps: last.steps, review: last.review?.items }).slice(0, 2_000)}`,
  );
  return last;
}
/** Runs the flow and answers the job once it waits. */
async function waitingRun(call: Api, flowId: number): Promise<Body> {
  const ran = await call('POST', '/execute', { flow_id: flowId });
  assert.is(ran.status, 200, JSON.stringify(ran.body));
  return jobIn(call, ran.body.data.job_id as number, ['waiting']);
}
const guids = (name: string) => [1, 2, 3].map((n) => `${name}-${n}`);
const postedOf = (remote: ReviewRemote, name: string) => remote.created.filter((p) => p.guid.startsWith(`${name}-`)).map((p) => p.guid);

async function kill(host: RunningHost): Promise<number> {
  host.proc.kill('SIGKILL');
  await waitForExit(host.proc);
  return Date.now();
}

interface Waiting {
  byApi: number;
  byLink: number;
  cutOff: number;
  /** Decided while its flow is busy, so still queued when its host dies. */
  queued: number;
  queuedFlow: number;
  link: URL;
  timeoutFlow: number;
}

/** On the first host: three runs wait (and a fourth flow for the timeout); the link obtained; then the kill. */
async function waitThenKill(host: RunningHost, auth: string, remote: ReviewRemote): Promise<Waiting> {
  const call = api(host, auth);
  const [byApi, byLink, cutOff, queuedFlow] = await Promise.all(['a', 'b', 'd', 'e'].map((name) => reviewedFlow(call, remote, name)));
  const timeoutFlow = await reviewedFlow(call, remote, 'c', { timeout_minutes: TIMEOUT_MINUTES, on_timeout: 'approve' });
  const jobs: number[] = [];
  for (const flowId of [byApi!, byLink!, cutOff!, queuedFlow!]) jobs.push((await waitingRun(call, flowId)).job_id as number);
  const links = await call('GET', `/jobs/${jobs[1]}/review-links`);
  assert.is(links.status, 200, JSON.stringify(links.body));
  assert.equal(remote.received, [], 'nothing reaches the remote while the runs wait');
  await kill(host);
  return {
    byApi: jobs[0]!,
    byLink: jobs[1]!,
    cutOff: jobs[2]!,
    queued: jobs[3]!,
    queuedFlow: queuedFlow!,
    link: new URL(links.body.data.review_url as string),
    timeoutFlow,
  };
}

/** On the next host: the waiting list as before the kill; a decision item by item: two posts, one rejection. */
async function decideItemByItem(call: Api, remote: ReviewRemote, w: Waiting): Promise<void> {
  const list = await call('GET', '/jobs?status=waiting&per_page=100');
  assert.is(list.status, 200, JSON.stringify(list.body));
  const listed = new Map((list.body.data as Body[]).map((j) => [j.job_id as number, j]));
  for (const [id, name] of [
    [w.byApi, 'a'],
    [w.byLink, 'b'],
    [w.cutOff, 'd'],
    [w.queued, 'e'],
  ] as const) {
    const waiting = listed.get(id);
    assert.ok(waiting, `job ${id} is still listed waiting after the kill`);
    assert.is(waiting.status, 'waiting');
    assert.is(waiting.review.pending, 3);
    assert.equal(
      waiting.review.items.map((i: Body) => [i.item_id, i.decision, i.packet?.data?.title]),
      guids(name).map((g, n) => [g, null, `Story ${name} ${n + 1}`]),
    );
  }
  const approved = await call('POST', `/jobs/${w.byApi}/approve`, { items: ['a-1', 'a-3'] });
  assert.is(approved.status, 200, JSON.stringify(approved.body));
  assert.equal([approved.body.data.pending, approved.body.data.resumed], [1, false]);
  const rejected = await call('POST', `/jobs/${w.byApi}/reject`, { items: ['a-2'] });
  assert.is(rejected.status, 200, JSON.stringify(rejected.body));
  assert.is(rejected.body.data.resumed, true);
  const done = await jobIn(call, w.byApi, ['completed', 'failed']);
  assert.is(done.status, 'completed', JSON.stringify(done));
  assert.equal(postedOf(remote, 'a'), ['a-1', 'a-3'], 'two posts, each once');
  assert.not.ok(remote.received.includes('a-2'), 'the rejected item never reaches the remote');
  assert.equal(
    done.review.items.map((i: Body) => [i.item_id, i.decision, i.decided_by]),
    [
      ['a-1', 'approved', 'admin'],
      ['a-2', 'rejected', 'admin'],
      ['a-3', 'approved', 'admin'],
    ],
  );
  assert.equal(done.steps[1].review, { approved: 2, rejected: 1 });
  assert.equal(
    done.steps.map((s: Body) => [s.step_type, s.status, s.items_out]),
    [
      ['fetch', 'completed', 3],
      ['approval', 'completed', 2],
      ['publish', 'completed', 2],
    ],
  );
}

/** The link the first host gave, used on the next one: once. */
async function useLinkOnce(host: RunningHost, call: Api, remote: ReviewRemote, w: Waiting): Promise<void> {
  const anonymous = api(host, null);
  const token = w.link.searchParams.get('token')!;
  const pageAnswer = await anonymous('GET', `${w.link.pathname}${w.link.search}`);
  assert.is(pageAnswer.status, 200, pageAnswer.text);
  assert.match(pageAnswer.text, /3 items/);
  const used = await anonymous('POST', `/jobs/${w.byLink}/review`, { token, decision: 'approve' });
  assert.is(used.status, 200, JSON.stringify(used.body));
  assert.equal([used.body.data.decided, used.body.data.resumed], [guids('b'), true]);
  assert.is((await jobIn(call, w.byLink, ['completed', 'failed'])).status, 'completed');
  assert.equal(postedOf(remote, 'b'), guids('b'));
  const again = await anonymous('POST', `/jobs/${w.byLink}/review`, { token, decision: 'reject' });
  assert.is(again.status, 409, JSON.stringify(again.body));
  assert.ok(['review_link_used', 'job_not_waiting'].includes(again.body.code), again.body.code);
}

interface CutOff {
  killedAt: number;
  timedJob: number;
  /** The run that held the queued job's flow (its fetch held by the feed). */
  busy: number;
}

/** A decision that ends a wait while its flow is busy (a run held in its fetch): the job is queued behind it. */
async function decideWhileBusy(call: Api, remote: ReviewRemote, w: Waiting): Promise<number> {
  remote.holdFeed = 'e';
  const busy = await call('POST', '/execute', { flow_id: w.queuedFlow });
  assert.is(busy.status, 200, JSON.stringify(busy.body));
  assert.is(
    await until(
      () => remote.feedHeld,
      (f) => f === 'e',
    ),
    'e',
    'the next run of the flow is held in its fetch',
  );
  const approved = await call('POST', `/jobs/${w.queued}/approve`, {});
  assert.is(approved.status, 200, JSON.stringify(approved.body));
  assert.is(approved.body.data.resumed, true);
  const queued = await job(call, w.queued);
  assert.is(queued.status, 'pending', 'decided, queued behind the busy run');
  assert.equal(
    queued.review.items.map((i: Body) => i.decision),
    ['approved', 'approved', 'approved'],
  );
  return busy.body.data.job_id as number;
}

/**
 * On the same host: the cut-off job approved with the remote holding its second post, a
 * timed wait started last, then the kill; returns once the held post's client is gone and
 * the timeout has passed with no host up.
 */
async function killMidPublish(host: RunningHost, call: Api, remote: ReviewRemote, w: Waiting): Promise<CutOff> {
  const busy = await decideWhileBusy(call, remote, w);
  remote.hold = 'd-2';
  const approved = await call('POST', `/jobs/${w.cutOff}/approve`, {});
  assert.is(approved.status, 200, JSON.stringify(approved.body));
  assert.is(approved.body.data.resumed, true);
  assert.is(
    await until(
      () => remote.heldNow,
      (g) => g === 'd-2',
    ),
    'd-2',
    'the remote holds the second post',
  );
  assert.equal(postedOf(remote, 'd'), ['d-1']);
  assert.is((await job(call, w.cutOff)).status, 'processing');
  const timed = await waitingRun(call, w.timeoutFlow);
  const timeoutAt = Date.parse(timed.review.timeout_at as string);
  const killedAt = await kill(host);
  assert.ok(killedAt < timeoutAt, `the timeout (${timed.review.timeout_at}) had not passed when the host died`);
  assert.equal(
    await until(
      () => remote.abandoned,
      (a) => a.includes('d-2'),
    ),
    ['d-2'],
    'the held post’s client went away',
  );
  // No host is up while the timeout passes: the condition is the clock, polled.
  await until(
    () => Date.now(),
    (now) => now > timeoutAt + 100,
    timeoutAt - Date.now() + 1_000,
  );
  return { killedAt, timedJob: timed.job_id as number, busy };
}

/**
 * On the host after the last kill: the timeout its sweep decided, the cut-off run failed
 * as interrupted within the lease bound, a retry that publishes only what was left. Returns
 * the time from the kill to the cut-off run's failure.
 */
async function afterTheLastKill(call: Api, remote: ReviewRemote, w: Waiting, cut: CutOff): Promise<number> {
  const timed = await jobIn(call, cut.timedJob, ['completed', 'failed']);
  assert.is(timed.status, 'completed', JSON.stringify(timed));
  assert.is(timed.review.ended_by, 'timeout');
  assert.equal(
    timed.review.items.map((i: Body) => [i.item_id, i.decision, i.decided_by]),
    guids('c').map((g) => [g, 'approved', 'timeout']),
  );
  for (const item of timed.review.items as Body[])
    assert.ok(Date.parse(item.decided_at) > cut.killedAt, `decided after the kill, by the new host (${item.decided_at})`);
  assert.equal(postedOf(remote, 'c'), guids('c'));

  const failed = await jobIn(call, w.cutOff, ['failed'], BOUND_MS);
  const recoveredMs = Date.now() - cut.killedAt;
  assert.match(String(failed.error), /Interrupted/);
  // The decision taken while the flow was busy outlived the kill: the busy run is failed,
  // the decided job runs on from its approval step.
  assert.match(String((await jobIn(call, cut.busy, ['failed'])).error), /Interrupted/);
  const resumed = await jobIn(call, w.queued, ['completed', 'failed']);
  assert.is(resumed.status, 'completed', JSON.stringify(resumed.steps));
  assert.equal(postedOf(remote, 'e'), guids('e'), 'the queued decision published its items once');
  assert.equal(postedOf(remote, 'd'), ['d-1'], 'the cut-off run published its first item only');
  const retry = await call('POST', `/jobs/${w.cutOff}/retry`, {});
  assert.is(retry.status, 200, JSON.stringify(retry.body));
  const retried = await jobIn(call, retry.body.data.job_id as number, ['completed', 'failed']);
  assert.is(retried.status, 'completed', JSON.stringify(retried));
  assert.equal(postedOf(remote, 'd'), guids('d'), 'the retry published the rest');
  assert.equal(
    remote.received.filter((g) => g.startsWith('d-')),
    ['d-1', 'd-2', 'd-2', 'd-3'],
    'd-2 again only because the remote never answered it',
  );
  const all = remote.created.map((p) => p.guid);
  assert.is(new Set(all).size, all.length, `no item published twice: ${all.join(', ')}`);
  assert.equal(all.sort(), ['a-1', 'a-3', ...guids('b'), ...guids('c'), ...guids('d'), ...guids('e')].sort());
  const left = await call('GET', '/jobs?status=waiting');
  assert.equal(left.body.data, [], 'nothing is left waiting');
  return recoveredMs;
}

/** Every host a test started, killed whatever failed (a failed assertion left them serving). */
const started: RunningHost[] = [];
const track = (host: RunningHost) => (started.push(host), host);
async function stopAll(): Promise<void> {
  for (const host of started.splice(0)) {
    if (host.proc.exitCode !== null || host.proc.signalCode !== null) continue;
    host.proc.kill('SIGKILL');
    await waitForExit(host.proc);
  }
}

const env = (extra: Record<string, string> = {}) => ({
  FLOWHOST_ALLOW_PRIVATE_URLS: '1',
  FLOWHOST_LOG_LEVEL: 'warn',
  FLOWHOST_PLUGINS: plugin,
  FLOWHOST_RUN_LEASE_SECONDS: String(LEASE_SECONDS),
  ...extra,
});

/** The whole story over three hosts: `first` is killed while runs wait, `second` mid-publish, `third` cleans up. */
async function killedWhileWaiting(
  remote: ReviewRemote,
  hosts: { first: RunningHost; auth: string; second: () => Promise<RunningHost>; third: () => Promise<RunningHost> },
): Promise<number> {
  const w = await waitThenKill(hosts.first, hosts.auth, remote);
  const second = await hosts.second();
  const call = api(second, hosts.auth);
  await decideItemByItem(call, remote, w);
  await useLinkOnce(second, call, remote, w);
  const cut = await killMidPublish(second, call, remote, w);
  const thirdAt = Date.now();
  const third = await hosts.third();
  const ms = await afterTheLastKill(api(third, hosts.auth), remote, w, cut);
  console.log(
    `    (no host up for ${thirdAt - cut.killedAt} ms, then ${Date.now() - thirdAt} ms from the last start to the end of the checks)`,
  );
  third.proc.kill('SIGTERM');
  await waitForExit(third.proc);
  return ms;
}

const adminAuth = (dataDir: string) => basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());

const embedded = suite('e2e: a waiting job through killed hosts (embedded)');
embedded('killed while waiting, restarted on the same data directory: decisions, the link, a timeout and a cut-off run', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-approval-kill-'));
  const remote = await startReviewRemote();
  const begun = Date.now();
  try {
    const restart = async () => track(await startHostProcess(dataDir, env()));
    const first = await restart();
    const ms = await killedWhileWaiting(remote, { first, auth: adminAuth(dataDir), second: restart, third: restart });
    console.log(`  embedded: kill mid-publish to the cut-off run failed: ${ms} ms; whole story ${Date.now() - begun} ms`);
  } finally {
    await stopAll();
    await remote.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});
embedded.run();

const mongoUrl = requireMongo('e2e: a waiting job through killed hosts (mongodb)');
if (mongoUrl) {
  const shared = suite('e2e: a waiting job through killed hosts (mongodb)');
  shared('killed while waiting, the other host goes on; killed mid-publish, the first one restarted cleans up', async () => {
    const dirs = [mkdtempSync(join(tmpdir(), 'flowhost-approval-a-')), mkdtempSync(join(tmpdir(), 'flowhost-approval-b-'))];
    const db = env({ MONGODB_URL: freshDatabaseUrl(mongoUrl), FLOWHOST_SECRET_KEY: randomBytes(32).toString('hex') });
    const remote = await startReviewRemote();
    const begun = Date.now();
    try {
      const first = track(await startHostProcess(dirs[0]!, db));
      const other = track(await startHostProcess(dirs[1]!, db));
      const ms = await killedWhileWaiting(remote, {
        first,
        auth: adminAuth(dirs[0]!),
        second: async () => other,
        third: async () => track(await startHostProcess(dirs[0]!, db)),
      });
      console.log(`  mongodb: kill mid-publish to the cut-off run failed: ${ms} ms; whole story ${Date.now() - begun} ms`);
    } finally {
      await stopAll();
      await remote.close();
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
    }
  });
  shared.run();
}
