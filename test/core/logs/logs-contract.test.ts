// The log API as the spec words it, on both stores: runs of a pipeline that carries an
// agent write that agent_id (so GET /logs?agent_id=N finds them), `since` means entries
// after it, and DELETE /logs?days=N from older clients is refused instead of clearing all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { handlerPlugin } from '../../support/handler-plugin.js';
import { testStores } from '../../support/test-stores.js';

interface Entry {
  id: number;
  agent_id: number | null;
  message: string;
  context: Record<string, unknown>;
  created_at: string;
}
interface ListBody {
  data: { items: Entry[]; total: number };
}
interface ErrBody {
  code: string;
  message: string;
  data: { status: number; params?: Record<string, string> };
}
interface Created {
  data: { pipeline_id: number; pipeline_step_id: string; flow_id: number };
}

const echo = handlerPlugin('logs-contract-echo', [
  defineHandler({
    slug: 'echo-pub',
    type: 'publish',
    label: 'Echo',
    description: 'Publishes nothing.',
    publish: async (_ctx, _s, packets) => packets,
  }),
]);

/** A one-step flow (echo-pub) of a new pipeline with the given agent. */
async function agentFlow(t: TestHost, agentId: number | null): Promise<number> {
  const pipeline = await t.request<Created>('POST', '/pipelines', { body: { pipeline_name: `Agent ${agentId}`, agent_id: agentId } });
  assert.is(pipeline.status, 200, JSON.stringify(pipeline.body));
  const pipelineId = pipeline.body.data.pipeline_id;
  const step = await t.request<Created>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'publish', execution_order: 0 } });
  const flow = await t.request<Created>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Agent flow' } });
  const flowId = flow.body.data.flow_id;
  const handler = await t.request('PUT', `/flows/steps/${step.body.data.pipeline_step_id}_${flowId}/handler`, {
    body: { handler_slug: 'echo-pub', settings: {} },
  });
  assert.is(handler.status, 200, JSON.stringify(handler.body));
  return flowId;
}

const listed = async (t: TestHost, query: Record<string, string | number>) => {
  const res = await t.request<ListBody>('GET', '/logs', { query: { per_page: 500, ...query } });
  assert.is(res.status, 200, JSON.stringify(res.body));
  return res.body.data.items;
};

for (const store of testStores('logs contract')) {
  const test = suite<{ t: TestHost }>(`logs contract (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [echo], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('runs of a flow whose pipeline has agent_id 7 write agent_id 7: GET /logs?agent_id=7 finds them', async ({ t }) => {
    const scoped = await agentFlow(t, 7);
    const unscoped = await agentFlow(t, null);
    const job = await t.executeAndWait({ flow_id: scoped });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const other = await t.executeAndWait({ flow_id: unscoped });
    await t.host.logs.flush();
    const seven = await listed(t, { agent_id: 7 });
    const messages = seven.map((e) => e.message);
    assert.ok(
      messages.some((m) => m.startsWith(`Job ${job.job_id} started`)),
      messages.join('\n'),
    );
    assert.ok(messages.includes(`Job ${job.job_id} completed`), messages.join('\n'));
    assert.ok(
      messages.some((m) => m.includes(`triggered manually`) && m.endsWith(`job ${job.job_id}`)),
      messages.join('\n'),
    );
    assert.ok(
      seven.every((e) => e.context.job_id === job.job_id),
      'only the scoped run',
    );
    // The unscoped pipeline's run stays unscoped (null), and is left out of agent 7.
    const theirs = await listed(t, { job_id: other.job_id });
    assert.ok(theirs.length > 0);
    assert.ok(
      theirs.every((e) => e.agent_id === null),
      JSON.stringify(theirs),
    );
    // Clearing agent 7 clears exactly that run's entries.
    const cleared = await t.request<{ deleted_count: number }>('DELETE', '/logs', { query: { agent_id: 7 } });
    assert.is(cleared.body.deleted_count, seven.length);
    assert.equal(await listed(t, { agent_id: 7 }), []);
    assert.is((await listed(t, { job_id: other.job_id })).length, theirs.length);
  });

  test('since: entries after it; an entry shown at the given time is not repeated', async ({ t }) => {
    await t.request('DELETE', '/logs');
    t.clock.set('2026-06-01T12:00:05.300Z');
    await t.host.logs.write({ message: 'at five' });
    t.clock.set('2026-06-01T12:00:06.000Z');
    await t.host.logs.write({ message: 'at six' });
    const [six, five] = await listed(t, {});
    assert.equal([five!.created_at, six!.created_at], ['2026-06-01 12:00:05', '2026-06-01 12:00:06']);
    // What a client shows (to the second), sent back as since: only what came after.
    assert.equal(
      (await listed(t, { since: five!.created_at })).map((e) => e.message),
      ['at six'],
    );
    assert.equal(
      (await listed(t, { since: '2026-06-01T12:00:06Z' })).map((e) => e.message),
      [],
    );
    // A finer instant is taken as given.
    assert.equal(
      (await listed(t, { since: '2026-06-01T12:00:05.299Z' })).map((e) => e.message),
      ['at six', 'at five'],
    );
    assert.equal(
      (await listed(t, { since: '2026-06-01T12:00:05.300Z' })).map((e) => e.message),
      ['at six'],
    );
    // A date alone names the whole day: after it is the next day on.
    assert.equal(await listed(t, { since: '2026-06-01' }), []);
    assert.is((await listed(t, { since: '2026-05-31' })).length, 2);
  });

  test('DELETE /logs?days=30 (older clients) is 400 naming days and deletes nothing', async ({ t }) => {
    await t.host.logs.write({ message: 'keep me' });
    const before = (await t.request<ListBody>('GET', '/logs')).body.data.total;
    assert.ok(before > 0);
    const refused = await t.request<ErrBody>('DELETE', '/logs', { query: { days: 30 } });
    assert.is(refused.status, 400, JSON.stringify(refused.body));
    assert.is(refused.body.code, 'rest_invalid_param');
    assert.ok(refused.body.data.params?.days, JSON.stringify(refused.body));
    assert.match(refused.body.message, /days/);
    assert.is((await t.request('DELETE', '/logs', { query: { days: 30, agent_id: 1 } })).status, 400);
    assert.is((await t.request<ListBody>('GET', '/logs')).body.data.total, before);
  });

  test('an unknown level is 400 listing the levels, the blank one in words', async ({ t }) => {
    const refused = await t.request<ErrBody>('GET', '/logs', { query: { level: 'bogus' } });
    assert.is(refused.status, 400);
    assert.is(refused.body.code, 'rest_invalid_param');
    assert.is(String(refused.body.data.params?.level), 'level must be one of: debug, info, warning, error, critical, or empty');
    // The blank level is allowed (no filter), as the message says.
    assert.is((await t.request('GET', '/logs', { query: { level: '' } })).status, 200);
  });

  test.run();
}
