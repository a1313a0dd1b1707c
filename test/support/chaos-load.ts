// The chaos suites' load (issue 53): webhook deliveries (bearer) at a steady rate over every
// live host, POST /execute runs and delayed executes, while a host is SIGKILLed and restarted
// every few seconds. What was sent and what was answered is kept in a ledger; the verdict
// (test/support/chaos-verdict.ts) holds it against what a user sees afterwards.
import type { ChaosCluster } from './chaos-cluster.js';

type Body = { data?: Record<string, unknown>; code?: string };

/** Every flow is fetch(run-note) → fetch(webhook: the payload as one item) → publish(cms, published). */
export interface ChaosFlows {
  pipelineId: number;
  webhook: { flowId: number; token: string };
  /** One flow per execute and per delayed execute: a run of a busy flow is `skipped` by design. */
  spare: number[];
}

export interface Sent {
  /** The payload's id: the post's title is `chaos <id>`. */
  id: string;
  kind: 'webhook' | 'execute' | 'delayed';
  flowId: number;
  /** The job the answer named; null: no 200 (refused, or the host died before answering). */
  jobId: number | null;
  /** Delayed executes: the time asked for (ms). */
  at?: number;
}

export interface Ledger {
  sent: Sent[];
  kills: number[];
}

export const titleOf = (id: string) => `chaos ${id}`;

export async function call(
  url: string,
  auth: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: Body }> {
  const res = await fetch(`${url}/api/automation/v1${path}`, {
    method,
    headers: { Authorization: auth, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Body };
}

async function must(url: string, auth: string, method: string, path: string, body?: unknown): Promise<Record<string, unknown>> {
  const res = await call(url, auth, method, path, body);
  if (res.status >= 300) throw new Error(`${method} ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data ?? {};
}

/** The pipeline and flows the load drives, made through the API of `url`. */
export async function setUpChaosFlows(url: string, auth: string, spareFlows: number): Promise<ChaosFlows> {
  const pipelineId = (
    await must(url, auth, 'POST', '/pipelines', {
      pipeline_name: 'Chaos',
      steps: [{ step_type: 'fetch' }, { step_type: 'fetch' }, { step_type: 'publish' }],
    })
  ).pipeline_id as number;
  const pipeline = (await must(url, auth, 'GET', `/pipelines/${pipelineId}`)).pipeline as {
    pipeline_steps: Array<{ pipeline_step_id: string }>;
  };
  const [note, payload, publish] = pipeline.pipeline_steps.map((s) => s.pipeline_step_id);
  const flow = async (name: string) =>
    (
      await must(url, auth, 'POST', '/flows', {
        pipeline_id: pipelineId,
        flow_name: name,
        flow_config: {
          [note!]: { handler_slug: 'run-note' },
          [payload!]: { handler_slug: 'webhook' },
          [publish!]: { handler_slug: 'cms', handler_config: { post_status: 'publish', include_source: false } },
        },
      })
    ).flow_id as number;
  const webhookFlow = await flow('Chaos deliveries');
  const token = (await must(url, auth, 'PUT', `/flows/${webhookFlow}/webhook`, { mode: 'bearer' })).token as string;
  await must(url, auth, 'PUT', `/flows/${webhookFlow}/webhook/rate-limit`, { max: 100_000, window_seconds: 1 });
  const spare: number[] = [];
  for (let i = 0; i < spareFlows; i++) spare.push(await flow(`Chaos run ${i + 1}`));
  return { pipelineId, webhook: { flowId: webhookFlow, token }, spare };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface ChaosPlan {
  seconds: number;
  deliveriesPerSecond: number;
  /** A POST /execute (now) this often, on a flow of its own. */
  executeEveryMs: number;
  /** A POST /execute {timestamp} this often, due 2 s later, on a flow of its own. */
  delayedEveryMs: number;
  killEveryMs: number;
}

/**
 * Drives the load for `plan.seconds` while killing a host every `plan.killEveryMs` (restarted
 * at once). Resolves when the load has stopped and every request has its answer or error.
 */
export async function runChaos(cluster: ChaosCluster, flows: ChaosFlows, plan: ChaosPlan): Promise<Ledger> {
  const ledger: Ledger = { sent: [], kills: [] };
  const inFlight = new Set<Promise<void>>();
  const track = (p: Promise<void>) => {
    inFlight.add(p);
    void p.finally(() => inFlight.delete(p));
  };
  let turn = 0;
  /** The next live host in turn, or null while none serves. */
  const pick = () => {
    const live = cluster.live();
    return live.length ? live[turn++ % live.length]! : null;
  };
  const spare = [...flows.spare];
  const started = Date.now();
  const stopAt = started + plan.seconds * 1000;
  let n = 0;

  const deliver = (id: string) => {
    const entry: Sent = { id, kind: 'webhook', flowId: flows.webhook.flowId, jobId: null };
    ledger.sent.push(entry);
    const url = pick();
    if (!url) return;
    track(
      fetch(`${url}/api/automation/v1/trigger/${flows.webhook.flowId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${flows.webhook.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ id, title: titleOf(id) }),
        signal: AbortSignal.timeout(15_000),
      }).then(
        async (res) => {
          const answer = (await res.json().catch(() => ({}))) as { job_id?: number };
          if (res.status === 200 && typeof answer.job_id === 'number') entry.jobId = answer.job_id;
        },
        () => undefined, // the host died under the request: not acknowledged
      ),
    );
  };
  const execute = (id: string, kind: 'execute' | 'delayed') => {
    const flowId = spare.shift();
    if (flowId === undefined) throw new Error('the plan needs more spare flows than were made');
    const at = kind === 'delayed' ? (Math.floor(Date.now() / 1000) + 3) * 1000 : undefined;
    const entry: Sent = { id, kind, flowId, jobId: null, ...(at ? { at } : {}) };
    ledger.sent.push(entry);
    const url = pick();
    if (!url) return;
    const body = {
      flow_id: flowId,
      initial_data: { webhook_trigger: { payload: { id, title: titleOf(id) } } },
      ...(at ? { timestamp: at / 1000 } : {}),
    };
    track(
      call(url, cluster.auth, 'POST', '/execute', body).then(
        (res) => {
          if (res.status === 200 && typeof res.body.data?.job_id === 'number') entry.jobId = res.body.data.job_id;
        },
        () => undefined,
      ),
    );
  };

  const every = async (ms: number, act: () => void) => {
    for (let next = Date.now(); Date.now() < stopAt; next += ms) {
      act();
      await sleep(Math.max(0, next + ms - Date.now()));
    }
  };
  // On a timetable from the start: a slow restart does not push the next kill back.
  const killer = async () => {
    for (let at = started + plan.killEveryMs; at < stopAt - 1_000; at += plan.killEveryMs) {
      await sleep(Math.max(0, at - Date.now()));
      ledger.kills.push((await cluster.killOne()).killedAt);
    }
  };
  await Promise.all([
    every(1000 / plan.deliveriesPerSecond, () => deliver(`w-${++n}`)),
    every(plan.executeEveryMs, () => execute(`e-${++n}`, 'execute')),
    every(plan.delayedEveryMs, () => execute(`d-${++n}`, 'delayed')),
    killer(),
  ]);
  while (inFlight.size) await Promise.allSettled([...inFlight]);
  return ledger;
}
