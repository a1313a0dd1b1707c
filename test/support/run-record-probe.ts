// A fake remote for the run record and retry tests (issue 53): a five-item fetch handler
// that counts its requests, and a publish handler that posts each item, fails at a chosen
// item, or waits until released.
import * as assert from 'uvu/assert';
import type { TestHost } from '../../sdk/testing/index.js';
import { definePlugin, defineHandler, services, type DataPacket, type PluginDefinition } from '../../sdk/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

export const ITEM_SECRET = 'item-secret-value-0123456789';
export const SETTING_SECRET = 'setting-secret-value-abcdef';

/** What the fake remote saw and how it behaves: the feed's requests, the posts made, where it fails, a held publish. */
export interface Remote {
  feedRequests: number;
  posted: string[];
  failAt: number | null;
  hold: Promise<void> | null;
  holding: (() => void) | null;
  body: string;
}

function items(remote: Remote): DataPacket[] {
  return [1, 2, 3, 4, 5].map((n) => ({
    type: 'item',
    data: { guid: `urn:rec:${n}`, title: `Story ${n}`, content: `<p>Body ${n} ${remote.body}</p>`, api_token: ITEM_SECRET },
    metadata: {},
  }));
}

/** A five-item fetch handler, and a publish handler that fails at item number `failAt` (urn:rec:N) or waits for `hold`. */
export function recordProbe(remote: Remote): PluginDefinition {
  return definePlugin({
    id: 'run-record-probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add(
        defineHandler({
          slug: 'rec-feed',
          type: 'fetch',
          label: 'Five items',
          description: 'Five items, each with a secret-looking field.',
          settings: { type: 'object', properties: { max_items: { type: 'integer' } } },
          fetch: async () => {
            remote.feedRequests++;
            return items(remote);
          },
        }),
      );
      handlers.add(
        defineHandler({
          slug: 'rec-pub',
          type: 'publish',
          label: 'Fake remote',
          description: 'Posts each item; fails at the configured item.',
          settings: { type: 'object', properties: { api_key: { type: 'string' } } },
          publish: async (_ctx, _settings, packets) => {
            if (remote.holding) remote.holding();
            if (remote.hold) await remote.hold;
            const out: DataPacket[] = [];
            for (const p of packets) {
              // By the item's own number (urn:rec:N): the engine hands a publish one item at a time.
              const guid = String(p.data.guid);
              const n = Number(guid.split(':').pop());
              if (remote.failAt === n) throw new Error(`remote refused item ${n}`);
              remote.posted.push(guid);
              out.push({ ...p, metadata: { ...p.metadata, published_id: `post-${guid}`, published_url: `https://remote.test/${guid}` } });
            }
            return out;
          },
        }),
      );
    },
  });
}

/** fetch (rec-feed, 5 items) → publish (rec-pub, with a secret setting); answers the flow id. */
export async function twoStepFlow(t: Pick<TestHost, 'request'>): Promise<{ flowId: number; steps: string[] }> {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Recorded' } })).body.data.pipeline_id as number;
  const psids: string[] = [];
  for (const [order, type] of ['fetch', 'publish'].entries())
    psids.push(
      (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: type, execution_order: order } })).body.data
        .pipeline_step_id,
    );
  const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Recorded flow' } })).body.data
    .flow_id as number;
  const steps = psids.map((p) => `${p}_${flowId}`);
  const settings = [
    { handler_slug: 'rec-feed', settings: { max_items: 5 } },
    { handler_slug: 'rec-pub', settings: { api_key: SETTING_SECRET } },
  ];
  for (const [n, body] of settings.entries()) {
    const res = await t.request<Body>('PUT', `/flows/steps/${steps[n]}/handler`, { body });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return { flowId, steps };
}

export const newRemote = (): Remote => ({ feedRequests: 0, posted: [], failAt: null, hold: null, holding: null, body: '' });
