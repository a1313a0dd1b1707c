// Portable export/import: steps by position, secrets left out, imports always new, invalid
// documents refused whole (nothing written), and an export run on another host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, services, type PluginDefinition } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { probePlugin } from '../../support/probe-plugin.js';
import { createAjv } from '../../../core/kernel/validator.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';

/** Closes every object schema that leaves additionalProperties out, as the strict test host does. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (!schema || typeof schema !== 'object') return schema;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(schema)) out[k] = k === 'enum' || k === 'const' ? v : closed(v);
  if ((out.type === 'object' || out.properties) && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}
const responseAjv = createAjv({ useDefaults: false });

/** A request to one of the portable routes, its answer checked against the route's declared response schema. */
async function call(t: TestHost, method: string, path: string, opts: Parameters<TestHost['request']>[2] = {}) {
  const res = await t.request<Body>(method, path, opts);
  const template =
    path === '/flows/import'
      ? '/flows/import'
      : path.replace(
          /^\/(flows|pipelines)\/[^/]+\/export$/,
          (_m, kind: string) => `/${kind}/${kind === 'flows' ? '{flow_id}' : '{id}'}/export`,
        );
  const route = t.host.routes.find((r) => r.method === method && r.surfaceId === 'flows-portable' && r.fullPath.endsWith(template));
  assert.ok(route, `no portable route for ${method} ${template}`);
  const schema = route.definition.schema?.responses?.[res.status];
  assert.ok(schema, `${method} ${template} answered an undeclared ${res.status}: ${JSON.stringify(res.body)}`);
  const validate = responseAjv.compile(closed(schema) as object);
  assert.ok(
    validate(res.body),
    `${method} ${template} ${res.status} does not match its declared schema: ${JSON.stringify(validate.errors)} in ${JSON.stringify(res.body)}`,
  );
  return res;
}

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** A fetch handler whose settings hold secrets: by name (api_key, auth.client_secret) and by schema (passcode writeOnly). */
const vaultish: PluginDefinition = definePlugin({
  id: 'vaultish',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { handlers: services.handlers },
  setup({ handlers }) {
    handlers.add(
      defineHandler({
        slug: 'vaultish',
        type: 'fetch',
        label: 'Vaultish',
        description: 'Fetches nothing; holds secrets.',
        settings: {
          type: 'object',
          required: ['endpoint', 'api_key'],
          additionalProperties: false,
          properties: {
            endpoint: { type: 'string' },
            api_key: { type: 'string' },
            passcode: { type: 'string', writeOnly: true },
            auth: {
              type: 'object',
              additionalProperties: false,
              properties: { user: { type: 'string' }, client_secret: { type: 'string' } },
            },
          },
        },
        fetch: async () => [],
      }),
    );
  },
});

const SECRETS = ['sk-live-0123456789abcdef', 'open-sesame-4242', 'cs-9876543210fedcba'];

