// Authoring from the command line without copying step ids: pipelines create/list/show,
// flows create/show/config by position, type or id, --set parsing, export and import into
// a fresh data directory, and the imported flow run to posts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import 'reflect-metadata';
import { createHost } from '../../../host/create-host.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { silentLogger } from '../../../core/kernel/logger.js';
import { cleanEnv, cliPath, repoRoot } from '../../support/host-process.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** The CLI as a child process, without blocking this process (the feed server answers meanwhile). */
function cli(args: string[], env: Record<string, string>, input?: string): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cliPath, ...args], { cwd: repoRoot, env: cleanEnv({ FLOWHOST_LOG_LEVEL: 'warn', ...env }), stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
    proc.on('error', reject);
    proc.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    proc.stdin.end(input ?? '');
  });
}

const rss = (items: Array<{ guid: string; title: string }>) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>T</title><link>http://feed.test/</link><description>t</description>${items
    .map((i) => `<item><title>${i.title}</title><link>http://feed.test/${i.guid}</link><guid>${i.guid}</guid><description>Body of ${i.title}</description></item>`)
    .join('')}</channel></rss>`;

for (const store of testStores('cli: authoring')) {
  type Ctx = { server: Server; feedUrl: string; env: Record<string, string>; dataDir: string; pipelineId: number; flowId: number };
  const test = suite<Ctx>(`cli: pipelines, flows create/config, export and import (${store.label})`);
  /** A data directory (and, on MongoDB, a fresh database) as a fresh host would have. */
  const place = () => {
    const mongo = store.config().mongodbUrl;
    return { dataDir: mkdtempSync(join(tmpdir(), 'flowhost-cli-authoring-')), env: { FLOWHOST_ALLOW_PRIVATE_URLS: '1', ...(mongo ? { MONGODB_URL: mongo } : {}) } };
  };
  const run = (ctx: { dataDir: string; env: Record<string, string> }, args: string[], input?: string) => cli([...args, '--data-dir', ctx.dataDir], ctx.env, input);
  const json = async (ctx: { dataDir: string; env: Record<string, string> }, args: string[]) => {
    const res = await run(ctx, [...args, '--json']);
    assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as Body;
  };

  test.before(async (ctx) => {
    ctx.server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.end(rss([{ guid: 'urn:1', title: 'First story' }, { guid: 'urn:2', title: 'Second story' }]));
    });
    await new Promise<void>((r) => ctx.server.listen(0, '127.0.0.1', () => r()));
    ctx.feedUrl = `http://127.0.0.1:${(ctx.server.address() as AddressInfo).port}/feed.xml`;
    Object.assign(ctx, place());
  });
  test.after((ctx) => {
    ctx.server.close();
  });

  test('pipelines create prints the ids of its steps in order; list and show name them by position', async (ctx) => {
    const created = await json(ctx, ['pipelines', 'create', 'Feed to site', '--step', 'fetch', '--step', 'ai', '--step', 'publish']);
    assert.is(created.pipeline_name, 'Feed to site');
    assert.equal(created.steps.map((s: Body) => [s.position, s.type]), [[1, 'fetch'], [2, 'ai'], [3, 'publish']]);
    assert.ok(created.steps.every((s: Body) => s.id.startsWith(`${created.pipeline_id}_`)));
    ctx.pipelineId = created.pipeline_id;

    const table = await run(ctx, ['pipelines', 'show', String(ctx.pipelineId)]);
    assert.is(table.status, 0, table.stderr);
    assert.match(table.stdout, /POSITION\s+TYPE\s+LABEL\s+ID/);
    assert.match(table.stdout, new RegExp(`2\\s+ai\\s+AI Step\\s+${created.steps[1].id}`));
    const list = await json(ctx, ['pipelines', 'list']);
    assert.equal(list.map((p: Body) => p.pipeline_name), ['Feed to site']);
    const listTable = await run(ctx, ['pipelines', 'list']);
    assert.match(listTable.stdout, /Feed to site\s+fetch > ai > publish\s+0/);
    const unknown = await run(ctx, ['pipelines', 'create', 'Bad', '--step', 'teleport']);
    assert.is(unknown.status, 1);
    assert.match(unknown.stderr, /Unknown step type 'teleport'/);
  });

  test('flows create: steps by position, type and id; --set values parse as JSON, keys nest', async (ctx) => {
    const steps = (await json(ctx, ['pipelines', 'show', String(ctx.pipelineId)])).steps as Body[];
    const flow = await json(ctx, [
      'flows', 'create', String(ctx.pipelineId), '--name', 'Morning feed',
      '--handler', 'fetch=rss', '--set', `1.feed_url=${ctx.feedUrl}`, '--set', 'fetch.max_items=5',
      '--user-message', 'ai=Summarise this',
      '--handler', `${steps[2]!.id}=cms`, '--set', 'publish.post_status=publish', '--set', '3.include_source=false', '--set', '3.terms=news,tech',
      '--schedule', 'hourly',
    ]);
    ctx.flowId = flow.flow_id;
    assert.is(flow.flow_name, 'Morning feed');
    assert.equal(flow.scheduling_config, { interval: 'hourly' });
    assert.equal(flow.steps.map((s: Body) => [s.position, s.type, s.handler]), [[1, 'fetch', 'rss'], [2, 'ai', null], [3, 'publish', 'cms']]);
    assert.equal(flow.steps[0].config, { feed_url: ctx.feedUrl, max_items: 5 }, 'the number 5, not "5"');
    assert.is(flow.steps[1].user_message, 'Summarise this');
    assert.is(flow.steps[2].config.include_source, false, 'the boolean false');
    assert.is(flow.steps[2].config.terms, 'news,tech', 'text that is not JSON stays text');

    const shown = await run(ctx, ['flows', 'show', String(ctx.flowId)]);
    assert.is(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /Schedule: hourly/);
    assert.match(shown.stdout, /Last run: Never/);
    assert.match(shown.stdout, /1\s+fetch\s+rss\s+\{"feed_url"/);
  });

  test('flows config changes settings by type or position; nested keys; secrets are masked in show', async (ctx) => {
    const changed = await json(ctx, ['flows', 'config', String(ctx.flowId), '--set', 'fetch.max_items=2', '--set', 'publish.post_status=draft', '--schedule', 'manual', '--name', 'Renamed']);
    assert.is(changed.flow_name, 'Renamed');
    assert.equal(changed.scheduling_config, { interval: 'manual' });
    assert.is(changed.steps[0].config.max_items, 2);
    assert.is(changed.steps[0].config.feed_url, ctx.feedUrl, 'other settings are kept');
    assert.is(changed.steps[2].config.post_status, 'draft');
    // A nested, secret-looking key is refused by the rss schema (it takes no such field), naming the step and field.
    const nested = await run(ctx, ['flows', 'config', String(ctx.flowId), '--set', '1.auth.api_token=abc']);
    assert.is(nested.status, 1);
    assert.match(nested.stderr, /step 1 \(fetch, handler rss\): auth is not an allowed property/);
    const back = await json(ctx, ['flows', 'config', String(ctx.flowId), '--set', 'publish.post_status=publish']);
    assert.is(back.steps[2].config.post_status, 'publish');
  });

  test('bad step references and refused settings name the step and the key', async (ctx) => {
    const cases: Array<[string[], RegExp]> = [
      [['flows', 'create', String(ctx.pipelineId), '--handler', '4=rss'], /No step at position 4 in pipeline \d+ \(its steps: 1 fetch, 2 ai, 3 publish\)/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'update=cms-update'], /No step 'update' in pipeline \d+/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'fetch'], /--handler 'fetch': expected <step>=<slug>/],
      [['flows', 'create', String(ctx.pipelineId), '--set', 'fetch=3'], /--set 'fetch=3': expected <step>\.<key>=<value>/],
      [['flows', 'create', String(ctx.pipelineId), '--set', 'fetch.feed_url=http://x.test/'], /step 1 \(fetch\): --set needs a handler for the step: add --handler 1=<slug>/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'fetch=nope'], /step 1 \(fetch\): no handler 'nope' in this host/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'publish=rss'], /step 3 \(publish\): 'rss' is a fetch handler/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'fetch=rss', '--set', 'fetch.max_items=500'], /step 1 \(fetch, handler rss\): .*max_items must be <= 50/],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'fetch=rss'], /step 1 \(fetch, handler rss\): feed_url is required/],
      [['flows', 'create', String(ctx.pipelineId), '--user-message', 'fetch=hi'], /--user-message: step 1 is a fetch step/],
      [['flows', 'create', '999', '--handler', '1=rss'], /Pipeline 999 not found/],
      [['flows', 'config', String(ctx.flowId), '--set', '2.model=x'], /step 2 \(ai\): the step has no handler yet/],
      [['flows', 'config', String(ctx.flowId)], /Nothing to change/],
      [['flows', 'config', String(ctx.flowId), '--schedule', 'fortnightly'], /Unknown interval 'fortnightly'/],
    ];
    const before = (await json(ctx, ['flows', 'list'])).length;
    for (const [args, message] of cases) {
      const res = await run(ctx, args);
      assert.is(res.status, 1, `${args.join(' ')}: ${res.stdout}`);
      assert.match(res.stderr, message, `${args.join(' ')}: ${res.stderr}`);
    }
    assert.is((await json(ctx, ['flows', 'list'])).length, before, 'no flow was created by a refused command');

    // A type that two steps have is ambiguous: the position must be used.
    const two = await json(ctx, ['pipelines', 'create', 'Two publishers', '--step', 'fetch', '--step', 'publish', '--step', 'publish']);
    const ambiguous = await run(ctx, ['flows', 'create', String(two.pipeline_id), '--handler', 'publish=cms']);
    assert.is(ambiguous.status, 1);
    assert.match(ambiguous.stderr, /Step 'publish' is ambiguous: pipeline \d+ has 2 publish steps \(positions 2, 3\); name one by its position/);
  });

  test('export to a file, import into a fresh data directory (twice: two copies), run it: posts are created', async (ctx) => {
    // The README walkthrough: new RSS items become posts.
    const pipeline = await json(ctx, ['pipelines', 'create', 'RSS to posts', '--step', 'fetch', '--step', 'publish']);
    const made = await json(ctx, ['flows', 'create', String(pipeline.pipeline_id), '--name', 'News', '--handler', 'fetch=rss', '--set', `fetch.feed_url=${ctx.feedUrl}`, '--set', 'fetch.max_items=10', '--handler', 'publish=cms', '--set', 'publish.post_status=publish', '--schedule', 'hourly']);
    const exported = await run(ctx, ['export', String(made.flow_id)]);
    assert.is(exported.status, 0, exported.stderr);
    const doc = JSON.parse(exported.stdout) as Body;
    assert.is(doc.flowhost_export, 1);
    assert.not.ok(exported.stdout.includes(`${pipeline.pipeline_id}_`), 'no step ids in the document');
    const pipelineDoc = JSON.parse((await run(ctx, ['export', String(ctx.pipelineId), '--pipeline'])).stdout) as Body;
    assert.equal(pipelineDoc.pipeline.steps.map((s: Body) => s.type), ['fetch', 'ai', 'publish']);
    assert.is(pipelineDoc.flows.length, 1);

    const fresh = place();
    const file = join(fresh.dataDir, '..', `flow-${Date.now()}.json`);
    writeFileSync(file, exported.stdout);
    const first = await json(fresh, ['import', file]);
    assert.is(first.pipeline_name, 'RSS to posts');
    assert.is(first.flow_ids.length, 1);
    const second = await run(fresh, ['import', '-'], exported.stdout);
    assert.is(second.status, 0, second.stderr);
    assert.match(second.stdout, /Imported pipeline \d+ "RSS to posts \(2\)" with 1 flow\(s\)/);
    assert.is((await json(fresh, ['pipelines', 'list'])).length, 2);
    const bad = await run(fresh, ['import', '-'], JSON.stringify({ ...doc, flowhost_export: 9 }));
    assert.is(bad.status, 1);
    assert.match(bad.stderr, /flowhost_export: version 9 is not supported \(supported versions: 1\)/);
    const notJson = await run(fresh, ['import', '-'], 'nope');
    assert.is(notJson.status, 1);
    assert.match(notJson.stderr, /stdin is not JSON/);

    const job = await json(fresh, ['flows', 'run', String(first.flow_ids[0])]);
    assert.is(job.status, 'completed', JSON.stringify(job));
    const shown = await json(fresh, ['flows', 'show', String(first.flow_ids[0])]);
    assert.is(shown.last_run_status, 'completed');

    // The posts, read from the data directory the CLI wrote.
    const host = await createHost({ plugins: defaultPlugins, env: {}, logger: silentLogger, config: { dataDir: fresh.dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', ...store.config(), ...(fresh.env.MONGODB_URL ? { mongodbUrl: fresh.env.MONGODB_URL } : {}) } });
    try {
      const posts = (await host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;
      assert.equal(posts.map((p) => [p.title, p.status]).sort(), [['First story', 'publish'], ['Second story', 'publish']]);
    } finally {
      await host.stop();
    }
  });

  test.run();
}
