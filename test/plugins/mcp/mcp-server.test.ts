// The MCP server at {prefix}/mcp on every store, driven by the official SDK's own client
// (Client + StreamableHTTPClientTransport with an application password): the tools listed
// with their schemas and annotations; a pipeline and a flow created, the flow run (an RSS
// feed on 127.0.0.1 published as a post) and its job read back; the permission mapping
// (each tool's route and that route's permission in openapi.json); anonymous and wrong
// credentials refused as REST refuses them (an anonymous POST with a WWW-Authenticate
// challenge); a bearer token accepted, a revoked one refused; an editor listed and allowed a read tool but
// refused a destructive admin one with REST's 403 body; junk bodies answered 4xx.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { request as httpRequest } from 'node:http';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** Every tool, the route it stands for and that route's permission: docs/mcp.md's table. */
const MAPPING: Record<string, [string, string]> = {
  list_pipelines: ['GET /automation/v1/pipelines', 'capability:manage_options'],
  get_pipeline: ['GET /automation/v1/pipelines/{id}', 'capability:manage_options'],
  delete_pipeline: ['DELETE /automation/v1/pipelines/{id}', 'capability:manage_options'],
  list_flows: ['GET /automation/v1/flows', 'capability:manage_options'],
  get_flow: ['GET /automation/v1/flows/{flow_id}', 'capability:manage_options'],
  delete_flow: ['DELETE /automation/v1/flows/{flow_id}', 'capability:manage_options'],
  list_jobs: ['GET /automation/v1/jobs', 'capability:manage_options'],
  get_job: ['GET /automation/v1/jobs/{job_id}', 'capability:manage_options'],
  retry_job: ['POST /automation/v1/jobs/{job_id}/retry', 'capability:manage_options'],
  cancel_job: ['POST /automation/v1/jobs/{job_id}/cancel', 'capability:manage_options'],
  list_waiting_jobs: ['GET /automation/v1/jobs', 'capability:manage_options'],
  approve_job: ['POST /automation/v1/jobs/{job_id}/approve', 'capability:manage_options'],
  reject_job: ['POST /automation/v1/jobs/{job_id}/reject', 'capability:manage_options'],
  get_review_links: ['GET /automation/v1/jobs/{job_id}/review-links', 'capability:manage_options'],
  list_flow_revisions: ['GET /automation/v1/flows/{flow_id}/revisions', 'capability:manage_options'],
  get_flow_revision: ['GET /automation/v1/flows/{flow_id}/revisions/{revision}', 'capability:manage_options'],
  diff_flow_revisions: ['GET /automation/v1/flows/{flow_id}/revisions/diff', 'capability:manage_options'],
  restore_flow_revision: ['POST /automation/v1/flows/{flow_id}/revisions/{revision}/restore', 'capability:manage_options'],
  list_pipeline_revisions: ['GET /automation/v1/pipelines/{id}/revisions', 'capability:manage_options'],
  get_pipeline_revision: ['GET /automation/v1/pipelines/{id}/revisions/{revision}', 'capability:manage_options'],
  diff_pipeline_revisions: ['GET /automation/v1/pipelines/{id}/revisions/diff', 'capability:manage_options'],
  restore_pipeline_revision: ['POST /automation/v1/pipelines/{id}/revisions/{revision}/restore', 'capability:manage_options'],
  read_logs: ['GET /automation/v1/logs', 'capability:view_logs'],
  list_handlers: ['GET /automation/v1/handlers', 'capability:manage_options'],
  run_analytics_tool: ['POST /automation/v1/analytics/{tool}', 'check:'],
  create_pipeline: ['POST /automation/v1/pipelines', 'capability:manage_options'],
  add_pipeline_step: ['POST /automation/v1/pipelines/{id}/steps', 'capability:manage_options'],
  configure_pipeline_step: ['PUT /automation/v1/pipelines/steps/{pipeline_step_id}/config', 'capability:manage_options'],
  create_flow: ['POST /automation/v1/flows', 'capability:manage_options'],
  update_flow: ['PATCH /automation/v1/flows/{flow_id}', 'capability:manage_options'],
  copy_flow: ['POST /automation/v1/flows/{flow_id}/duplicate', 'capability:manage_options'],
  configure_flow_step: ['PATCH /automation/v1/flows/steps/{flow_step_id}/config', 'capability:manage_options'],
  run_flow: ['POST /automation/v1/execute', 'capability:manage_options'],
  execute_workflow: ['POST /automation/v1/execute', 'capability:manage_options'],
  get_handler_defaults: ['GET /automation/v1/settings/handler-defaults', 'capability:manage_options'],
  set_handler_defaults: ['PUT /automation/v1/settings/handler-defaults/{handler_slug}', 'capability:manage_options'],
  handler_documentation: ['GET /automation/v1/handlers/{slug}', 'capability:manage_options'],
  validate_credentials: ['GET /automation/v1/auth/{handler_slug}/status', 'capability:manage_options'],
  docsync_search_docs: ['GET /docsync/v1/docs', 'public'],
  docsync_get_doc: ['GET /docsync/v1/docs/{id}', 'public'],
  local_search: ['GET /wp/v2/posts', 'public'],
  cms_post_reader: ['GET /wp/v2/posts', 'public'],
  web_fetch: ['POST /automation/v1/chat', 'capability:manage_options'],
  api_query: ['POST /automation/v1/chat', 'capability:manage_options'],
};

