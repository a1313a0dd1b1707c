// Issue 53, "A run says 'completed' for work that went nowhere": a cms publish step's post
// type and taxonomy are checked when saved (the registered choices listed, and offered to
// the console as options); a flow that still says `nosuchtype` fails its step naming the
// type and marks nothing processed, so once the type is fixed the next run publishes the
// item, where wp/v2 and the console's Posts page show it; a completed run lists what it
// published, with links.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import { stepKey } from '../../core/flows/model.js';
import { startFeedServer, type FeedServer } from '../support/feed-server.js';
import { testStores } from '../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('e2e: honest publish')) {
  type Ctx = { t: TestHost; feed: FeedServer };
  const test = suite<Ctx>(`e2e: a publish that went nowhere is not completed (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([{ guid: 'urn:honest:1', title: 'Lakes are cold' }]);
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.feed.close();
  });

  /** A pipeline fetch (rss) → publish and a flow of it; answers the flow and its publish step's ids. */
  const feedFlow = async (t: TestHost, feedUrl: string) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Feed to site' } })).body.data.pipeline_id;
    const step = async (step_type: string, execution_order: number) =>
      (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type, execution_order } })).body.data
        .pipeline_step_id as string;
    const fetchStep = await step('fetch', 0);
    const publishStep = await step('publish', 1);
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Feed flow' } })).body.data
      .flow_id as number;
    const rss = await t.request<Body>('PUT', `/flows/steps/${fetchStep}_${flowId}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: feedUrl } },
    });
    assert.is(rss.status, 200, JSON.stringify(rss.body));
    return { pipelineId, flowId, publishStep, publishId: `${publishStep}_${flowId}` };
  };

  const refusal = (res: { status: number; body: Body }, field: string) => {
    assert.is(res.status, 400, JSON.stringify(res.body));
    assert.is(res.body.code, 'rest_invalid_param', JSON.stringify(res.body));
    const said = String(res.body.data?.params?.[field]);
    assert.match(said, new RegExp(`^${field} `), JSON.stringify(res.body));
    return said;
  };

  test('post type nosuchtype is refused when saved, on every path, with the registered types listed', async ({ t, feed }) => {
    const { pipelineId, publishStep, publishId } = await feedFlow(t, feed.url);
    const put = await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, {
      body: { handler_slug: 'cms', settings: { post_type: 'nosuchtype' } },
    });
    const said = refusal(put, 'post_type');
    assert.match(said, /\bpost\b/);
    assert.match(put.body.message, /post_type/);
    assert.ok(!said.includes('attachment'), `media is not published by cms: ${said}`);

    assert.is((await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, { body: { handler_slug: 'cms' } })).status, 200);
    refusal(
      await t.request<Body>('PATCH', `/flows/steps/${publishId}/config`, { body: { handler_config: { post_type: 'nosuchtype' } } }),
      'post_type',
    );
    const created = await t.request<Body>('POST', '/flows', {
      body: {
        pipeline_id: pipelineId,
        flow_name: 'Typo',
        flow_config: { [publishStep]: { handler_slug: 'cms', handler_config: { post_type: 'nosuchtype' } } },
      },
    });
    refusal(created, 'post_type');
    // An export document edited by hand (or from a site with more types) is held to them too.
    const exported = (await t.request<Body>('GET', `/flows/${publishId.split('_').pop()}/export`)).body.data;
    const edited = JSON.parse(JSON.stringify(exported).replace('"post_type":"post"', '"post_type":"nosuchtype"'));
    assert.not.equal(edited, exported, 'the export names the post type');
    const imported = await t.request<Body>('POST', '/flows/import', { body: edited });
    assert.is(imported.status, 400, JSON.stringify(imported.body));
    // Import names the field by its place in the document (invalid_import, as for any import refusal).
    assert.is(imported.body.code, 'invalid_import');
    const [where, why] = Object.entries(imported.body.data.params as Record<string, string>)[0]!;
    assert.match(where, /\.handler_config\.post_type$/);
    assert.match(why, /^must be one of: post\b/);
    assert.is((await t.request<Body>('POST', '/flows/import', { body: exported })).status, 201);
    // The handler defaults a new step starts from are held to the same choices.
    assert.is(
      (await t.request<Body>('PUT', '/settings/handler-defaults/cms', { body: { settings: { post_type: 'nosuchtype' } } })).status,
      400,
    );
    // What the console's step form reads: a list to choose from, not free text.
    const fields = (await t.request<Body>('GET', '/handlers/cms')).body.data.settings;
    assert.ok(fields.post_type.options.includes('post'), JSON.stringify(fields.post_type));
    assert.ok(!fields.post_type.options.includes('attachment'), JSON.stringify(fields.post_type));
    // Every registered taxonomy (docs' and events' too: a build's plugins register theirs).
    assert.ok(
      ['category', 'post_tag', 'project'].every((t) => fields.taxonomy.options.includes(t)),
      JSON.stringify(fields.taxonomy),
    );
    assert.is(fields.post_type.current_value, 'post');
    assert.is(fields.taxonomy.current_value, 'post_tag');
  });

  test('an unknown taxonomy is refused when saved, not dropped', async ({ t, feed }) => {
    const { publishId } = await feedFlow(t, feed.url);
    const res = await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, {
      body: { handler_slug: 'cms', settings: { taxonomy: 'post_tags', terms: 'Lakes' } },
    });
    const said = refusal(res, 'taxonomy');
    assert.match(said, /category, post_tag/);
    // The default taxonomy (post_tag) is not one a documentation post carries: terms need one that is.
    const docs = await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, {
      body: { handler_slug: 'cms', settings: { post_type: 'documentation', terms: 'Guides' } },
    });
    assert.match(refusal(docs, 'taxonomy'), /: project$/);
    const fine = await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, {
      body: { handler_slug: 'cms', settings: { post_type: 'documentation', taxonomy: 'project', terms: 'Guides' } },
    });
    assert.is(fine.status, 200, JSON.stringify(fine.body));
  });

  test("a flow whose stored taxonomy is not its post type's fails its step naming it; no term is made", async ({ t, feed }) => {
    const { flowId, publishStep, publishId } = await feedFlow(t, feed.url);
    assert.is((await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, { body: { handler_slug: 'cms' } })).status, 200);
    const flows = t.host.store.collection<Body>('flows');
    const key = `steps.${stepKey(publishStep)}.handler_config`;
    await flows.updateOne({ flow_id: flowId }, { $set: { [`${key}.taxonomy`]: 'post_tags', [`${key}.terms`]: 'Lakes' } });
    const failed = await t.executeAndWait({ flow_id: flowId });
    assert.is(failed.status, 'failed', JSON.stringify(failed));
    const step = (failed.steps as Body[]).find((s) => s.step_type === 'publish')!;
    assert.match(String(step.error), /taxonomy 'post_tags'/);
    assert.is(step.error_code, 'rest_taxonomy_invalid');
    assert.equal(await t.host.content.listTerms('post_tags'), []);
    assert.is(await t.host.store.collection('processed_items').count({ flow_id: flowId }), 0, 'nothing marked processed');
  });

  test('a flow still saying nosuchtype fails its step naming the type; fixed, the next run publishes the item', async ({ t, feed }) => {
    const { flowId, publishStep, publishId } = await feedFlow(t, feed.url);
    assert.is((await t.request<Body>('PUT', `/flows/steps/${publishId}/handler`, { body: { handler_slug: 'cms' } })).status, 200);
    // An old flow: saved before the type was checked, or its type's plugin removed since.
    const flows = t.host.store.collection<Body>('flows');
    await flows.updateOne({ flow_id: flowId }, { $set: { [`steps.${stepKey(publishStep)}.handler_config.post_type`]: 'nosuchtype' } });
    const before = (await t.host.content.findPosts({ per_page: 100 })).total;

    const failed = await t.executeAndWait({ flow_id: flowId });
    assert.is(failed.status, 'failed', JSON.stringify(failed));
    const step = (failed.steps as Body[]).find((s) => s.step_type === 'publish')!;
    assert.is(step.status, 'failed');
    assert.match(String(step.error), /nosuchtype/);
    assert.match(String(failed.error), /nosuchtype/);
    assert.is(step.error_code, 'rest_type_invalid');
    assert.is((await t.host.content.findPosts({ per_page: 100 })).total, before, 'no post was written anywhere');
    assert.is(await t.host.store.collection('processed_items').count({ flow_id: flowId }), 0, 'nothing marked processed');

    const fixed = await t.request<Body>('PATCH', `/flows/steps/${publishId}/config`, {
      body: { handler_config: { post_type: 'post', post_status: 'publish' } },
    });
    assert.is(fixed.status, 200, JSON.stringify(fixed.body));
    const done = await t.executeAndWait({ flow_id: flowId });
    assert.is(done.status, 'completed', JSON.stringify(done));
    const published = (done.steps as Body[]).find((s) => s.step_type === 'publish')!.published as Body[];
    assert.is(published?.length, 1, JSON.stringify(done.steps));

    const visible = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', as: 'anonymous', query: { search: 'Lakes are cold' } });
    assert.is(visible.body.length, 1, JSON.stringify(visible.body));
    // The console's Posts page asks wp/v2 this way.
    const consoleList = await t.request<Body[]>('GET', '/posts', {
      namespace: 'wp/v2',
      query: { context: 'edit', status: 'any', per_page: 20 },
    });
    assert.ok(
      consoleList.body.some((p) => p.id === visible.body[0]!.id),
      JSON.stringify(consoleList.body.map((p) => p.id)),
    );
    // The run lists the post it published, linked as wp/v2 links it.
    assert.equal(published, [{ id: String(visible.body[0]!.id), url: visible.body[0]!.link, shortened: false }]);
    assert.is(await t.host.store.collection('processed_items').count({ flow_id: flowId }), 1);
  });

  test.run();
}
