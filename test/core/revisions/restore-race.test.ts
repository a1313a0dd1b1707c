// A restore racing a delete (found by the chunked-slow body fuzz on MongoDB: the flow went
// between the restore's read and its write, and the write's empty answer became a 500).
// The restore now answers 404 and writes nothing, for flows and pipelines, on both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** Makes `service.get(id)` remove the record right after reading it: another request's delete, in between. */
function deleteAfterRead(t: TestHost, service: object, collection: string, key: string): () => void {
  const target = service as { get(id: number): Promise<unknown> };
  const real = target.get;
  target.get = async function (this: unknown, id: number) {
    const found = await real.call(this, id);
    await t.host.store.collection(collection).deleteOne({ [key]: id });
    return found;
  };
  return () => {
    target.get = real;
  };
}

for (const store of testStores('restore racing a delete')) {
  const test = suite<{ t: TestHost }>(`revisions: a restore racing a delete (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a flow deleted between the restore’s read and write: 404 flow_not_found, not 500', async ({ t }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Race' } })).body.data.pipeline_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Race flow' } })).body.data
      .flow_id;
    await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'Renamed' } });
    const restoreGet = deleteAfterRead(t, t.host.flows, 'flows', 'flow_id');
    try {
      const res = await t.request<Body>('POST', `/flows/${flowId}/revisions/1/restore`);
      assert.is(res.status, 404, JSON.stringify(res.body));
      assert.is(res.body.code, 'flow_not_found');
    } finally {
      restoreGet();
    }
    assert.is(await t.host.store.collection('flows').count({ flow_id: flowId }), 0, 'nothing written back');
  });

  test('a pipeline deleted between the restore’s read and write: 404 pipeline_not_found, not 500', async ({ t }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Race 2' } })).body.data.pipeline_id;
    await t.request('PATCH', `/pipelines/${pipelineId}`, { body: { pipeline_name: 'Race 2b' } });
    const restoreGet = deleteAfterRead(t, t.host.pipelines, 'pipelines', 'pipeline_id');
    try {
      const res = await t.request<Body>('POST', `/pipelines/${pipelineId}/revisions/1/restore`);
      assert.is(res.status, 404, JSON.stringify(res.body));
      assert.is(res.body.code, 'pipeline_not_found');
    } finally {
      restoreGet();
    }
  });

  test.run();
}
