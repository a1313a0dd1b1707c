// HTML a pipeline publishes (from a feed, an AI step) is stored as the flow's owner's own
// wp/v2 post would be: kept for an owner with unfiltered_html (administrators, single-site
// editors), through kses for anyone else and for a flow with no owner.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type Role, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, defineHandler, services, type PluginDefinition } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const HOSTILE = '<img src=x onerror=alert(1)><script>x</script><p>ok</p>';
let served = 0;

/** A feed whose every item carries the hostile HTML, titled by the run's marker (initial_data). */
const hostileFeed = definePlugin({
  id: 'hostile-feed',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'hostile',
        type: 'fetch',
        label: 'Hostile feed',
        description: 'One item of hostile HTML per run.',
        fetch: async (ctx) => [
          {
            type: 'item',
            data: { title: String(ctx.engineData.marker), content: HOSTILE },
            metadata: { item_id: `hostile-${++served}` },
          },
        ],
      }),
    );
  },
}) as PluginDefinition;

for (const store of testStores('engine: pipeline content through kses')) {
  type Ctx = { t: TestHost; users: Partial<Record<Role, { login: string; password: string; userId: number }>> };
  const test = suite<Ctx>(`engine: pipeline content through kses (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [hostileFeed], config: store.config() });
    ctx.users = {
      administrator: await ctx.t.createUser('second-admin', 'administrator'),
      editor: await ctx.t.createUser('an-editor', 'editor'),
      author: await ctx.t.createUser('an-author', 'author'),
    };
  });
  test.after(async (ctx) => ctx.t.stop());

  /** A fetch → cms publish flow created by the admin; its owner then set as given (undefined: left as created). */
  const flowOwnedBy = async (t: TestHost, ownerId: number | null | undefined): Promise<number> => {
    const pipeline = await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: `Hostile ${served}-${String(ownerId)}` } });
    const pipelineId = pipeline.body.data.pipeline_id as number;
    const fetchStep = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } });
    const publishStep = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, {
      body: { step_type: 'publish', execution_order: 1 },
    });
    const flow = await t.request<Body>('POST', '/flows', {
      body: {
        pipeline_id: pipelineId,
        flow_config: {
          [fetchStep.body.data.pipeline_step_id]: { handler_slug: 'hostile' },
          [publishStep.body.data.pipeline_step_id]: {
            handler_slug: 'cms',
            handler_config: { post_status: 'publish', include_source: false },
          },
        },
      },
    });
    const flowId = flow.body.data.flow_id as number;
    if (ownerId !== undefined) {
      const owned = await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { owner_id: ownerId } });
      assert.is(owned.status, 200, JSON.stringify(owned.body));
      assert.is(owned.body.data.owner_id, ownerId);
    }
    return flowId;
  };

  /** Runs the flow and answers the content its post stored (`content.raw`, as an editor of the post reads it). */
  const publishedRaw = async (t: TestHost, flowId: number, marker: string): Promise<string> => {
    const job = await t.executeAndWait({ flow_id: flowId, initial_data: { marker } });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const found = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', query: { search: marker, context: 'edit' } });
    assert.is(found.body.length, 1, JSON.stringify(found.body));
    return found.body[0]!.content.raw as string;
  };

  /** What wp/v2 stores for the user's own post with the same content. */
  const ownPostRaw = async (t: TestHost, as: { login: string; password: string } | 'admin'): Promise<string> => {
    const created = await t.request<Body>('POST', '/posts', { namespace: 'wp/v2', as, body: { title: 'Own post', content: HOSTILE } });
    assert.is(created.status, 201, JSON.stringify(created.body));
    const read = await t.request<Body>('GET', `/posts/${created.body.id as number}`, { namespace: 'wp/v2', query: { context: 'edit' } });
    return read.body.content.raw as string;
  };

  test('a flow created by an administrator is theirs, and keeps what an administrator keeps', async ({ t }) => {
    const flowId = await flowOwnedBy(t, undefined);
    const whole = await t.request<Body>('GET', `/flows/${flowId}`);
    const admin = await t.host.users.findByLogin(t.admin.login);
    assert.is(whole.body.data.owner_id, admin!.user_id);
    const raw = await publishedRaw(t, flowId, 'marker-admin-created');
    assert.is(raw, HOSTILE);
    assert.is(raw, await ownPostRaw(t, 'admin'));
  });

  test("a flow owned by an author stores what the author's own post would: kses", async ({ t, users }) => {
    const raw = await publishedRaw(t, await flowOwnedBy(t, users.author!.userId), 'marker-author');
    assert.not.match(raw, /onerror|<script/);
    assert.match(raw, /<p>ok<\/p>/);
    assert.is(raw, await ownPostRaw(t, users.author!));
  });

  test('an editor (unfiltered_html on a single site, as WordPress) and another administrator keep the HTML', async ({ t, users }) => {
    const editorRaw = await publishedRaw(t, await flowOwnedBy(t, users.editor!.userId), 'marker-editor');
    assert.is(editorRaw, HOSTILE);
    assert.is(editorRaw, await ownPostRaw(t, users.editor!));
    assert.is(await publishedRaw(t, await flowOwnedBy(t, users.administrator!.userId), 'marker-second-admin'), HOSTILE);
  });

  test("an update step writes through the same filter: an author's flow rewriting a post stores kses'd content", async ({ t, users }) => {
    const post = await t.request<Body>('POST', '/posts', {
      namespace: 'wp/v2',
      body: { title: 'marker-update', content: HOSTILE, status: 'publish' },
    });
    assert.is(post.status, 201, JSON.stringify(post.body));
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Rewrite' } })).body.data
      .pipeline_id as number;
    const fetchStep = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } });
    const updateStep = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, {
      body: { step_type: 'update', execution_order: 1 },
    });
    const flowId = (
      await t.request<Body>('POST', '/flows', {
        body: {
          pipeline_id: pipelineId,
          flow_config: {
            [fetchStep.body.data.pipeline_step_id]: { handler_slug: 'cms-local', handler_config: { search: 'marker-update' } },
            [updateStep.body.data.pipeline_step_id]: { handler_slug: 'cms-update' },
          },
        },
      })
    ).body.data.flow_id as number;
    await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { owner_id: users.author!.userId } });
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    const read = await t.request<Body>('GET', `/posts/${post.body.id as number}`, { namespace: 'wp/v2', query: { context: 'edit' } });
    assert.is(read.body.content.raw, await ownPostRaw(t, users.author!));
    assert.not.match(read.body.content.raw as string, /onerror|<script/);
  });

  test('a flow with no owner is filtered; an owner that is no user is refused', async ({ t }) => {
    const raw = await publishedRaw(t, await flowOwnedBy(t, null), 'marker-nobody');
    assert.not.match(raw, /onerror|<script/);
    assert.match(raw, /<p>ok<\/p>/);
    const flowId = await flowOwnedBy(t, undefined);
    const refused = await t.request<Body>('PATCH', `/flows/${flowId}`, { body: { owner_id: 999999 } });
    assert.is(refused.status, 400);
    assert.is(refused.body.code, 'rest_invalid_param');
    assert.ok(refused.body.data.params.owner_id);
  });

  test.run();
}