for (const store of testStores('flows: export and import')) {
  type Ctx = { t: TestHost; feed: FeedServer; feedUrl: string };
  const test = suite<Ctx>(`flows: portable export and import (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([
      { guid: 'urn:a', title: 'Alpha' },
      { guid: 'urn:b', title: 'Beta' },
    ]);
    ctx.feedUrl = ctx.feed.url;
    ctx.t = await createTestHost({ plugins: [vaultish, probePlugin()], config: store.config() });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.feed.close();
  });

  const counts = async (t: TestHost) => ({
    pipelines: (await t.request<Body>('GET', '/pipelines', { query: { output_mode: 'list' } })).body.total as number,
    flows: (await t.request<Body>('GET', '/flows', { query: { output_mode: 'list' } })).body.total as number,
    hidden: await t.host.pipelines.collection.count({}),
  });

  /** rss fetch → ai (provider kept) → cms publish, one flow: what the README walkthrough builds. */
  const feedPipeline = async (t: TestHost, feedUrl: string) => {
    const p = (
      await t.request<Body>('POST', '/pipelines', {
        body: { pipeline_name: 'Feed to site', steps: [{ step_type: 'fetch' }, { step_type: 'publish' }] },
      })
    ).body.data;
    const [fetchStep, publishStep] = (p.pipeline_data.pipeline_steps as Body[]).map((s) => s.pipeline_step_id as string);
    const flow = await t.request<Body>('POST', '/flows', {
      body: {
        pipeline_id: p.pipeline_id,
        flow_name: 'Feed flow',
        scheduling_config: { interval: 'hourly' },
        flow_config: {
          [fetchStep!]: { handler_slug: 'rss', handler_config: { feed_url: feedUrl, max_items: 5 } },
          [publishStep!]: { handler_slug: 'cms', handler_config: { post_status: 'publish' } },
        },
      },
    });
    assert.is(flow.status, 200, JSON.stringify(flow.body));
    return { pipelineId: p.pipeline_id as number, flowId: flow.body.data.flow_id as number };
  };

  test('export names steps by position and leaves out every secret and the webhook trigger', async ({ t }) => {
    const p = (
      await t.request<Body>('POST', '/pipelines', {
        body: { pipeline_name: 'Secretive', steps: [{ step_type: 'fetch' }, { step_type: 'ai' }, { step_type: 'publish' }] },
      })
    ).body.data;
    const steps = (p.pipeline_data.pipeline_steps as Body[]).map((s) => s.pipeline_step_id as string);
    await t.request('PUT', `/pipelines/steps/${steps[1]}/config`, {
      body: { provider: 'probe-ai', model: 'probe-small', system_prompt: 'Be brief.' },
    });
    const created = await t.request<Body>('POST', '/flows', {
      body: {
        pipeline_id: p.pipeline_id,
        flow_name: 'Has secrets',
        flow_config: {
          [steps[0]!]: {
            handler_slug: 'vaultish',
            handler_config: {
              endpoint: 'https://api.example/x',
              api_key: SECRETS[0],
              passcode: SECRETS[1],
              auth: { user: 'ann', client_secret: SECRETS[2] },
            },
          },
          [steps[1]!]: { user_message: 'Summarise.' },
        },
      },
    });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const flowId = created.body.data.flow_id as number;
    const hook = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
    assert.is(hook.status, 200, JSON.stringify(hook.body));
    const token = hook.body.data.token as string;

    const res = await call(t, 'GET', `/flows/${flowId}/export`);
    assert.is(res.status, 200, JSON.stringify(res.body));
    const doc = res.body.data;
    const text = JSON.stringify(doc);
    for (const secret of [...SECRETS, token]) assert.not.ok(text.includes(secret), `the export carries ${secret}`);
    assert.not.ok(/webhook|token|pipeline_step_id|flow_id|_id"/.test(text), text);
    assert.is(doc.flowhost_export, 1);
    assert.ok(!Number.isNaN(Date.parse(doc.exported_at)));
    // The revisions it was taken at (issue 55): the pipeline's creation and its ai step's settings, the flow's creation.
    assert.is(doc.pipeline.revision, 2);
    assert.is(doc.flows[0].revision, 1);
    assert.equal(doc.pipeline, {
      name: 'Secretive',
      revision: 2,
      steps: [
        { position: 1, type: 'fetch', label: 'Fetch Step' },
        { position: 2, type: 'ai', label: 'AI Step', provider: 'probe-ai', model: 'probe-small', system_prompt: 'Be brief.' },
        { position: 3, type: 'publish', label: 'Publish Step' },
      ],
    });
    assert.equal(doc.flows[0].steps['1'].handler_config, { endpoint: 'https://api.example/x', auth: { user: 'ann' } });
    assert.equal(doc.flows[0].steps['1'].secrets_omitted, ['api_key', 'passcode', 'auth.client_secret']);
    assert.is(doc.flows[0].steps['2'].user_message, 'Summarise.');
    assert.equal(doc.secrets_omitted, [
      'flows[0].steps.1.handler_config.api_key',
      'flows[0].steps.1.handler_config.passcode',
      'flows[0].steps.1.handler_config.auth.client_secret',
    ]);

    // The import accepts the required api_key missing (it is listed) and says what to set.
    const before = await counts(t);
    const imported = await call(t, 'POST', '/flows/import', { body: doc });
    assert.is(imported.status, 201, JSON.stringify(imported.body));
    assert.equal(imported.body.data.secrets_omitted, doc.secrets_omitted);
    assert.is(imported.body.data.pipeline_name, 'Secretive (2)');
    const copy = (await t.request<Body>('GET', `/flows/${imported.body.data.flow_ids[0]}`)).body.data;
    const copySteps = Object.values(copy.flow_config as Record<string, Body>).sort((a, b) => a.execution_order - b.execution_order);
    assert.equal(copySteps[0]!.handler_config, { endpoint: 'https://api.example/x', auth: { user: 'ann' } });
    assert.is(copySteps[1]!.user_message, 'Summarise.');
    const webhook = (await t.request<Body>('GET', `/flows/${copy.flow_id}/webhook`)).body.data;
    assert.is(webhook.enabled, false, 'the trigger is not copied');
    const after = await counts(t);
    assert.equal(after, { pipelines: before.pipelines + 1, flows: before.flows + 1, hidden: before.hidden + 1 });

    // An unlisted required field may be missing too (a step still being set up exports as
    // it is): the imported step shows it as missing, and a run refuses the step until it is set.
    const unlisted = structuredClone(doc);
    delete unlisted.flows[0].steps['1'].secrets_omitted;
    const accepted = await call(t, 'POST', '/flows/import', { body: unlisted });
    assert.is(accepted.status, 201, JSON.stringify(accepted.body));
    const lacking = (await t.request<Body>('GET', `/flows/${accepted.body.data.flow_ids[0]}`)).body.data;
    const lackingSteps = Object.values(lacking.flow_config as Record<string, Body>).sort((a, b) => a.execution_order - b.execution_order);
    assert.equal(lackingSteps[0]!.missing_settings, ['api_key']);
  });

  test('importing twice makes two copies, never merges; a pipeline export carries every flow', async ({ t, feedUrl }) => {
    const { pipelineId, flowId } = await feedPipeline(t, feedUrl);
    await t.request('POST', `/flows/${flowId}/duplicate`);
    const doc = (await call(t, 'GET', `/pipelines/${pipelineId}/export`)).body.data;
    assert.equal(
      doc.flows.map((f: Body) => f.name),
      ['Feed flow', 'Feed flow (Copy)'],
    );
    assert.equal(doc.flows[0].scheduling_config, { interval: 'hourly' });
    assert.equal(doc.flows[0].steps['1'], { handler_slug: 'rss', enabled: true, handler_config: { feed_url: feedUrl, max_items: 5 } });
    const first = await call(t, 'POST', '/flows/import', { body: doc });
    const second = await call(t, 'POST', '/flows/import', { body: doc });
    assert.is(first.status, 201, JSON.stringify(first.body));
    assert.is(second.status, 201, JSON.stringify(second.body));
    assert.is.not(first.body.data.pipeline_id, second.body.data.pipeline_id);
    assert.is(first.body.data.pipeline_name, 'Feed to site (2)');
    assert.is(second.body.data.pipeline_name, 'Feed to site (3)');
    assert.is(first.body.data.flow_ids.length, 2);
    assert.equal(new Set([...first.body.data.flow_ids, ...second.body.data.flow_ids]).size, 4);
    for (const id of [first.body.data.pipeline_id, second.body.data.pipeline_id]) {
      const again = (await call(t, 'GET', `/pipelines/${id}/export`)).body.data;
      // The same document but for the revisions it was taken at (the copies are at their first).
      const bare = (d: Body) => ({
        ...d,
        exported_at: null,
        pipeline: { ...d.pipeline, name: null, revision: null },
        flows: d.flows.map((f: Body) => ({ ...f, revision: null })),
      });
      assert.equal(bare(again), bare(doc));
      assert.is(again.pipeline.revision, 1);
    }
    // Imported flows are scheduled like their source.
    const imported = (await t.request<Body>('GET', `/flows/${first.body.data.flow_ids[0]}`)).body.data;
    assert.ok(imported.next_run, 'the imported hourly flow is scheduled');
  });

  test('an invalid document is refused whole (400 invalid_import naming the field) and nothing is written', async ({ t, feedUrl }) => {
    const { flowId } = await feedPipeline(t, feedUrl);
    const good = (await call(t, 'GET', `/flows/${flowId}/export`)).body.data;
    const variant = (change: (d: Body) => void) => {
      const d = structuredClone(good);
      change(d);
      return d;
    };
    const cases: Array<[string, unknown, RegExp]> = [
      ['unknown version', variant((d) => (d.flowhost_export = 2)), /flowhost_export: version 2 is not supported \(supported versions: 1\)/],
      ['no version', variant((d) => delete d.flowhost_export), /flowhost_export: is required/],
      [
        'unknown handler',
        variant((d) => (d.flows[0].steps['2'].handler_slug = 'x')),
        /flows\[0\]\.steps\.2\.handler_slug: unknown handler 'x'/,
      ],
      [
        'handler of another kind',
        variant((d) => (d.flows[0].steps['2'].handler_slug = 'rss')),
        /flows\[0\]\.steps\.2\.handler_slug: .*fetch handler/,
      ],
      [
        'bad handler setting',
        variant((d) => (d.flows[0].steps['1'].handler_config.max_items = 500)),
        /flows\[0\]\.steps\.1\.handler_config\.max_items: .*500|max_items/,
      ],
      [
        'unknown step type',
        variant((d) => (d.pipeline.steps[1].type = 'teleport')),
        /pipeline\.steps\[1\]\.type: unknown step type 'teleport'/,
      ],
      [
        'duplicate position',
        variant((d) => (d.pipeline.steps[1].position = 1)),
        /pipeline\.steps\[1\]\.position: position 1 appears twice/,
      ],
      [
        'step that is not there',
        variant((d) => (d.flows[0].steps['7'] = { handler_slug: 'cms' })),
        /flows\[0\]\.steps\.7: the pipeline has no step at position 7/,
      ],
      [
        'step keyed by id',
        variant((d) => (d.flows[0].steps['1_abc'] = {})),
        /flows\[0\]\.steps\.1_abc: steps are keyed by their 1-based position/,
      ],
      [
        'unknown field',
        variant((d) => (d.flows[0].steps['1'].token = 'x')),
        /flows\[0\]\.steps\.1\.token: is not a field of the export format/,
      ],
      ['missing flow name', variant((d) => delete d.flows[0].name), /flows\[0\]\.name: is required/],
      [
        'unknown interval',
        variant((d) => (d.flows[0].scheduling_config.interval = 'fortnightly')),
        /flows\[0\]\.scheduling_config\.interval: unknown interval 'fortnightly'/,
      ],
      [
        'user message on a fetch step',
        variant((d) => (d.flows[0].steps['1'].user_message = 'hi')),
        /flows\[0\]\.steps\.1\.user_message: only ai steps/,
      ],
      // The second flow is bad: the first must not be written either.
      [
        'second flow bad',
        variant((d) => d.flows.push({ ...structuredClone(d.flows[0]), name: 'Two', steps: { '1': { handler_slug: 'nope' } } })),
        /flows\[1\]\.steps\.1\.handler_slug: unknown handler 'nope'/,
      ],
    ];
    const before = await counts(t);
    for (const [label, body, message] of cases) {
      const res = await call(t, 'POST', '/flows/import', { body });
      assert.is(res.status, 400, `${label}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'invalid_import', label);
      assert.match(res.body.message, message, `${label}: ${res.body.message}`);
      assert.is(typeof res.body.data.params, 'object', label);
    }
    const array = await call(t, 'POST', '/flows/import', { body: [1, 2] });
    assert.is(array.status, 400, 'not an object: refused by the route schema');
    assert.equal(await counts(t), before, 'nothing was created');
    const anonymous = await call(t, 'POST', '/flows/import', { body: good, as: 'anonymous' });
    assert.is(anonymous.status, 401);
    assert.is((await call(t, 'GET', '/flows/999999/export')).status, 404);
    assert.is((await call(t, 'GET', '/pipelines/999999/export')).status, 404);
  });

  test('a one_time schedule already past is imported as manual; a future one is kept', async ({ t, feedUrl }) => {
    const { flowId } = await feedPipeline(t, feedUrl);
    const doc = (await call(t, 'GET', `/flows/${flowId}/export`)).body.data;
    const now = Math.floor(t.clock.now().getTime() / 1000);
    doc.flows[0].scheduling_config = { interval: 'one_time', timestamp: now - 60 };
    doc.flows.push({ ...structuredClone(doc.flows[0]), name: 'Later', scheduling_config: { interval: 'one_time', timestamp: now + 3600 } });
    const res = await call(t, 'POST', '/flows/import', { body: doc });
    assert.is(res.status, 201, JSON.stringify(res.body));
    const [past, later] = await Promise.all(
      res.body.data.flow_ids.map(async (id: number) => (await t.request<Body>('GET', `/flows/${id}`)).body.data),
    );
    assert.equal(past.scheduling_config, { interval: 'manual' });
    assert.equal(later.scheduling_config, { interval: 'one_time', timestamp: now + 3600 });
  });

  test('a failure midway removes what was written; a crash midway is undone at the next boot', async ({ t, feedUrl }) => {
    const { flowId } = await feedPipeline(t, feedUrl);
    const doc = (await call(t, 'GET', `/flows/${flowId}/export`)).body.data;
    doc.flows.push({ ...structuredClone(doc.flows[0]), name: 'Second' });
    const before = await counts(t);
    // The flows' schedule is the host's own object: its second schedule() fails for this import.
    const scheduler = t.host.flows.schedule;
    const schedule = scheduler.schedule;
    let calls = 0;
    scheduler.schedule = async (id, config) => {
      if (++calls === 2) throw new Error('scheduler down');
      return schedule.call(scheduler, id, config);
    };
    try {
      const res = await call(t, 'POST', '/flows/import', { body: doc });
      assert.is(res.status, 500);
    } finally {
      scheduler.schedule = schedule;
    }
    assert.equal(await counts(t), before, 'the pipeline, both flows and the first schedule are gone');

    // A crash after the writes but before the reveal: the mark stays; boot (init) removes it all.
    const pipeline = await t.host.pipelines.create({ pipeline_name: 'Half imported', steps: [{ step_type: 'fetch' }] }, { hidden: true });
    await t.host.flows.insertChecked(pipeline, { flow_name: 'Orphan', steps: {}, scheduling_config: { interval: 'manual' } });
    assert.is((await counts(t)).pipelines, before.pipelines, 'hidden while importing');
    await t.host.pipelines.init();
    assert.equal(await counts(t), before);
  });

  test('export from one host, import into a fresh one, run it: the feed items become posts', async ({ t, feedUrl }) => {
    const { flowId } = await feedPipeline(t, feedUrl);
    const doc = (await call(t, 'GET', `/flows/${flowId}/export`)).body.data;
    const other = await createTestHost({ plugins: [], config: store.config() });
    try {
      const res = await call(other, 'POST', '/flows/import', { body: JSON.parse(JSON.stringify(doc)) });
      assert.is(res.status, 201, JSON.stringify(res.body));
      assert.is(res.body.data.pipeline_name, 'Feed to site', 'a fresh host keeps the name');
      const started = await other.request<Body>('POST', '/execute', { body: { flow_id: res.body.data.flow_ids[0] } });
      const job = await other.waitForJob(started.body.data.job_id);
      assert.is(job.status, 'completed', JSON.stringify(job));
      const posts = (await other.host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;
      assert.equal(posts.map((p) => [p.title, p.status]).sort(), [
        ['Alpha', 'publish'],
        ['Beta', 'publish'],
      ]);
    } finally {
      await other.stop();
    }
  });

  test.run();
}
