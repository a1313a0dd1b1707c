// Secret handler settings (cms-api's app_password) are sealed at rest, masked in every
// answer, kept when a client sends the mask back, and reach the remote service in clear.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const PASSWORD = 'abcd efgh ijkl mnop';
const basic = (password: string) => `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;

for (const store of testStores('handler secrets')) {
  const test = suite<{ t: TestHost; wp: FakeServer; auth: string[] }>(`handler settings secrets (${store.label})`);
  test.before(async (ctx) => {
    ctx.auth = [];
    ctx.wp = await createFakeServer((req) => {
      ctx.auth.push(String(req.headers.authorization));
      return {
        headers: { 'x-wp-totalpages': '1' },
        body: [{ id: 7, title: { rendered: 'Remote' }, content: { rendered: '<p>x</p>' }, link: 'https://remote.test/7' }],
      };
    });
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.wp.close();
  });

  test('flow settings: sealed in the store, masked in answers, a sent-back mask keeps the secret', async ({ t, wp, auth }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Remote' } })).body.data.pipeline_id;
    const step = (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } }))
      .body.data.pipeline_step_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Remote posts' } })).body.data
      .flow_id;
    const settings = { api_url: `${wp.url}/wp-json/wp/v2`, username: 'reader', app_password: PASSWORD };
    const set = await t.request<Body>('PUT', `/flows/steps/${step}_${flowId}/handler`, { body: { handler_slug: 'cms-api', settings } });
    assert.is(set.status, 200, JSON.stringify(set.body));
    assert.not.match(JSON.stringify(set.body), PASSWORD);
    assert.is(set.body.data.step_config.handler_config.app_password, '••••••••');

    const stored = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.match(stored, 'efgh', 'the password is not stored in clear');
    assert.match(stored, 'app_password');

    const flow = await t.request<Body>('GET', `/flows/${flowId}`);
    assert.not.match(JSON.stringify(flow.body), 'efgh');
    const shown = flow.body.data.flow_config[`${step}_${flowId}`].handler_config;
    // The admin client sends back what it was shown, with one field changed.
    const patched = await t.request<Body>('PATCH', `/flows/steps/${step}_${flowId}/config`, {
      body: { handler_config: { ...shown, per_page: 5 } },
    });
    assert.is(patched.status, 200, JSON.stringify(patched.body));

    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.equal(auth, [basic(PASSWORD)], 'the remote site received the real password once');

    // A new value replaces it.
    await t.request<Body>('PATCH', `/flows/steps/${step}_${flowId}/config`, {
      body: { handler_config: { app_password: 'new secret value' } },
    });
    const job2 = await t.executeAndWait({ flow_id: flowId });
    assert.is(job2.status, 'completed_no_items', JSON.stringify(job2));
    assert.is(auth[1], basic('new secret value'));
  });

  test('ephemeral workflows: the job stores the secret sealed and shows it masked', async ({ t, wp }) => {
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          {
            type: 'fetch',
            handler_slug: 'cms-api',
            handler_config: { api_url: `${wp.url}/wp-json/wp/v2`, username: 'reader', app_password: PASSWORD },
          },
        ],
      },
    });
    assert.ok(['completed', 'completed_no_items'].includes(job.status), JSON.stringify(job));
    assert.not.match(JSON.stringify(job), 'efgh');
    const stored = JSON.stringify(await t.host.store.collection('jobs').findOne({ job_id: job.job_id }));
    assert.not.match(stored, 'efgh');
  });

  test.run();
}
