// A third party's analytics tool (newsletter-stats-plugin.ts, public SDK only) in a host with
// every built-in, on every store: it answers at POST /analytics/{its name} with its rows from
// its own store, its parameters checked (400 analytics_error listing its actions), its
// declared permission (edit_posts) applied; the spec's four keep theirs; an unknown name is
// still 400 invalid_tool, listing the plugin's tool; a plugin taking a spec tool's name
// beside the built-in one stops start-up naming both plugins.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, type PluginDefinition } from '../../../sdk/index.js';
import { analyticsTools, defineAnalyticsTool } from '../../../sdk/analytics/index.js';
import { testStores } from '../../support/test-stores.js';
import { newsletterStats } from './newsletter-stats-plugin.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('analytics third-party tool')) {
  const test = suite<{ t: TestHost }>(`a third-party analytics tool (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [newsletterStats], config: store.config() });
    await ctx.t.host.store.collection('newsletter-stats__opens').insertMany([
      { issue: 'March 2026', opens: 120 },
      { issue: 'April 2026', opens: 340 },
      { issue: 'May 2026', opens: 75 },
    ]);
  });
  test.after(async ({ t }) => {
    await t.stop();
  });

  const post = (t: TestHost, tool: string, body: unknown, as?: { login: string; password: string }) =>
    t.request<Body>('POST', `/analytics/${tool}`, { body, ...(as ? { as } : {}) });

  test('answers at its name with the rows of its own store, its parameters applied', async ({ t }) => {
    const top = await post(t, 'newsletter-stats', { action: 'top_issues', limit: 2 });
    assert.is(top.status, 200, JSON.stringify(top.body));
    assert.equal(top.body, {
      success: true,
      action: 'top_issues',
      results_count: 2,
      results: [
        { issue: 'April 2026', opens: 340 },
        { issue: 'March 2026', opens: 120 },
      ],
      issues: 3,
    });
    const total = await post(t, 'newsletter-stats', { action: 'total', issue_filter: '2026' });
    assert.equal(total.body.results, [{ opens: 535 }]);
  });

  test('a bad action or parameter is 400 analytics_error listing its own actions', async ({ t }) => {
    for (const body of [
      {},
      { action: 'opens' },
      { action: 'total', limit: 51 },
      { action: 'total', limit: 'ten' },
      { action: 'total', colour: 'red' },
    ]) {
      const res = await post(t, 'newsletter-stats', body);
      assert.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'analytics_error');
      assert.is(res.body.data.status, 400);
      assert.is(res.body.data.tool, 'newsletter-stats');
      assert.match(res.body.message, /Allowed actions: top_issues, total\.$/);
    }
    assert.match((await post(t, 'newsletter-stats', { action: 'total', limit: 51 })).body.message, /limit must be <= 50/);
    assert.match((await post(t, 'newsletter-stats', { action: 'total', colour: 'red' })).body.message, /\(colour\)/);
  });

  test('its declared permission: an editor may call it, a subscriber or a stranger may not; the spec tools still need manage_options', async ({
    t,
  }) => {
    const editor = await t.createUser('nl-editor', 'editor');
    const subscriber = await t.createUser('nl-subscriber', 'subscriber');
    const allowed = await post(t, 'newsletter-stats', { action: 'total' }, editor);
    assert.is(allowed.status, 200, JSON.stringify(allowed.body));
    const refused = await post(t, 'newsletter-stats', { action: 'total' }, subscriber);
    assert.is(refused.status, 403);
    assert.is(refused.body.code, 'rest_forbidden');
    assert.is(refused.body.data.status, 403);
    const stranger = await t.request<Body>('POST', '/analytics/newsletter-stats', { body: { action: 'total' }, as: 'anonymous' });
    assert.is(stranger.status, 401, JSON.stringify(stranger.body));
    const spec = await post(t, 'site-analytics', { action: 'page_stats' }, editor);
    assert.is(spec.status, 403);
    assert.is(spec.body.code, 'rest_forbidden');
  });

  test('an unknown name is still 400 invalid_tool, and its message lists the plugin tool', async ({ t }) => {
    const res = await post(t, 'weather', { action: 'x' });
    assert.is(res.status, 400);
    assert.is(res.body.code, 'invalid_tool');
    assert.is(
      res.body.message,
      "Unknown analytics tool 'weather'. Tools: search-stats, crawler-stats, site-analytics, page-performance, newsletter-stats.",
    );
  });

  test.run();
}

for (const store of testStores('analytics third-party tool cli')) {
  const cli = suite<{ host: Host; dataDir: string }>(`flowhost analytics call with a third-party tool (${store.label})`);
  cli.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config(), [newsletterStats]));
    await ctx.host.store.collection('newsletter-stats__opens').insertOne({ issue: 'June 2026', opens: 9 });
  });
  cli.after(async ({ host }) => {
    await host.stop();
  });
  cli('runs the plugin tool: a table, the answer with --json, its refusal on stderr', async (ctx) => {
    const table = await runCli(ctx, ['analytics', 'call', 'newsletter-stats', 'top_issues', '--params', '{"limit":1}']);
    assert.is(table.status, 0, table.stderr);
    assert.is(table.stdout, 'issue      opens\nJune 2026  9\n(1 row)\n');
    const json = await runCli(ctx, ['analytics', 'call', 'newsletter-stats', 'total', '--json']);
    assert.is(json.status, 0, json.stderr);
    assert.equal(JSON.parse(json.stdout).results, [{ opens: 9 }]);
    const bad = await runCli(ctx, ['analytics', 'call', 'newsletter-stats', 'total', '--params', '{"limit":0}']);
    assert.is(bad.status, 1);
    assert.match(bad.stderr, /limit must be >= 1.*Allowed actions: top_issues, total\./);
    const notJson = await runCli(ctx, ['analytics', 'call', 'newsletter-stats', 'total', '--params', 'limit=1']);
    assert.is(notJson.status, 1);
    assert.match(notJson.stderr, /--params must be a JSON object/);
  });
  cli.run();
}

const boot = suite('third-party analytics tools refused at start-up');

const toolPlugin = (id: string, name: string, extra: Record<string, unknown> = {}): PluginDefinition =>
  definePlugin({
    id,
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { analyticsTools },
    setup({ analyticsTools }) {
      analyticsTools.add(
        defineAnalyticsTool({
          name,
          description: 'x',
          parameters: { type: 'object', required: ['action'], properties: { action: { type: 'string', enum: ['a'] } } },
          run: async () => ({ success: true, action: 'a', results_count: 0, results: [] }),
          ...extra,
        }),
      );
    },
  }) as PluginDefinition;

async function bootError(plugins: PluginDefinition[]): Promise<string> {
  try {
    const t = await createTestHost({ plugins });
    await t.stop();
  } catch (error) {
    return String((error as Error).message);
  }
  throw new Error('the host started');
}

boot("a spec tool's name beside its built-in plugin names both plugins", async () => {
  const message = await bootError([toolPlugin('acme-ga', 'site-analytics')]);
  assert.match(
    message,
    "duplicate analytics.tools 'site-analytics': contributed by plugin 'analytics-site-analytics' and plugin 'acme-ga'",
  );
});

boot('a tool without a required action, or with a public permission, is refused naming the plugin', async () => {
  const noAction = definePlugin({
    id: 'acme-free',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { analyticsTools },
    setup({ analyticsTools }) {
      analyticsTools.add({ name: 'free-form', description: 'x', parameters: { type: 'object' }, run: async () => null });
    },
  }) as PluginDefinition;
  assert.match(
    await bootError([noAction]),
    /Plugin 'acme-free': analytics\.tools 'free-form': its parameters must be an object schema with a required string 'action'/,
  );
  assert.match(
    await bootError([toolPlugin('acme-open', 'open-stats', { permission: 'public' })]),
    /Plugin 'acme-open': analytics\.tools 'open-stats': its permission must be 'authenticated' or \{ capability/,
  );
});

boot.run();
