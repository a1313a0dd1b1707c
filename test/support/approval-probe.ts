// A fake remote for the review step's tests (issue 55): a three-item fetch handler, and a
// publish handler that records what it posted and the run data it saw.
import * as assert from 'uvu/assert';
import type { TestClient } from '../../sdk/testing/index.js';
import { definePlugin, defineHandler, services, type DataPacket, type PluginDefinition } from '../../sdk/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

export interface ApprovalRemote {
  posted: string[];
  /** engine_data each publish call saw. */
  seen: Array<Record<string, unknown>>;
  /** How many items the feed hands out (the first N of urn:appr:1..5). */
  count: number;
}

export const newApprovalRemote = (): ApprovalRemote => ({ posted: [], seen: [], count: 3 });

export function approvalProbe(remote: ApprovalRemote): PluginDefinition {
  return definePlugin({
    id: 'approval-probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add(
        defineHandler({
          slug: 'appr-feed',
          type: 'fetch',
          label: 'Three items',
          description: 'Items urn:appr:1..N.',
          settings: { type: 'object', properties: { max_items: { type: 'integer' } } },
          fetch: async () =>
            Array.from({ length: remote.count }, (_, i) => ({
              type: 'item',
              data: { guid: `urn:appr:${i + 1}`, title: `Story ${i + 1}`, content: `<p>Body ${i + 1}</p>` },
              metadata: {},
            })),
        }),
      );
      handlers.add(
        defineHandler({
          slug: 'appr-pub',
          type: 'publish',
          label: 'Fake remote',
          description: 'Records each post.',
          publish: async (ctx, _settings, packets) => {
            remote.seen.push({ ...ctx.engineData });
            const out: DataPacket[] = [];
            for (const p of packets) {
              remote.posted.push(String(p.data.guid));
              out.push({ ...p, metadata: { ...p.metadata, published_id: `post-${String(p.data.guid)}`, published_url: null } });
            }
            return out;
          },
        }),
      );
    },
  });
}

/** fetch (appr-feed) → approval (with `approval` as its config) → publish (appr-pub); answers the flow id. */
export async function approvalFlow(t: Pick<TestClient, 'request'>, approval: Record<string, unknown> = {}): Promise<number> {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Reviewed' } })).body.data.pipeline_id as number;
  const psids: string[] = [];
  for (const [order, type] of ['fetch', 'approval', 'publish'].entries()) {
    const res = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: type, execution_order: order } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    psids.push(res.body.data.pipeline_step_id);
  }
  if (Object.keys(approval).length) {
    const res = await t.request<Body>('PUT', `/pipelines/steps/${psids[1]}/config`, { body: approval });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Reviewed flow' } })).body.data
    .flow_id as number;
  for (const [n, body] of [
    [0, { handler_slug: 'appr-feed', settings: { max_items: 5 } }],
    [2, { handler_slug: 'appr-pub', settings: {} }],
  ] as const) {
    const res = await t.request<Body>('PUT', `/flows/steps/${psids[n]}_${flowId}/handler`, { body });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return flowId;
}

/** Polls GET /jobs/{id} until its status is one of `states` (bounded). */
export async function jobIn(t: Pick<TestClient, 'request'>, jobId: number, states: string[], timeoutMs = 10_000): Promise<Body> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const res = await t.request<Body>('GET', `/jobs/${jobId}`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    if (states.includes(res.body.data.status)) return res.body.data;
    if (Date.now() > deadline) assert.unreachable(`job ${jobId} is ${res.body.data.status}, not ${states.join(' or ')}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
