// `flowhost analytics`: configure with the secret from stdin (masked afterwards, refused tool
// names, a 422 for an unconfigured tool) in process against a host on every store, and once
// spawned with no host (the real stdin); the report commands run in process against a host
// on every store (a table, or the answer as is with --json).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import type { CliContext } from '../../../sdk/index.js';
import analytics from '../../../plugins/analytics/index.js';
import { runCli as spawnCli } from '../../support/host-process.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { testStores } from '../../support/test-stores.js';
import { BING_KEY, BING_ROWS, createBingFake, SITE, type BingFake } from './fakes.js';

type CliHost = { host: Host; dataDir: string };
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

// The configure / config commands in process, on every store, against a host on the data
// directory; the secret is given as the command's stdin.
for (const store of testStores('analytics cli configure')) {
  const test = suite<CliHost>(`flowhost analytics configure (${store.label})`);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config()));
  });
  test.after(async ({ host }) => {
    await host.stop();
  });
  test('configure reads the secret from stdin; config shows it masked; errors are clear', async (ctx) => {
    const cli = (args: string[], stdin?: string) => runCli(ctx, args, { stdin });
    const saved = await cli(['analytics', 'configure', 'crawler-stats', '--secret-stdin', '--site_url', SITE], `${BING_KEY}\n`);
    assert.is(saved.status, 0, saved.stderr);
    assert.is(saved.stdout, 'The crawler-stats configuration is saved.\n');
    const shown = await cli(['analytics', 'config', 'crawler-stats', '--json']);
    assert.is(shown.status, 0, shown.stderr);
    assert.equal(JSON.parse(shown.stdout), {
      tool: 'crawler-stats',
      configured: true,
      missing: [],
      settings: { api_key: `••••••••${BING_KEY.slice(-4)}`, site_url: SITE },
    });
    assert.not.match(shown.stdout + saved.stdout, BING_KEY);

    const half = await cli(['analytics', 'configure', 'search-stats', '--site_url', SITE]);
    assert.is(half.status, 0, half.stderr);
    assert.is(half.stdout, 'The search-stats configuration is saved. Still missing: service_account.\n');
    const badKey = await cli(['analytics', 'configure', 'search-stats', '--secret-stdin'], '{"client_email": "x"}');
    assert.is(badKey.status, 1);
    assert.match(badKey.stderr, /service_account lacks private_key/);

    const unknown = await cli(['analytics', 'configure', 'weather', '--secret-stdin'], 'x');
    assert.is(unknown.status, 1);
    assert.match(unknown.stderr, /Unknown analytics tool 'weather'/);
    const unconfigured = await cli(['analytics', 'page-performance', 'analyze']);
    assert.is(unconfigured.status, 1);
    assert.match(unconfigured.stderr, /The page-performance tool is not configured: set api_key/);
    const badAction = await cli(['analytics', 'crawler-stats', 'fly']);
    assert.is(badAction.status, 1);
    assert.match(badAction.stderr, /Allowed actions: query_stats, traffic_stats, page_stats, crawl_stats/);
  });
  test.run();
}

// Spawned once, with no host: the real CLI reads the secret from its real stdin into a store
// it opens itself, and does not print it (the rest is checked in process above).
const spawned = suite('flowhost analytics (spawned CLI, no host)');
spawned('configure --secret-stdin reads the real stdin', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-analytics-cli-'));
  const saved = spawnCli(
    ['analytics', 'configure', 'crawler-stats', '--secret-stdin', '--site_url', SITE, '--init', '--data-dir', dataDir],
    {},
    `${BING_KEY}\n`,
  );
  assert.is(saved.status, 0, saved.stderr);
  assert.is(saved.stdout, 'The crawler-stats configuration is saved.\n');
  assert.not.match(saved.stdout + saved.stderr, BING_KEY);
});
spawned.run();

/** The noun's commands with a context that calls the test host (as the CLI calls a running host). */
async function run(t: TestHost, line: string[], json: boolean): Promise<{ out: string; error?: string }> {
  const noun = analytics.cli![0]!;
  const command = noun.commands.find((c) => c.command.split(' ')[0] === line[0])!;
  const positional = command.command
    .split(' ')
    .slice(1)
    .map((p) => p.replace(/[<>]/g, ''));
  const args: Record<string, unknown> = {};
  for (const [i, name] of positional.entries()) args[name] = line[1 + i];
  for (let i = 1 + positional.length; i < line.length; i += 2)
    args[line[i]!.replace(/^--/, '')] = /^\d+$/.test(line[i + 1]!) ? Number(line[i + 1]) : line[i + 1];
  let out = '';
  const ctx: CliContext = {
    json,
    confirm: async () => undefined,
    async call<T>(method: string, path: string, options?: { body?: unknown }) {
      const res = await t.request<Body>(method, path.replace(/^\/automation\/v1/, ''), { body: options?.body });
      if (res.status >= 400) throw new Error(String(res.body.message));
      return res.body as T;
    },
    upload: () => Promise.reject(new Error('no uploads')),
    print: (data, text) => (out += json ? JSON.stringify(data) : text),
  };
  try {
    await command.run(args, ctx);
    return { out };
  } catch (error) {
    return { out, error: (error as Error).message };
  }
}

for (const store of testStores('analytics cli')) {
  const test = suite<{ t: TestHost; bing: BingFake }>(`flowhost analytics reports (${store.label})`);
  test.before(async (ctx) => {
    ctx.bing = await createBingFake();
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: { 'analytics-crawler-stats': { base_url: ctx.bing.server.url } } },
    });
    assert.is((await ctx.t.request('PUT', '/analytics/crawler-stats/config', { body: { api_key: BING_KEY, site_url: SITE } })).status, 200);
  });
  test.after(async ({ t, bing }) => {
    await t.stop();
    await bing.server.close();
  });

  test('a report as a table, and with --json the answer as the API gave it', async ({ t }) => {
    const table = await run(t, ['crawler-stats', 'crawl_stats'], false);
    assert.is(table.error, undefined);
    const [header, row, count] = table.out.split('\n');
    assert.match(header!, /^__type\s+AllowedByRobotsTxt\s+Code2xx\s+Code4xx\s+CrawledPages/);
    assert.match(row!, /CrawlStats:#Microsoft\.Bing\.Webmaster\.Api\s+0\s+120\s+3\s+130/);
    assert.is(count, '(1 row)');
    const json = await run(t, ['crawler-stats', 'query_stats', '--limit', '2'], true);
    assert.equal(JSON.parse(json.out), {
      success: true,
      action: 'query_stats',
      results_count: 2,
      results: BING_ROWS.GetQueryStats!.slice(0, 2),
      site_url: SITE,
      total_rows: 30,
    });
    const shown = await run(t, ['config', 'crawler-stats'], false);
    assert.is(shown.out, `crawler-stats: configured\napi_key: ••••••••${BING_KEY.slice(-4)}\nsite_url: ${SITE}`);
    const wrong = await run(t, ['configure', 'page-performance', '--site_url', SITE], false);
    assert.match(wrong.error ?? '', /page-performance has no site_url setting/);
  });

  test.run();
}
