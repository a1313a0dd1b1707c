// Issue 53, "The webhook payload as items": a flow webhook fetch → cms publish, fed by real
// deliveries to POST /trigger/{flow_id}, its posts read back as a visitor reads them (wp/v2).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import webhookPresets from '../../../plugins/webhook-presets/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('webhook-items: webhook to cms')) {
  type Ctx = { t: TestHost };
  const test = suite<Ctx>(`webhook-items: deliveries become posts (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [webhookPresets], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  /** A flow webhook fetch → cms publish (published posts); answers its id. */
  const webhookFlow = async (t: TestHost, name: string, settings: Record<string, unknown>): Promise<number> => {
    const pipelineId = (
      await t.request<Body>('POST', '/pipelines', {
        body: { pipeline_name: name, steps: [{ step_type: 'fetch' }, { step_type: 'publish' }] },
      })
    ).body.data.pipeline_id;
    const steps = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps as Body[];
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: name } })).body.data.flow_id;
    const fetchSet = await t.request<Body>('PUT', `/flows/steps/${steps[0]!.pipeline_step_id}_${flowId}/handler`, {
      body: { handler_slug: 'webhook', settings },
    });
    assert.is(fetchSet.status, 200, JSON.stringify(fetchSet.body));
    const publishSet = await t.request<Body>('PUT', `/flows/steps/${steps[1]!.pipeline_step_id}_${flowId}/handler`, {
      body: { handler_slug: 'cms', settings: { post_status: 'publish', include_source: false } },
    });
    assert.is(publishSet.status, 200, JSON.stringify(publishSet.body));
    return flowId;
  };

  const bearer = async (t: TestHost, flowId: number): Promise<string> => {
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    return enabled.body.data.token as string;
  };

  /** One delivery; answers the run as GET /jobs/{id} shows it once it has ended. */
  const deliver = async (t: TestHost, flowId: number, body: string, headers: Record<string, string>): Promise<Body> => {
    const res = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, { method: 'POST', headers, body });
    const answer = (await res.json()) as Body;
    assert.is(res.status, 200, JSON.stringify(answer));
    return t.waitForJob(answer.job_id);
  };

  /** Published post titles as a visitor sees them through wp/v2. */
  const visibleTitles = async (t: TestHost): Promise<string[]> => {
    const res = await fetch(`${t.url}/api/wp/v2/posts?per_page=100&orderby=id&order=asc`);
    assert.is(res.status, 200);
    return ((await res.json()) as Body[]).map((p) => p.title.rendered as string);
  };

  test('GET /handlers lists the webhook fetch handler; its settings come from its definition', async ({ t }) => {
    const listed = (await t.request<Body>('GET', '/handlers', { query: { step_type: 'fetch' } })).body.data;
    assert.is(listed.webhook?.type, 'fetch');
    assert.is(listed.webhook.class, 'webhook-items/webhook');
    const one = await t.request<Body>('GET', '/handlers/webhook');
    assert.is(one.status, 200);
    assert.equal(Object.keys(one.body.data.settings).sort(), [
      'author_field',
      'content_field',
      'date_field',
      'id_field',
      'items_path',
      'link_field',
      'max_items',
      'skip_missing',
      'title_field',
    ]);
    assert.is(one.body.data.settings.max_items.default, 20);
  });

  test('a bearer delivery of 3 items makes 3 posts; the same delivery again makes none', async ({ t }) => {
    const flowId = await webhookFlow(t, 'Bearer items', { items_path: 'data.items' });
    const token = await bearer(t, flowId);
    const body = JSON.stringify({
      data: {
        items: [1, 2, 3].map((n) => ({
          id: `item-${n}`,
          title: `Bearer item ${n}`,
          content: `<p>Body ${n}</p>`,
          url: `https://example.com/${n}`,
        })),
      },
    });
    const headers = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    const first = await deliver(t, flowId, body, headers);
    assert.is(first.status, 'completed', JSON.stringify(first));
    assert.equal(
      (await visibleTitles(t)).filter((title) => title.startsWith('Bearer item')),
      ['Bearer item 1', 'Bearer item 2', 'Bearer item 3'],
    );
    const again = await deliver(t, flowId, body, headers);
    assert.is(again.status, 'completed_no_items', 'every id was processed already');
    assert.is((await visibleTitles(t)).filter((title) => title.startsWith('Bearer item')).length, 3, 'no duplicate posts');
  });

  test('max_items caps what one delivery makes, and the log says how many were left', async ({ t }) => {
    const flowId = await webhookFlow(t, 'Capped', { items_path: 'items', max_items: 2 });
    const token = await bearer(t, flowId);
    const run = await deliver(t, flowId, JSON.stringify([1, 2, 3].map((n) => ({ id: `cap-${n}`, title: `Capped ${n}` }))), {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    });
    assert.is(run.status, 'completed', JSON.stringify(run));
    assert.equal(
      (await visibleTitles(t)).filter((title) => title.startsWith('Capped')),
      ['Capped 1', 'Capped 2'],
    );
    const logs = await t.request<Body>('GET', '/logs', { query: { job_id: run.job_id, level: 'warning' } });
    assert.ok(
      (logs.body.items as Body[]).some((e) => /holds 3 items; this step takes at most 2 new ones \(max_items\)/.test(e.message)),
      JSON.stringify(logs.body.items),
    );
  });

  test('a GitHub-signed push: each commit is a post (github preset, X-Hub-Signature-256); a ping yields no items with skip_missing', async ({
    t,
  }) => {
    const flowId = await webhookFlow(t, 'GitHub commits', {
      items_path: 'commits',
      id_field: 'id',
      title_field: 'message',
      content_field: 'message',
      link_field: 'url',
      author_field: 'author.name',
      date_field: 'timestamp',
      skip_missing: true,
    });
    const secret = 'github-webhook-secret-0123456789';
    const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'hmac', preset: 'github', secret } });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    const signed = (body: string, event: string, delivery: string) => ({
      'Content-Type': 'application/json',
      'X-GitHub-Event': event,
      'X-GitHub-Delivery': delivery,
      'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    });
    const commit = (sha: string, message: string) => ({
      id: sha,
      message,
      timestamp: '2026-12-07T10:00:00Z',
      url: `https://github.com/acme/site/commit/${sha}`,
      author: { name: 'Ada', email: 'ada@example.com' },
    });
    const push = JSON.stringify({
      ref: 'refs/heads/main',
      repository: { full_name: 'acme/site' },
      commits: [commit('a1b2c3', 'Fix the header'), commit('d4e5f6', 'Add the footer')],
    });
    const run = await deliver(t, flowId, push, signed(push, 'push', 'delivery-1'));
    assert.is(run.status, 'completed', JSON.stringify(run));
    const titles = await visibleTitles(t);
    assert.ok(titles.includes('Fix the header') && titles.includes('Add the footer'), JSON.stringify(titles));
    const posts = await t.host.content.findPosts({ post_type: 'post', search: 'Fix the header' });
    assert.is(posts.items[0]?.meta.source_item_id, 'a1b2c3', 'the commit id is the item identity');

    const tampered = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: signed(push, 'push', 'delivery-2'),
      body: push.replace('Fix', 'Break'),
    });
    assert.is(tampered.status, 401, 'a body the signature does not cover starts nothing');

    const ping = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const pinged = await deliver(t, flowId, ping, signed(ping, 'ping', 'delivery-3'));
    assert.is(pinged.status, 'completed_no_items', JSON.stringify(pinged));
  });

  test('a bad items_path: the run fails naming the path (the sender still got 200); a malformed one is refused when saved', async ({
    t,
  }) => {
    const flowId = await webhookFlow(t, 'Bad path', { items_path: 'data.entries' });
    const token = await bearer(t, flowId);
    const run = await deliver(t, flowId, JSON.stringify({ data: { items: [{ id: 1, title: 'Never' }] } }), {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/json',
    });
    assert.is(run.status, 'failed');
    assert.match(
      run.error,
      /Step 1\/2 fetch \(webhook\) failed: items_path 'data\.entries' does not lead to the items: data is an object without 'entries'/,
    );
    assert.is(run.steps[0].status, 'failed');
    assert.match(run.steps[0].error, /items_path 'data\.entries'/);
    assert.not.ok((await visibleTitles(t)).includes('Never'));

    const steps = (await t.request<Body>('GET', `/flows/${flowId}`)).body.data.flow_config as Record<string, Body>;
    const fetchStep = Object.values(steps).find((s) => s.handler_slug === 'webhook')!;
    const malformed = await t.request<Body>('PUT', `/flows/steps/${fetchStep.flow_step_id}/handler`, {
      body: { handler_slug: 'webhook', settings: { items_path: 'data..items' } },
    });
    assert.is(malformed.status, 400, JSON.stringify(malformed.body));
    assert.match(JSON.stringify(malformed.body), /items_path/);
  });

  test('a form-encoded delivery is one item, its fields mapped', async ({ t }) => {
    const flowId = await webhookFlow(t, 'Form', { title_field: 'subject', content_field: 'message', id_field: 'ref' });
    const token = await bearer(t, flowId);
    const run = await deliver(t, flowId, 'subject=From+a+form&message=Hello+%26+welcome&ref=form-1', {
      Authorization: `Bearer ${token}`,
      'Content-Type': 'application/x-www-form-urlencoded',
    });
    assert.is(run.status, 'completed', JSON.stringify(run));
    const posts = await t.host.content.findPosts({ post_type: 'post', search: 'From a form' });
    assert.is(posts.items.length, 1);
    assert.is(posts.items[0]!.content, 'Hello & welcome', 'the form field decoded');
    assert.is(posts.items[0]!.meta.source_item_id, 'form-1');
  });

  test('a run no webhook started has no items and says why; POST /execute may give the payload in initial_data', async ({ t }) => {
    const flowId = await webhookFlow(t, 'Executed', { items_path: 'items' });
    const bare = await t.executeAndWait({ flow_id: flowId });
    assert.is(bare.status, 'completed_no_items');
    const logs = await t.request<Body>('GET', '/logs', { query: { job_id: bare.job_id, per_page: 50 } });
    assert.ok(
      (logs.body.items as Body[]).some((e) => /was not started by a webhook delivery, so it has no items/.test(e.message)),
      JSON.stringify(logs.body.items.map((e: Body) => e.message)),
    );
    const given = await t.executeAndWait({
      flow_id: flowId,
      initial_data: { webhook_trigger: { payload: { items: [{ id: 'x-1', title: 'Given by execute' }] } } },
    });
    assert.is(given.status, 'completed', JSON.stringify(given));
    assert.ok((await visibleTitles(t)).includes('Given by execute'));
  });

  test.run();
}
