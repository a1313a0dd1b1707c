// Flow and pipeline revisions (issue 55) over the API, on both stores: every change
// records who, when, from which client and what; a diff between any two; restore as a new
// revision that keeps a secret the revision shows masked; no secret in the revision store;
// jobs record the revision they ran; exports carry it; a crash's mark is repaired at boot.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const PASSWORD = 'abcd efgh ijkl mnop';
const basic = (password: string) => `Basic ${Buffer.from(`reader:${password}`).toString('base64')}`;

for (const store of testStores('revisions api')) {
  const test = suite<{ t: TestHost; wp: FakeServer; auth: string[] }>(`revisions api (${store.label})`);
  test.before(async (ctx) => {
    ctx.auth = [];
    ctx.wp = await createFakeServer((req) => {
      ctx.auth.push(String(req.headers.authorization));
      return { headers: { 'x-wp-totalpages': '1' }, body: [] };
    });
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.wp.close();
  });

  /** A pipeline with a fetch step and a flow of it; ids. */
  async function setUp(t: TestHost, name: string): Promise<{ pipelineId: number; step: string; flowId: number; fsid: string }> {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: name } })).body.data.pipeline_id;
    const step = (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch' } })).body.data
      .pipeline_step_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: `${name} flow` } })).body.data
      .flow_id;
    return { pipelineId, step, flowId, fsid: `${step}_${flowId}` };
  }

  test('every change is a revision: who, when, client, action; newest first and paged', async ({ t, wp }) => {
    const { flowId, fsid } = await setUp(t, 'History');
    await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'Renamed' } });
    await t.request('PUT', `/flows/steps/${fsid}/handler`, {
      body: { handler_slug: 'cms-api', settings: { api_url: `${wp.url}/wp-json/wp/v2`, username: 'reader', app_password: PASSWORD } },
    });
    await t.request('PATCH', `/flows/steps/${fsid}/config`, { body: { handler_config: { per_page: 7 } } });
    const list = await t.request<Body>('GET', `/flows/${flowId}/revisions`);
    assert.is(list.status, 200, JSON.stringify(list.body));
    assert.is(list.body.total, 4);
    const revs = list.body.data.revisions;
    assert.equal(
      revs.map((r: Body) => [r.revision, r.action, r.change]),
      [
        [4, 'update', 'flow.step.config'],
        [3, 'update', 'flow.step.handler'],
        [2, 'update', 'flow.update'],
        [1, 'create', 'flow.create'],
      ],
    );
    for (const r of revs) {
      assert.is(r.user_login, 'admin');
      assert.is(r.client, 'rest');
      assert.ok(Date.parse(r.created_at) > 0);
    }
    const page = await t.request<Body>('GET', `/flows/${flowId}/revisions`, { query: { per_page: 2, offset: 2 } });
    assert.equal(
      page.body.data.revisions.map((r: Body) => r.revision),
      [2, 1],
    );
    assert.is(page.body.per_page, 2);
    assert.is(page.body.offset, 2);

    const one = await t.request<Body>('GET', `/flows/${flowId}/revisions/2`);
    assert.is(one.status, 200);
    assert.is(one.body.data.snapshot.flow_name, 'Renamed');
    assert.is(one.body.data.action, 'update');
  });

  test('diff between any two: RFC 6902 operations and the changed values', async ({ t }) => {
    const { flowId } = await setUp(t, 'Diffed');
    await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'Second name' } });
    await t.request('PATCH', `/flows/${flowId}`, { body: { scheduling_config: { interval: 'daily' } } });
    const diff = await t.request<Body>('GET', `/flows/${flowId}/revisions/diff`, { query: { from: 1, to: 3 } });
    assert.is(diff.status, 200, JSON.stringify(diff.body));
    const ops = diff.body.data.patch;
    assert.ok(
      ops.some((op: Body) => op.op === 'replace' && op.path === '/flow_name' && op.value === 'Second name'),
      JSON.stringify(ops),
    );
    assert.ok(
      ops.some((op: Body) => op.path === '/scheduling_config/interval' && op.value === 'daily'),
      JSON.stringify(ops),
    );
    const name = diff.body.data.changes.find((c: Body) => c.path === '/flow_name');
    assert.equal(name, { op: 'replace', path: '/flow_name', before: 'Diffed flow', after: 'Second name' });
    const back = await t.request<Body>('GET', `/flows/${flowId}/revisions/diff`, { query: { from: 3, to: 2 } });
    assert.equal(
      back.body.data.changes.map((c: Body) => [c.path, c.before, c.after]),
      [['/scheduling_config/interval', 'daily', 'manual']],
    );
    const same = await t.request<Body>('GET', `/flows/${flowId}/revisions/diff`, { query: { from: 2, to: 2 } });
    assert.equal(same.body.data.patch, []);
  });

  test('secrets: never in the revision store or a diff; a restore keeps the current secret', async ({ t, wp, auth }) => {
    const { flowId, fsid } = await setUp(t, 'Secret');
    const settings = { api_url: `${wp.url}/wp-json/wp/v2`, username: 'reader', app_password: 'first secret value' };
    await t.request('PUT', `/flows/steps/${fsid}/handler`, { body: { handler_slug: 'cms-api', settings } }); // rev 2
    await t.request('PATCH', `/flows/steps/${fsid}/config`, { body: { handler_config: { app_password: PASSWORD } } }); // rev 3
    await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'Secret renamed' } }); // rev 4
    const raw = JSON.stringify(await t.host.store.collection('flow_revisions').find({ entity_id: flowId }));
    assert.ok(raw.includes('app_password'), 'the field is in the revisions');
    for (const secret of [PASSWORD, 'efgh', 'first secret value'])
      assert.not.ok(raw.includes(secret), `${secret} is not in the revision store`);
    assert.not.ok(raw.includes('enc:'), 'no sealed value either');
    const diff = await t.request<Body>('GET', `/flows/${flowId}/revisions/diff`, { query: { from: 1, to: 4 } });
    assert.not.match(JSON.stringify(diff.body), 'efgh');
    const snapshot = await t.request<Body>('GET', `/flows/${flowId}/revisions/2`);
    assert.is(
      snapshot.body.data.snapshot.steps[Object.keys(snapshot.body.data.snapshot.steps)[0]!].handler_config.app_password,
      '••••••••',
    );

    const restored = await t.request<Body>('POST', `/flows/${flowId}/revisions/2/restore`);
    assert.is(restored.status, 200, JSON.stringify(restored.body));
    assert.is(restored.body.data.revision, 5);
    assert.is(restored.body.data.restored_from, 2);
    assert.is(restored.body.data.flow.flow_name, 'Secret flow');
    assert.not.match(JSON.stringify(restored.body), 'efgh');
    const flowRaw = JSON.stringify(await t.host.store.collection('flows').findOne({ flow_id: flowId }));
    assert.not.ok(flowRaw.includes('••••••••'), 'the mask is not stored as the secret');
    // The secret is the flow's current one, not wiped and not the mask: the remote site receives it.
    auth.length = 0;
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.ok(['completed', 'completed_no_items'].includes(job.status), JSON.stringify(job));
    assert.equal(auth, [basic(PASSWORD)]);
    const latest = (await t.request<Body>('GET', `/flows/${flowId}/revisions`)).body.data.revisions[0];
    assert.equal([latest.revision, latest.action, latest.restored_from], [5, 'restore', 2]);
  });

  test('a secret-only change: the diff names the secret, with no value; unchanged secrets are not reported', async ({ t, wp }) => {
    const { flowId, fsid, step } = await setUp(t, 'Secret diff');
    // The step named as the user knows it: position, type, its real ids (not the snapshot's key).
    const named = { pipeline_step_id: step, flow_step_id: fsid, position: 1, step_type: 'fetch' };
    const settings = { api_url: `${wp.url}/wp-json/wp/v2`, username: 'reader', app_password: 'first secret value' };
    await t.request('PUT', `/flows/steps/${fsid}/handler`, { body: { handler_slug: 'cms-api', settings } }); // rev 2
    await t.request('PATCH', `/flows/steps/${fsid}/config`, { body: { handler_config: { app_password: PASSWORD } } }); // rev 3
    await t.request('PATCH', `/flows/steps/${fsid}/config`, { body: { handler_config: { per_page: 7 } } }); // rev 4
    await t.request('PATCH', `/flows/steps/${fsid}/config`, { body: { handler_config: { app_password: PASSWORD } } }); // rev 5: the same again
    const diff = async (from: number, to: number) => {
      const answer = await t.request<Body>('GET', `/flows/${flowId}/revisions/diff`, { query: { from, to } });
      assert.is(answer.status, 200, JSON.stringify(answer.body));
      assert.not.match(JSON.stringify(answer.body), /efgh|first secret|secret_fingerprints/);
      return answer.body.data.changes as Body[];
    };
    const key = Object.keys((await t.request<Body>('GET', `/flows/${flowId}/revisions/3`)).body.data.snapshot.steps)[0]!;
    const secretPath = `/steps/${key}/handler_config/app_password`;
    assert.not.ok(key === step, 'the snapshot key is not the id the user has');
    assert.equal(await diff(2, 3), [{ op: 'replace', path: secretPath, secret: true, step: named }]);
    assert.equal(await diff(3, 2), [{ op: 'replace', path: secretPath, secret: true, step: named }], 'either order');
    assert.equal(
      (await diff(3, 4)).map((c) => c.path),
      [`/steps/${key}/handler_config/per_page`],
      'a change beside the secret does not report it',
    );
    assert.equal(await diff(4, 5), [], 'the same secret set again is no change');
    // A restore keeps the current secret: only the other settings go back.
    const restored = await t.request<Body>('POST', `/flows/${flowId}/revisions/3/restore`); // rev 6
    assert.is(restored.status, 200);
    assert.not.ok(
      (await diff(5, 6)).some((c) => c.secret),
      'the restore kept the secret',
    );
    assert.ok((await diff(2, 6)).some((c) => c.path === secretPath && c.secret));
    // Never answered: not in a revision, not in the list.
    const one = await t.request<Body>('GET', `/flows/${flowId}/revisions/3`);
    const list = await t.request<Body>('GET', `/flows/${flowId}/revisions`);
    assert.not.match(JSON.stringify([one.body, list.body]), /fingerprint/);
    // A token in a URL's query is a secret too.
    const rss = await setUp(t, 'Token diff');
    await t.request('PUT', `/flows/steps/${rss.fsid}/handler`, {
      body: { handler_slug: 'rss', settings: { feed_url: 'https://news.example/feed?token=first-token-1&page=2' } },
    });
    await t.request('PATCH', `/flows/steps/${rss.fsid}/config`, {
      body: { handler_config: { feed_url: 'https://news.example/feed?token=other-token-2&page=2' } },
    });
    const tokenDiff = (await t.request<Body>('GET', `/flows/${rss.flowId}/revisions/diff`, { query: { from: 2, to: 3 } })).body;
    assert.equal(
      tokenDiff.data.changes.map((c: Body) => [c.path.split('/').at(-1), c.secret]),
      [['feed_url', true]],
      JSON.stringify(tokenDiff),
    );
    assert.not.match(JSON.stringify(tokenDiff), /first-token|other-token/);
  });

  test('a job records the revision it ran; an export carries the revision it came from', async ({ t }) => {
    const { flowId, pipelineId } = await setUp(t, 'Ran');
    await t.request('PATCH', `/flows/${flowId}`, { body: { flow_name: 'Ran twice' } });
    const job = await t.executeAndWait({ flow_id: flowId });
    const detail = await t.request<Body>('GET', `/jobs/${job.job_id}`);
    assert.is(detail.status, 200);
    assert.is(detail.body.data.revision, 2, JSON.stringify(detail.body.data));
    assert.is(detail.body.data.pipeline_revision, 2);
    const exported = await t.request<Body>('GET', `/flows/${flowId}/export`);
    assert.is(exported.body.data.flows[0].revision, 2);
    assert.is(exported.body.data.pipeline.revision, 2);
    // The document imports as it is (revision is informational); the import is a revision too.
    const imported = await t.request<Body>('POST', '/flows/import', { body: exported.body.data });
    assert.is(imported.status, 201, JSON.stringify(imported.body));
    const newFlow = imported.body.data.flow_ids[0];
    const revs = (await t.request<Body>('GET', `/flows/${newFlow}/revisions`)).body.data.revisions;
    assert.equal(
      revs.map((r: Body) => [r.revision, r.action, r.user_login]),
      [[1, 'import', 'admin']],
    );
    const pipeRevs = (await t.request<Body>('GET', `/pipelines/${imported.body.data.pipeline_id}/revisions`)).body.data.revisions;
    assert.equal(pipeRevs[0].action, 'import');
    void pipelineId;
  });

  test('pipelines: every change a revision, diff by step id, restore', async ({ t }) => {
    const { pipelineId, step } = await setUp(t, 'Piped');
    await t.request('PATCH', `/pipelines/${pipelineId}`, { body: { pipeline_name: 'Piped renamed' } });
    const ai = (await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'ai' } })).body.data.pipeline_step_id;
    const list = await t.request<Body>('GET', `/pipelines/${pipelineId}/revisions`);
    assert.is(list.status, 200, JSON.stringify(list.body));
    assert.equal(
      list.body.data.revisions.map((r: Body) => [r.revision, r.change]),
      [
        [4, 'pipeline.step.add'],
        [3, 'pipeline.update'],
        [2, 'pipeline.step.add'],
        [1, 'pipeline.create'],
      ],
    );
    const diff = await t.request<Body>('GET', `/pipelines/${pipelineId}/revisions/diff`, { query: { from: 3, to: 4 } });
    assert.equal(
      diff.body.data.changes.map((c: Body) => [c.op, c.path, c.step]),
      [['add', `/steps/${ai}`, { pipeline_step_id: ai, position: 2, step_type: 'ai' }]],
    );
    const restored = await t.request<Body>('POST', `/pipelines/${pipelineId}/revisions/2/restore`);
    assert.is(restored.status, 200, JSON.stringify(restored.body));
    assert.is(restored.body.data.revision, 5);
    const now = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline;
    assert.is(now.pipeline_name, 'Piped');
    assert.equal(Object.keys(now.pipeline_config), [step]);
  });

  test('deleted: revisions stay readable; a crash before the revision is repaired at boot', async ({ t }) => {
    const { flowId } = await setUp(t, 'Gone');
    assert.is((await t.request('DELETE', `/flows/${flowId}`)).status, 200);
    const revs = (await t.request<Body>('GET', `/flows/${flowId}/revisions`)).body.data.revisions;
    assert.equal(
      revs.map((r: Body) => [r.revision, r.action]),
      [
        [2, 'delete'],
        [1, 'create'],
      ],
    );
    assert.is((await t.request<Body>('POST', `/flows/${flowId}/revisions/1/restore`)).status, 404);

    // A change written with its mark, and the process dying before the revision: the next boot writes it.
    const kept = await setUp(t, 'Crashed');
    await t.host.store.collection('flows').updateOne(
      { flow_id: kept.flowId },
      {
        $set: {
          flow_name: 'Changed before the crash',
          revision_pending: { action: 'update', change: 'flow.update', user_id: 1, user_login: 'admin', client: 'cli', at: new Date() },
        },
        $inc: { revision: 1 },
      },
    );
    await t.host.flows.init();
    const after = (await t.request<Body>('GET', `/flows/${kept.flowId}/revisions`)).body.data.revisions;
    assert.equal([after[0].revision, after[0].action, after[0].client, after[0].user_login], [2, 'update', 'cli', 'admin']);
    const snap = (await t.request<Body>('GET', `/flows/${kept.flowId}/revisions/2`)).body.data.snapshot;
    assert.is(snap.flow_name, 'Changed before the crash');
    const record = await t.host.store.collection('flows').findOne({ flow_id: kept.flowId });
    assert.is(record?.revision_pending, undefined, 'the mark is cleared');
  });

  test('bad input: 4xx naming the problem, never 500', async ({ t }) => {
    const { flowId, pipelineId } = await setUp(t, 'Bad');
    const cases: Array<[string, string, Record<string, unknown> | undefined, number, string]> = [
      ['GET', '/flows/999999/revisions', undefined, 404, 'flow_not_found'],
      ['GET', `/flows/${flowId}/revisions/999`, undefined, 404, 'revision_not_found'],
      ['GET', `/flows/${flowId}/revisions/abc`, undefined, 400, 'rest_invalid_param'],
      ['GET', `/flows/${flowId}/revisions/0`, undefined, 400, 'rest_invalid_param'],
      ['GET', `/flows/${flowId}/revisions`, { per_page: 0 }, 400, 'rest_invalid_param'],
      ['GET', `/flows/${flowId}/revisions/diff`, { from: 1 }, 400, 'rest_missing_callback_param'],
      ['GET', `/flows/${flowId}/revisions/diff`, { from: 'x', to: 1 }, 400, 'rest_invalid_param'],
      ['GET', `/flows/${flowId}/revisions/diff`, { from: 1, to: 99 }, 404, 'revision_not_found'],
      ['POST', `/flows/${flowId}/revisions/99/restore`, undefined, 404, 'revision_not_found'],
      ['POST', '/flows/999999/revisions/1/restore', undefined, 404, 'flow_not_found'],
      ['GET', '/pipelines/999999/revisions', undefined, 404, 'pipeline_not_found'],
      ['POST', `/pipelines/${pipelineId}/revisions/99/restore`, undefined, 404, 'revision_not_found'],
    ];
    for (const [method, path, query, status, code] of cases) {
      const res = await t.request<Body>(method, path, { query: query as Record<string, string> });
      assert.is(res.status, status, `${method} ${path} ${JSON.stringify(query)}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, code, `${method} ${path}`);
    }
    const editor = await t.createUser('rev-editor', 'editor');
    const refused = await t.request<Body>('GET', `/flows/${flowId}/revisions`, { as: editor });
    assert.is(refused.status, 403);
    assert.is((await t.request<Body>('GET', `/flows/${flowId}/revisions`, { as: 'anonymous' })).status, 401);
  });

  test.run();
}
