// The webhook trigger's flow cache (core/flows/trigger-cache.ts): on a store this process
// alone writes, a flow is read once and kept until FlowsService forgets it; a read that
// started before a change is not kept; on a store other hosts write, every request reads.
// The end-to-end half: a change made over REST applies to the very next trigger request.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import type { Collection } from '../../../core/store/port.js';
import type { FlowRecord } from '../../../core/flows/model.js';
import { FlowTriggerCache } from '../../../core/flows/trigger-cache.js';
import { createTestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

const test = suite('flows: the webhook trigger flow cache');

function fakeFlows() {
  const state = { name: 'A', reads: 0, hold: null as null | Promise<void> };
  const collection = {
    async findOne(filter: { flow_id: number }) {
      state.reads++;
      const name = state.name; // what the store held when the read ran
      if (state.hold) await state.hold;
      return filter.flow_id === 404 ? null : ({ flow_id: filter.flow_id, flow_name: name } as unknown as FlowRecord);
    },
  } as unknown as Collection<FlowRecord>;
  return { state, collection };
}

test('single writer: one read serves later requests; forget makes the next request read again', async () => {
  const { state, collection } = fakeFlows();
  const cache = new FlowTriggerCache(() => collection, true);
  assert.is((await cache.get(1))!.flow_name, 'A');
  assert.is((await cache.get(1))!.flow_name, 'A');
  assert.is(state.reads, 1);
  state.name = 'B';
  cache.forget(1);
  assert.is((await cache.get(1))!.flow_name, 'B');
  assert.is(state.reads, 2);
  state.name = 'C';
  cache.forget(null);
  assert.is((await cache.get(1))!.flow_name, 'C', 'forget(null) drops every flow');
  assert.is(await cache.get(404), null);
  assert.is(await cache.get(404), null);
  assert.is(state.reads, 5, 'an unknown flow is not cached');
});

test('a read that started before a change is answered but not kept', async () => {
  const { state, collection } = fakeFlows();
  const cache = new FlowTriggerCache(() => collection, true);
  let release!: () => void;
  state.hold = new Promise((done) => (release = done));
  const inFlight = cache.get(1); // reads 'A'
  state.name = 'B';
  cache.forget(1); // the change lands while the read is out
  release();
  state.hold = null;
  assert.is((await inFlight)!.flow_name, 'A');
  assert.is((await cache.get(1))!.flow_name, 'B', 'the stale read was not kept');
});

test('several writers (MongoDB): every request reads its flow', async () => {
  const { state, collection } = fakeFlows();
  const cache = new FlowTriggerCache(() => collection, false);
  await cache.get(1);
  state.name = 'B'; // another host's change: this host is not told
  assert.is((await cache.get(1))!.flow_name, 'B');
  assert.is(state.reads, 2);
});

for (const store of testStores('flows: trigger cache'))
  test(`over REST (${store.label}): a replaced secret, a disabled trigger and a rename apply to the next request`, async () => {
    const t = await createTestHost({ plugins: [], config: store.config() });
    try {
      const pipelineId = (
        await t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
          body: { pipeline_name: 'P', steps: [{ step_type: 'fetch' }] },
        })
      ).body.data.pipeline_id;
      const flowId = (
        await t.request<{ data: { flow_id: number } }>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Before' } })
      ).body.data.flow_id;
      const template = {
        mode: 'hmac',
        algo: 'sha256',
        signed_template: '{body}',
        signature_source: { header: 'X-Signature', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
      };
      const first = 'first-secret-0123456789abcdef0123';
      assert.is((await t.request('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac', template, secret: first } })).status, 200);
      const body = JSON.stringify({ n: 1 });
      const send = (secret: string) =>
        fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
          method: 'POST',
          headers: {
            'Content-Type': 'application/json',
            'X-Signature': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
          },
          body,
        });
      const accepted = await send(first);
      assert.is(accepted.status, 200);
      assert.is(((await accepted.json()) as { flow_name: string }).flow_name, 'Before');

      assert.is((await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'After' } })).status, 200);
      assert.is(((await (await send(first)).json()) as { flow_name: string }).flow_name, 'After', 'the rename shows at once');

      // A new secret replaces the first (no overlap): the first is refused at once.
      const replaced = await t.request<{ data: { secret?: { value: string } } }>('PUT', `/flows/${flowId}/webhook`, {
        body: { mode: 'hmac', template, secret: 'second-secret-0123456789abcdef012' },
      });
      assert.is(replaced.status, 200);
      assert.is((await send(first)).status, 401, 'the replaced secret is refused on the next request');
      assert.is((await send('second-secret-0123456789abcdef012')).status, 200);

      assert.is((await t.request('DELETE', `/flows/${flowId}/webhook`)).status, 200);
      assert.is((await send('second-secret-0123456789abcdef012')).status, 401, 'a disabled trigger refuses at once');
    } finally {
      await t.stop();
    }
  });

test.run();
