// Secret handler settings (cms-api's app_password) are sealed at rest, masked in every
// answer, kept when a client sends the mask back, and reach the remote service in clear;
// so do secret query parameters in a URL setting (rss's `feed_url?token=`).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const PASSWORD = 'abcd efgh ijkl mnop';
const RSS =
  '<?xml version="1.0"?><rss version="2.0"><channel><title>Private</title><item><title>One</title><guid>p-1</guid><link>https://feeds.example/1</link></item></channel></rss>';
const basic = (password: string) => `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;

for (const store of testStores('handler secrets')) {
  const test = suite<{ t: TestHost; wp: FakeServer; feed: FakeServer; auth: string[] }>(`handler settings secrets (${store.label})`);
  test.before(async (ctx) => {
    ctx.auth = [];
    ctx.wp = await createFakeServer((req) => {
      ctx.auth.push(String(req.headers.authorization));
      return {
        headers: { 'x-wp-totalpages': '1' },
        body: [{ id: 7, title: { rendered: 'Remote' }, content: { rendered: '<p>x</p>' }, link: 'https://remote.test/7' }],
      };
    });
    ctx.feed = await createFakeServer(() => ({ headers: { 'content-type': 'application/rss+xml' }, body: RSS }));
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.wp.close();
    await ctx.feed.close();
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

  test('credentials in a URL: refused when given, masked and left out of exports when stored by the previous version', async ({ t }) => {
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Userinfo', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
    const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Userinfo' } });
    const flowId = flow.body.data.flow_id as number;
    const stepId = Object.keys(flow.body.data.flow_config)[0]!;
    const withCreds = 'https://reader:url-secret-77@remote.example/wp-json/wp/v2';

    const refused = await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, {
      body: { handler_slug: 'cms-api', settings: { api_url: withCreds, username: 'reader' } },
    });
    assert.is(refused.status, 400);
    assert.is(refused.body.code, 'rest_invalid_param');
    assert.match(
      refused.body.data.params.api_url,
      /api_url carries credentials \(user:password@\): put them in the handler's own fields \(.*app_password/,
    );
    assert.not.match(JSON.stringify(refused.body), 'url-secret-77');
    const defaults = await t.request<Body>('PUT', '/settings/handler-defaults/cms-api', { body: { settings: { api_url: withCreds } } });
    assert.is(defaults.status, 400, JSON.stringify(defaults.body));
    assert.not.match(JSON.stringify(defaults.body), 'url-secret-77');
    const ephemeral = await t.request<Body>('POST', '/execute', {
      body: { workflow: { steps: [{ type: 'fetch', handler_slug: 'cms-api', handler_config: { api_url: withCreds } }] } },
    });
    assert.is(ephemeral.status, 400, JSON.stringify(ephemeral.body));

    // As the previous version stored it: in clear.
    const ok = await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, {
      body: { handler_slug: 'cms-api', settings: { api_url: 'https://remote.example/wp-json/wp/v2', username: 'reader' } },
    });
    assert.is(ok.status, 200, JSON.stringify(ok.body));
    const key = Object.keys((await t.host.flows.get(flowId)).steps)[0]!;
    await t.host.flows.collection.updateOne({ flow_id: flowId }, { $set: { [`steps.${key}.handler_config.api_url`]: withCreds } });

    const shown = await t.request<Body>('GET', `/flows/${flowId}`);
    assert.is(shown.body.data.flow_config[stepId].handler_config.api_url, 'https://••••••••@remote.example/wp-json/wp/v2');
    const exported = await t.request<Body>('GET', `/pipelines/${pipelineId}/export`);
    assert.is(exported.status, 200, JSON.stringify(exported.body));
    assert.not.match(JSON.stringify(exported.body), 'url-secret-77');
    assert.not.match(JSON.stringify(exported.body), 'reader:');
    const step = exported.body.data.flows[0].steps['1'];
    assert.is(step.handler_config.api_url, 'https://remote.example/wp-json/wp/v2');
    assert.ok(step.secrets_omitted.includes('api_url'), JSON.stringify(step));

    // The next start seals it at rest; answers still mask it.
    await t.host.flows.init();
    const stored = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.match(stored, 'url-secret-77');
    assert.match(stored, /https:\/\/fhv1:[^@]+@remote\.example/);
    assert.is(
      (await t.request<Body>('GET', `/flows/${flowId}`)).body.data.flow_config[stepId].handler_config.api_url,
      'https://••••••••@remote.example/wp-json/wp/v2',
    );
    // Sent back as shown, the stored credentials come back with it and are refused, by name.
    const patched = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { api_url: 'https://••••••••@remote.example/wp-json/wp/v2' } },
    });
    assert.is(patched.status, 400, JSON.stringify(patched.body));
    assert.ok('api_url' in patched.body.data.params);
    assert.not.match(JSON.stringify(patched.body), 'url-secret-77');
    // Given without them, the address is saved.
    const fixed = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { api_url: 'https://remote.example/wp-json/wp/v2' } },
    });
    assert.is(fixed.status, 200, JSON.stringify(fixed.body));
  });

  test('a secret query parameter in a URL (?token=, ?api_key=): sealed, masked alone, kept when sent back, left out of exports, sent to the feed', async ({
    t,
    feed,
  }) => {
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Private feed', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
    const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Private feed' } });
    const flowId = flow.body.data.flow_id as number;
    const stepId = Object.keys(flow.body.data.flow_config)[0]!;
    const chosen = await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: `${feed.url}/open.xml` } },
    });
    assert.is(chosen.status, 200, JSON.stringify(chosen.body));

    // The tester's request.
    const secretUrl = `${feed.url}/feed.xml?token=abc&api_key=xyz`;
    const patched = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, { body: { handler_config: { feed_url: secretUrl } } });
    assert.is(patched.status, 200, JSON.stringify(patched.body));
    assert.not.match(JSON.stringify(patched.body), 'xyz');
    const masked = `${feed.url}/feed.xml?token=••••••••&api_key=••••••••`;
    const read = async () => (await t.request<Body>('GET', `/flows/${flowId}`)).body.data.flow_config[stepId].handler_config.feed_url;
    assert.is(await read(), masked);

    const raw = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.match(raw, 'token=abc', 'the token is not stored in clear');
    assert.not.match(raw, 'api_key=xyz', 'the key is not stored in clear');
    assert.match(raw, /feed\.xml\?token=fhv1:[^&"]+&api_key=fhv1:/);

    const exported = await t.request<Body>('GET', `/flows/${flowId}/export`);
    assert.is(exported.status, 200, JSON.stringify(exported.body));
    assert.not.match(JSON.stringify(exported.body), 'abc');
    assert.not.match(JSON.stringify(exported.body), 'xyz');
    assert.not.match(JSON.stringify(exported.body), 'fhv1:');
    const step = exported.body.data.flows[0].steps['1'];
    assert.is(step.handler_config.feed_url, `${feed.url}/feed.xml`);
    assert.equal(step.secrets_omitted, ['feed_url']);
    assert.equal(exported.body.data.secrets_omitted, ['flows[0].steps.1.handler_config.feed_url']);

    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.equal(feed.requests.at(-1)!.url, '/feed.xml?token=abc&api_key=xyz', 'the feed received the real query');
    assert.not.match(JSON.stringify(job), 'xyz', 'the job does not show the key');
    for (const name of ['jobs', 'processed_items', 'logs']) {
      const docs = JSON.stringify(await t.host.store.collection(name).find({}));
      assert.not.match(docs, 'api_key=xyz', `${name} holds no clear key`);
    }

    // Sent back as shown (with another page): the secrets are kept.
    const back = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { feed_url: `${masked}&page=2` } },
    });
    assert.is(back.status, 200, JSON.stringify(back.body));
    assert.is(await read(), `${masked}&page=2`);
    // Percent-encoded, as a client building it with URL would send it.
    const encoded = new URL(`${feed.url}/other.xml?token=••••••••&api_key=••••••••`).href;
    const moved = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, { body: { handler_config: { feed_url: encoded } } });
    assert.is(moved.status, 200, JSON.stringify(moved.body));
    await t.executeAndWait({ flow_id: flowId });
    assert.equal(feed.requests.at(-1)!.url, '/other.xml?token=abc&api_key=xyz', 'a new path keeps the stored secrets');

    // Another host with the mask: refused, the token is not sent where nobody typed it.
    const elsewhere = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { feed_url: 'http://localhost:1/feed.xml?token=••••••••' } },
    });
    assert.is(elsewhere.status, 400, JSON.stringify(elsewhere.body));
    assert.is(elsewhere.body.code, 'rest_invalid_param');
    assert.match(elsewhere.body.data.params.feed_url, /token was shown masked/);
    // A mask for a parameter that was never stored: refused too.
    const unknown = await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { feed_url: `${feed.url}/feed.xml?key=••••••••` } },
    });
    assert.is(unknown.status, 400, JSON.stringify(unknown.body));
    assert.is(await read(), `${feed.url}/other.xml?token=••••••••&api_key=••••••••`);

    // Handler defaults hold it the same way.
    const defaults = await t.request<Body>('PUT', '/settings/handler-defaults/rss', {
      body: { settings: { feed_url: `${feed.url}/d.xml?key=dflt-9` } },
    });
    assert.is(defaults.status, 200, JSON.stringify(defaults.body));
    assert.is(defaults.body.data.settings.feed_url, `${feed.url}/d.xml?key=••••••••`, JSON.stringify(defaults.body));
    const storedDefaults = JSON.stringify(await t.host.store.collection('settings').find({}));
    assert.not.match(storedDefaults, 'dflt-9');
    assert.match(storedDefaults, 'd.xml?key=fhv1:');
    await t.request<Body>('PUT', '/settings/handler-defaults/rss', { body: { settings: {} } });

    // A new value replaces it.
    await t.request<Body>('PATCH', `/flows/steps/${stepId}/config`, {
      body: { handler_config: { feed_url: `${feed.url}/feed.xml?token=new1` } },
    });
    await t.executeAndWait({ flow_id: flowId });
    assert.equal(feed.requests.at(-1)!.url, '/feed.xml?token=new1');
  });

  test('a secret query parameter stored in clear by the previous version is sealed at the next start', async ({ t, feed }) => {
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Old feed', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
    const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Old feed' } });
    const flowId = flow.body.data.flow_id as number;
    const stepId = Object.keys(flow.body.data.flow_config)[0]!;
    await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: `${feed.url}/feed.xml` } },
    });
    const key = Object.keys((await t.host.flows.get(flowId)).steps)[0]!;
    const clear = `${feed.url}/feed.xml?page=1&key=old-key-55`;
    await t.host.flows.collection.updateOne({ flow_id: flowId }, { $set: { [`steps.${key}.handler_config.feed_url`]: clear } });

    await t.host.flows.init();
    const raw = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.match(raw, 'old-key-55');
    assert.is(
      (await t.request<Body>('GET', `/flows/${flowId}`)).body.data.flow_config[stepId].handler_config.feed_url,
      `${feed.url}/feed.xml?page=1&key=••••••••`,
    );
    await t.executeAndWait({ flow_id: flowId });
    assert.equal(feed.requests.at(-1)!.url, '/feed.xml?page=1&key=old-key-55');
  });

  test('user:password@ on a handler without credential fields or account points to the query-token form', async ({ t }) => {
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Rss creds', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
    const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Rss creds' } });
    const stepId = Object.keys(flow.body.data.flow_config)[0]!;
    const refused = await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: 'https://reader:pw-31@feeds.example/feed.xml' } },
    });
    assert.is(refused.status, 400, JSON.stringify(refused.body));
    assert.not.match(refused.body.data.params.feed_url, '/auth/rss');
    assert.match(refused.body.data.params.feed_url, /\?token=/);
    assert.not.match(JSON.stringify(refused.body), 'pw-31');
  });

  test.run();
}
