// A flow rss (a feed on a test server) → ai (a fake model API) → cms, set up through the
// API as the admin client does, on every store: the model's answer is what gets published
// and the job's ai step records provider, model, token usage and latency. Also: the ai
// step's defaults from the settings, an ephemeral workflow with an ai step, a failing one.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import { testStores } from '../support/test-stores.js';
import { createFakeModelApi, errorReply, pluginSettingsFor, textReply, type FakeModelApi } from '../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Test feed</title><link>http://feed.test/</link><description>t</description>
<item><title>Rivers rise</title><link>http://feed.test/rivers</link><guid>urn:rivers</guid><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate><description><![CDATA[<p>The rivers rose overnight.</p>]]></description></item>
</channel></rss>`;

for (const store of testStores('e2e: rss to ai to cms')) {
  type Ctx = { t: TestHost; server: Server; feedUrl: string; anthropic: FakeModelApi; openai: FakeModelApi };
  const test = suite<Ctx>(`e2e: rss → ai → cms (${store.label})`);

  test.before(async (ctx) => {
    ctx.server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(feed);
    });
    await new Promise<void>((r) => ctx.server.listen(0, '127.0.0.1', () => r()));
    ctx.feedUrl = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}/feed.xml`;
    ctx.anthropic = await createFakeModelApi('anthropic');
    ctx.openai = await createFakeModelApi('openai');
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: pluginSettingsFor([ctx.anthropic, ctx.openai], { max_retries: 0 }) },
    });
    await ctx.t.request('PUT', '/settings', {
      body: { ai_provider_keys: { anthropic: ctx.anthropic.validKey, openai: ctx.openai.validKey } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    ctx.server.close();
    await ctx.anthropic.server.close();
    await ctx.openai.server.close();
  });

  test('the model rewrites the item; the rewrite is published; the job shows usage', async ({ t, feedUrl, anthropic }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Rewrite news' } })).body.data.pipeline_id;
    const step = async (step_type: string, execution_order: number) =>
      (
        await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, {
          body: { step_type, execution_order, label: `${step_type} step` },
        })
      ).body.data.pipeline_step_id as string;
    const fetchStep = await step('fetch', 0);
    const aiStep = await step('ai', 1);
    const publishStep = await step('publish', 2);
    const config = await t.request<Body>('PUT', `/pipelines/steps/${aiStep}/config`, {
      body: {
        step_type: 'ai',
        pipeline_id: pipelineId,
        provider: 'anthropic',
        model: 'claude-house-1',
        system_prompt: 'You are a sub-editor.',
      },
    });
    assert.is(config.status, 200, JSON.stringify(config.body));
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Rewrite flow' } })).body.data
      .flow_id;
    assert.is(
      (
        await t.request('PUT', `/flows/steps/${fetchStep}_${flowId}/handler`, {
          body: { handler_slug: 'rss', settings: { feed_url: feedUrl } },
        })
      ).status,
      200,
    );
    assert.is(
      (
        await t.request('PATCH', `/flows/steps/${aiStep}_${flowId}/config`, {
          body: { user_message: 'Rewrite this as a short headline and summary.' },
        })
      ).status,
      200,
    );
    assert.is(
      (
        await t.request('PUT', `/flows/steps/${publishStep}_${flowId}/handler`, {
          body: { handler_slug: 'cms', settings: { post_status: 'publish' } },
        })
      ).status,
      200,
    );

    anthropic.script.push(
      textReply('anthropic', '# Rivers rise after a wet night\n\nRivers across the region rose overnight after heavy rain.', {
        input: 120,
        output: 25,
      }),
    );
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));

    const request = anthropic.chats().at(-1)!;
    const body = request.json<Body>();
    assert.is(body.model, 'claude-house-1');
    assert.match(JSON.stringify(body.system), /You are a sub-editor\./);
    const user = JSON.stringify(body.messages[0].content);
    assert.match(user, /Rewrite this as a short headline and summary\./);
    assert.match(user, /Title: Rivers rise/);
    assert.match(user, /The rivers rose overnight/);

    const posts = (await t.host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;
    assert.is(posts.length, 1);
    assert.is(posts[0]!.title, 'Rivers rise after a wet night');
    assert.match(posts[0]!.content, /Rivers across the region rose overnight after heavy rain\./);

    const steps = job.steps as Body[];
    assert.equal(
      steps.map((s) => [s.step_type, s.status]),
      [
        ['fetch', 'completed'],
        ['ai', 'completed'],
        ['publish', 'completed'],
      ],
    );
    const ai = steps[1]!.ai;
    assert.is(ai.provider, 'anthropic');
    assert.is(ai.model, 'claude-house-1');
    assert.equal(ai.usage, { input_tokens: 120, output_tokens: 25, total_tokens: 145 });
    assert.is(ai.calls, 1);
    assert.ok(typeof ai.latency_ms === 'number' && ai.latency_ms >= 0);
    assert.not.ok('ai' in steps[0]! || 'ai' in steps[2]!);
  });

  test('an ephemeral workflow with an ai step; provider and model from the step, no incoming items', async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'Title: A generated note\n\nGenerated body text.', { input: 8, output: 6 }));
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          {
            type: 'ai',
            provider: 'openai',
            model: 'gpt-4o-mini',
            system_prompt: 'Write notes.',
            user_message: 'Write a note about tides.',
          },
          { type: 'publish', handler_slug: 'cms', handler_config: { post_status: 'draft' } },
        ],
      },
    });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const body = openai.chats().at(-1)!.json<Body>();
    assert.equal(
      body.messages.map((m: Body) => m.role),
      ['system', 'user'],
    );
    assert.is(body.messages[1].content, 'Write a note about tides.');
    const steps = job.steps as Body[];
    assert.equal(steps[0]!.ai.usage, { input_tokens: 8, output_tokens: 6, total_tokens: 14 });
    const posts = (await t.host.content.findPosts({ post_type: 'post', status: 'draft' } as never)).items;
    assert.ok(posts.some((p) => p.title === 'A generated note' && /Generated body text\./.test(p.content)));
  });

  test('an ai step without a model takes the default model from the settings', async ({ t, openai }) => {
    await t.request('PUT', '/settings', { body: { default_provider: 'openai', default_model: 'gpt-house' } });
    openai.script.push(textReply('openai', 'plain answer'));
    const job = await t.executeAndWait({ workflow: { steps: [{ type: 'ai', provider: 'openai', user_message: 'hello' }] } });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(openai.chats().at(-1)!.json<Body>().model, 'gpt-house');
    assert.is((job.steps as Body[])[0]!.ai.model, 'gpt-house');
  });

  test("a refused key fails the ai step with the provider's message", async ({ t, openai }) => {
    openai.script.push(errorReply('openai', 401, 'Incorrect API key provided: sk-***'));
    const job = await t.executeAndWait({
      workflow: { steps: [{ type: 'ai', provider: 'openai', model: 'gpt-4o-mini', user_message: 'hello' }] },
    });
    assert.is(job.status, 'failed');
    assert.match(String(job.error), /OpenAI refused the API key \(HTTP 401\): Incorrect API key provided/);
    const unknown = await t.request<Body>('POST', '/execute', { body: { workflow: { steps: [{ type: 'ai', provider: 'nope' }] } } });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'provider_not_found');
  });

  test.run();
}