/** The error `fn` rejects with (fails when it resolves). */
async function rejection(fn: () => Promise<unknown>): Promise<Error> {
  try {
    await fn();
  } catch (error) {
    return error as Error;
  }
  throw new assert.Assertion({ message: 'expected a rejection', generated: false, operator: 'rejects' } as never);
}

const ACCEPT = 'application/json, text/event-stream';
const basic = (login: string, password: string) => `Basic ${Buffer.from(`${login}:${password}`).toString('base64')}`;

async function connect(t: TestHost, authorization: string): Promise<Client> {
  const client = new Client({ name: 'flowhost-test', version: '1.0.0' });
  const url = new URL(`${t.url}${t.host.config.apiPrefix}/mcp`);
  await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { Authorization: authorization } } }));
  return client;
}

/** A tool's answer: its structured content, asserting success (or failure) first. */
async function call(client: Client, name: string, args: Record<string, unknown>, expectError = false): Promise<Body> {
  const answer = (await client.callTool({ name, arguments: args })) as Body;
  assert.is(answer.isError === true, expectError, `${name}: ${JSON.stringify(answer)}`);
  assert.equal(JSON.parse(answer.content[0].text), answer.structuredContent, 'text and structured content agree');
  return answer.structuredContent as Body;
}

/** A raw POST to /mcp (no SDK), for what a client could send but the SDK would not. */
async function raw(t: TestHost, init: { method?: string; headers?: Record<string, string>; body?: string }) {
  const response = await fetch(`${t.url}${t.host.config.apiPrefix}/mcp`, {
    method: init.method ?? 'POST',
    headers: init.headers,
    body: init.body,
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as Body) : null };
}

for (const store of testStores('mcp server')) {
  type Ctx = { t: TestHost; feed: FeedServer; admin: Client; auth: string };
  const test = suite<Ctx>(`mcp server (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([{ guid: 'urn:mcp-1', title: 'Story from the feed' }]);
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.auth = basic(ctx.t.admin.login, ctx.t.admin.password);
    ctx.admin = await connect(ctx.t, ctx.auth);
  });
  test.after(async (ctx) => {
    await ctx.admin.close();
    await ctx.t.stop();
    await ctx.feed.close();
  });

  test('tools/list: every tool with an object input schema and its annotations', async ({ admin }) => {
    const { tools } = await admin.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    for (const name of Object.keys(MAPPING)) {
      if (name === 'web_fetch' || name === 'api_query') continue; // global-tools: present too, checked below
      assert.ok(byName.has(name), `${name} listed (${[...byName.keys()].join(', ')})`);
    }
    for (const tool of tools) {
      assert.is(tool.inputSchema.type, 'object', tool.name);
      assert.type(tool.description, 'string');
      assert.type(tool.annotations?.title, 'string', `${tool.name} has a title`);
      assert.is(tool.title, tool.annotations!.title);
      for (const hint of ['readOnlyHint', 'destructiveHint', 'idempotentHint'] as const)
        assert.type(tool.annotations?.[hint], 'boolean', `${tool.name} ${hint}`);
    }
    assert.equal(byName.get('delete_flow')!.annotations, {
      title: 'Delete a flow',
      readOnlyHint: false,
      destructiveHint: true,
      idempotentHint: true,
      openWorldHint: false,
    });
    assert.is(byName.get('get_job')!.annotations!.readOnlyHint, true);
    // Decisions and restores cannot be taken back by calling again: destructive, not idempotent.
    for (const name of ['approve_job', 'reject_job', 'restore_flow_revision', 'restore_pipeline_revision']) {
      const hints = byName.get(name)!.annotations!;
      assert.equal([hints.readOnlyHint, hints.destructiveHint, hints.idempotentHint], [false, true, false], name);
    }
    for (const name of ['list_waiting_jobs', 'get_review_links', 'list_flow_revisions', 'diff_pipeline_revisions'])
      assert.is(byName.get(name)!.annotations!.readOnlyHint, true, name);
    assert.equal(byName.get('get_job')!.inputSchema.required, ['job_id'], 'the route path parameter is required');
    assert.equal((byName.get('create_pipeline')!.inputSchema as Body).required, ['name', 'steps'], "the chat tool's own schema");
    assert.ok(!byName.has('docsync_reset_docs'), 'a tool that always deletes is not served unless the site enables it');
  });

  test('the permission mapping: each tool stands for a route whose permission openapi.json states', async ({ t }) => {
    const prefix = t.host.config.apiPrefix;
    const doc = (await t.request<Body>('GET', `${prefix}/openapi.json`, { absolute: true })).body;
    const { tools } = await (await connect(t, basic(t.admin.login, t.admin.password))).listTools();
    const listed = new Set(tools.map((x) => x.name));
    for (const [name, [route, permission]] of Object.entries(MAPPING)) {
      const [method, path] = route.split(' ');
      const operation = doc.paths[`${prefix}${path}`]?.[method!.toLowerCase()];
      assert.ok(operation, `${name}: ${route} is a route`);
      assert.ok(
        String(operation['x-flowhost-permission']).startsWith(permission),
        `${name}: ${route} is ${operation['x-flowhost-permission']}`,
      );
      assert.ok(listed.has(name) || name === 'web_fetch' || name === 'api_query', `${name} is served`);
    }
    for (const name of listed) if (!(name in MAPPING)) assert.unreachable(`tool ${name} has no row in the mapping (docs/mcp.md)`);
  });

  test('create a pipeline and a flow, run it, read its job: a post published from the feed', async ({ t, admin, feed }) => {
    const pipeline = await call(admin, 'create_pipeline', { name: 'MCP pipeline', steps: ['fetch', 'publish'] });
    const flow = await call(admin, 'create_flow', {
      pipeline_id: pipeline.pipeline_id,
      name: 'MCP flow',
      handlers: [
        { slug: 'rss', settings: { feed_url: feed.url } },
        { slug: 'cms', settings: { post_status: 'publish' } },
      ],
    });
    const read = await call(admin, 'get_flow', { flow_id: flow.flow_id });
    assert.is(read.data.flow_name, 'MCP flow');
    const run = await call(admin, 'run_flow', { flow_id: flow.flow_id });
    assert.type(run.job_id, 'number');
    let job: Body = {};
    const until = Date.now() + 15_000;
    while (Date.now() < until) {
      job = await call(admin, 'get_job', { job_id: run.job_id });
      if (!['pending', 'processing'].includes(job.data.status)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.is(job.data.status, 'completed', JSON.stringify(job));
    assert.is(job.data.flow_id, flow.flow_id);
    // Chat's tools called over MCP say so: the job's source and trigger, the revisions' client.
    assert.is(job.data.source, 'mcp');
    assert.is(job.data.trigger.kind, 'mcp');
    assert.is(job.data.trigger.user_login, t.admin.login);
    const flowHistory = await t.request<Body>('GET', `/flows/${flow.flow_id}/revisions`);
    const flowRevisions = flowHistory.body.data.revisions as Body[];
    assert.is(flowRevisions.at(-1)?.action, 'create', JSON.stringify(flowRevisions));
    for (const r of flowRevisions) assert.is(r.client, 'mcp', JSON.stringify(r));
    const pipelineHistory = await t.request<Body>('GET', `/pipelines/${pipeline.pipeline_id}/revisions`);
    assert.ok((pipelineHistory.body.data.revisions as Body[]).length > 0);
    for (const r of pipelineHistory.body.data.revisions as Body[]) assert.is(r.client, 'mcp', JSON.stringify(r));
    const runs = await t.request<Body>('GET', '/jobs', { query: { source: 'mcp' } });
    assert.equal(
      (runs.body.data as Body[]).map((j) => j.job_id),
      [run.job_id],
      'GET /jobs filters by source mcp',
    );
    const jobs = await call(admin, 'list_jobs', { flow_id: flow.flow_id });
    assert.equal(
      (jobs.data as Body[]).map((j) => j.job_id),
      [run.job_id],
    );
    const posts = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', query: { search: 'Story from the feed' } });
    assert.equal(
      posts.body.map((p) => p.title.rendered),
      ['Story from the feed'],
    );
    // A REST error is the tool's error, with REST's body.
    const missing = await call(admin, 'get_job', { job_id: 999_999 }, true);
    assert.equal(missing, { code: 'job_not_found', message: 'Job 999999 not found', data: { status: 404 } });
    const bad = await call(admin, 'list_jobs', { status: 'nonsense' }, true);
    assert.is(bad.code, 'rest_invalid_param');
    const unknown = await call(admin, 'list_jobs', { colour: 'red' }, true);
    assert.is(unknown.code, 'rest_invalid_param');
    // A change made through MCP is recorded as MCP's in the flow's history.
    await call(admin, 'delete_flow', { flow_id: flow.flow_id });
    const history = await t.request<Body>('GET', `/flows/${flow.flow_id}/revisions`);
    const last = (history.body.data.revisions as Body[]).find((r) => r.action === 'delete');
    assert.is(last?.client, 'mcp', JSON.stringify(history.body));
  });

  test('a waiting job decided over MCP: listed, its review links read, one item approved, one rejected', async ({ t, admin }) => {
    const feed = await startFeedServer([
      { guid: 'urn:mcp-review-1', title: 'Reviewed story one' },
      { guid: 'urn:mcp-review-2', title: 'Reviewed story two' },
    ]);
    try {
      const pipeline = await call(admin, 'create_pipeline', { name: 'MCP review', steps: ['fetch', 'approval', 'publish'] });
      const flow = await call(admin, 'create_flow', {
        pipeline_id: pipeline.pipeline_id,
        name: 'MCP review flow',
        handlers: [
          { slug: 'rss', settings: { feed_url: feed.url, max_items: 5 } },
          null,
          { slug: 'cms', settings: { post_status: 'publish' } },
        ],
      });
      const run = await call(admin, 'run_flow', { flow_id: flow.flow_id });
      const listTool = (await admin.listTools()).tools.find((x) => x.name === 'list_waiting_jobs')!;
      assert.not.ok('status' in (listTool.inputSchema.properties ?? {}), 'the status is fixed, not an argument');
      let waiting: Body[] = [];
      const until = Date.now() + 15_000;
      while (Date.now() < until && !waiting.some((j) => j.job_id === run.job_id)) {
        waiting = (await call(admin, 'list_waiting_jobs', { flow_id: flow.flow_id })).data as Body[];
        if (!waiting.length) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const job = waiting.find((j) => j.job_id === run.job_id);
      assert.ok(job, 'the run waits for review');
      assert.equal((job!.review.items as Body[]).map((i) => i.title).sort(), ['Reviewed story one', 'Reviewed story two']);
      const links = await call(admin, 'get_review_links', { job_id: run.job_id });
      assert.match(links.data.review_url, /\/jobs\/\d+\/review\?token=/);
      const [first, second] = job!.review.items as Body[];
      const approved = await call(admin, 'approve_job', { job_id: run.job_id, items: [first!.item_id] });
      assert.equal([approved.data.pending, approved.data.resumed], [1, false]);
      const rejected = await call(admin, 'reject_job', { job_id: run.job_id });
      assert.equal([rejected.data.decided, rejected.data.resumed], [[second!.item_id], true]);
      const again = await call(admin, 'approve_job', { job_id: run.job_id }, true);
      assert.is(again.code, 'job_not_waiting');
      let status = '';
      while (Date.now() < until && status !== 'completed') {
        status = (await call(admin, 'get_job', { job_id: run.job_id })).data.status;
        if (status !== 'completed') await new Promise((resolve) => setTimeout(resolve, 50));
      }
      assert.is(status, 'completed');
      const posts = await t.request<Body[]>('GET', '/posts', { namespace: 'wp/v2', query: { search: 'Reviewed story' } });
      assert.equal(
        posts.body.map((p) => p.title.rendered),
        [first!.title],
        'only the approved item published',
      );
    } finally {
      await feed.close();
    }
  });

  test("a flow's and a pipeline's history over MCP: list, read, diff and restore revisions", async ({ t, admin }) => {
    const pipeline = await call(admin, 'create_pipeline', { name: 'History', steps: ['fetch', 'publish'] });
    const flow = await call(admin, 'create_flow', { pipeline_id: pipeline.pipeline_id, name: 'Before' });
    await call(admin, 'update_flow', { flow_id: flow.flow_id, name: 'After' });
    const listed = await call(admin, 'list_flow_revisions', { flow_id: flow.flow_id });
    const revisions = listed.data.revisions as Body[];
    const [latest, earliest] = [revisions[0]!.revision as number, revisions.at(-1)!.revision as number];
    const one = await call(admin, 'get_flow_revision', { flow_id: flow.flow_id, revision: earliest });
    assert.is(one.data.snapshot.flow_name, 'Before');
    const diff = await call(admin, 'diff_flow_revisions', { flow_id: flow.flow_id, from: earliest, to: latest });
    assert.equal(
      (diff.data.changes as Body[]).find((c) => c.path === '/flow_name'),
      { op: 'replace', path: '/flow_name', before: 'Before', after: 'After' },
      JSON.stringify(diff.data.changes),
    );
    const restored = await call(admin, 'restore_flow_revision', { flow_id: flow.flow_id, revision: earliest });
    assert.is(restored.data.restored_from, earliest);
    assert.is((await t.request<Body>('GET', `/flows/${flow.flow_id}`)).body.data.flow_name, 'Before');
    const after = (await call(admin, 'list_flow_revisions', { flow_id: flow.flow_id })).data.revisions as Body[];
    assert.equal([after[0]!.action, after[0]!.client], ['restore', 'mcp']);
    // The pipeline's side, and a missing revision as REST's 404.
    const pipelineRevisions = (await call(admin, 'list_pipeline_revisions', { id: pipeline.pipeline_id })).data.revisions as Body[];
    assert.ok(pipelineRevisions.length >= 1);
    const pipelineRestore = await call(admin, 'restore_pipeline_revision', {
      id: pipeline.pipeline_id,
      revision: pipelineRevisions.at(-1)!.revision,
    });
    assert.is(pipelineRestore.data.pipeline.pipeline_id, pipeline.pipeline_id);
    const missing = await call(admin, 'get_pipeline_revision', { id: pipeline.pipeline_id, revision: 999 }, true);
    assert.is(missing.code, 'revision_not_found');
    const pipelineDiff = await call(admin, 'diff_pipeline_revisions', { id: pipeline.pipeline_id, from: 1, to: 1 });
    assert.equal(pipelineDiff.data.changes, []);
  });

  test('refused without credentials (401 as REST) and with a wrong password (401 with the Basic challenge)', async ({ t }) => {
    assert.match((await rejection(() => connect(t, ''))).message, /401|Unauthorized|not currently logged in/i);
    const anonymous = await raw(t, {
      headers: { 'content-type': 'application/json', accept: ACCEPT },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.is(anonymous.status, 401);
    assert.is(anonymous.body!.code, 'rest_not_logged_in');
    // Unlike REST's anonymous 401, /mcp's says how to authenticate: MCP clients read the challenge.
    assert.is(anonymous.headers.get('www-authenticate'), 'Bearer realm="flowhost", Basic realm="flowhost"');
    const anonymousGet = await raw(t, { method: 'GET', headers: { accept: 'text/event-stream' } });
    assert.is(anonymousGet.status, 401);
    assert.is(anonymousGet.headers.get('www-authenticate'), 'Bearer realm="flowhost", Basic realm="flowhost"');
    const wrong = await raw(t, {
      headers: { authorization: basic(t.admin.login, 'wrong password'), 'content-type': 'application/json', accept: ACCEPT },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.is(wrong.status, 401);
    assert.is(wrong.body!.code, 'rest_invalid_credentials');
    assert.is(wrong.headers.get('www-authenticate'), 'Basic realm="flowhost"');
  });

  test('a bearer token (an application password on its own): the SDK client lists and calls tools as its user', async ({ t }) => {
    const created = await t.request<Body>('POST', '/users/1/application-passwords', { body: { name: 'mcp agent' } });
    const token = created.body.data.token as string;
    assert.match(token, /^fh_[0-9a-f]{16}_[A-Za-z0-9]{24}$/);
    const client = await connect(t, `Bearer ${token}`);
    try {
      const names = (await client.listTools()).tools.map((x) => x.name);
      assert.ok(names.includes('create_pipeline') && names.includes('delete_flow'), names.join(', '));
      const pipeline = await call(client, 'create_pipeline', { name: 'Made with a bearer token', steps: ['fetch', 'publish'] });
      const listed = await call(client, 'list_pipelines', {});
      assert.ok(
        (listed.data.pipelines as Body[]).some((p) => p.pipeline_id === pipeline.pipeline_id),
        'the pipeline it made is listed',
      );
    } finally {
      await client.close();
    }
    // An editor's token: the editor's tools only, an admin tool refused with REST's 403 body.
    const editor = await t.createUser('mcp-bearer-editor', 'editor');
    const editorToken = (await t.request<Body>('POST', `/users/${editor.userId}/application-passwords`, { body: { name: 'e' } })).body.data
      .token as string;
    const limited = await connect(t, `Bearer ${editorToken}`);
    try {
      const names = (await limited.listTools()).tools.map((x) => x.name);
      assert.ok(names.includes('local_search') && !names.includes('create_pipeline'), names.join(', '));
      assert.is((await call(limited, 'create_pipeline', { name: 'No', steps: ['fetch'] }, true)).code, 'rest_forbidden');
    } finally {
      await limited.close();
    }
    // A wrong or revoked token: 401 with the Bearer challenge; the SDK client cannot connect.
    const revoke = await t.request('DELETE', `/users/1/application-passwords/${created.body.data.uuid}`);
    assert.is(revoke.status, 200);
    assert.match((await rejection(() => connect(t, `Bearer ${token}`))).message, /401|Unauthorized|invalid/i);
    const refused = await raw(t, {
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: ACCEPT },
      body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}',
    });
    assert.is(refused.status, 401);
    assert.is(refused.body!.code, 'rest_invalid_credentials');
    assert.is(refused.headers.get('www-authenticate'), 'Bearer realm="flowhost", error="invalid_token"');
  });

  test('an editor: read tools listed and allowed; an admin tool neither listed nor run (REST 403 body)', async ({ t, admin }) => {
    const pipeline = await call(admin, 'create_pipeline', { name: 'Kept', steps: ['fetch', 'publish'] });
    const flow = await call(admin, 'create_flow', { pipeline_id: pipeline.pipeline_id, name: 'Kept flow' });
    const editor = await t.createUser('mcp-editor', 'editor');
    const client = await connect(t, basic(editor.login, editor.password));
    try {
      const names = (await client.listTools()).tools.map((x) => x.name);
      assert.ok(names.includes('docsync_search_docs') && names.includes('local_search'), names.join(', '));
      assert.ok(!names.includes('delete_flow') && !names.includes('create_pipeline') && !names.includes('list_jobs'), names.join(', '));
      const refused = await call(client, 'delete_flow', { flow_id: flow.flow_id }, true);
      const rest = await t.request<Body>('DELETE', `/flows/${flow.flow_id}`, { as: editor });
      assert.is(rest.status, 403);
      assert.equal(refused, rest.body, 'the same body REST answers');
      assert.is((await t.request('GET', `/flows/${flow.flow_id}`)).status, 200, 'the flow is still there');
      const chatRefused = await call(client, 'create_pipeline', { name: 'No', steps: ['fetch'] }, true);
      assert.is(chatRefused.code, 'rest_forbidden');
      const search = await call(client, 'docsync_search_docs', { query: 'anything' });
      assert.ok(search && typeof search === 'object', JSON.stringify(search));
      assert.match((await rejection(() => client.callTool({ name: 'no_such_tool', arguments: {} }))).message, /Unknown tool/);
    } finally {
      await client.close();
    }
  });

  test('junk is 4xx, never 500: bad JSON, no JSON-RPC, wrong media types, chunked, GET and DELETE', async ({ t, auth }) => {
    const headers = { authorization: auth, 'content-type': 'application/json', accept: ACCEPT };
    const cases: Array<[string, Parameters<typeof raw>[1], number]> = [
      ['truncated JSON', { headers, body: '{"jsonrpc":' }, 400],
      ['not JSON-RPC', { headers, body: '{"hello":"world"}' }, 400],
      ['a JSON array of junk', { headers, body: '[1,2,3]' }, 400],
      ['a number', { headers, body: '42' }, 400],
      ['form body', { headers: { ...headers, 'content-type': 'application/x-www-form-urlencoded' }, body: 'a=1' }, 415],
      [
        'no Accept',
        { headers: { authorization: auth, 'content-type': 'application/json' }, body: '{"jsonrpc":"2.0","id":1,"method":"tools/list"}' },
        406,
      ],
      ['GET', { method: 'GET', headers: { authorization: auth, accept: 'text/event-stream' } }, 405],
      ['DELETE', { method: 'DELETE', headers: { authorization: auth } }, 405],
    ];
    for (const [label, init, status] of cases) {
      const answer = await raw(t, init);
      assert.is(answer.status, status, `${label}: ${JSON.stringify(answer.body)}`);
    }
    const get = await raw(t, { method: 'GET', headers: { authorization: auth } });
    assert.is(get.headers.get('allow'), 'POST');
    assert.is(get.body!.code, 'mcp_method_not_allowed');
    const notJsonRpc = await raw(t, { headers, body: '{"hello":"world"}' });
    assert.is(notJsonRpc.body!.code, 'mcp_invalid_message');
    assert.is(notJsonRpc.body!.data.jsonrpc.code, -32700, 'the JSON-RPC error kept');
    // A chunked body of junk, sent in pieces.
    const chunked = await new Promise<number>((resolve, reject) => {
      const url = new URL(`${t.url}${t.host.config.apiPrefix}/mcp`);
      const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'transfer-encoding': 'chunked' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.write('{"jsonrpc":"2.0",');
      req.end('"method": 7, junk');
    });
    assert.is(chunked, 400);
    // Too large a body: the host's limit, as on any route.
    const large = await raw(t, {
      headers,
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'x', params: { pad: 'x'.repeat(3 * 1024 * 1024) } }),
    });
    assert.is(large.status, 413);
  });

  test.run();
}
