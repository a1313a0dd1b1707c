// The analytics surface and its four tools on every store, against fakes on 127.0.0.1
// (fakes.ts says what each checks): every action of every tool answers the fake's rows
// untransformed with the spec's defaults and bounds, each error row of the spec's table,
// configuration sealed and masked, the per-request cache, remote errors without credentials.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, FakeClock, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import {
  BING_KEY,
  BING_ROWS,
  createBingFake,
  createGoogleFake,
  gaRows,
  PROPERTY,
  PSI_ANSWER,
  PSI_KEY,
  searchRows,
  SITE,
  type BingFake,
  type GoogleFake,
} from './fakes.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const NOW = '2026-03-10T12:00:00.000Z';

for (const store of testStores('analytics')) {
  type Ctx = { t: TestHost; google: GoogleFake; bing: BingFake; clock: FakeClock };
  const test = suite<Ctx>(`analytics tools (${store.label})`);

  test.before(async (ctx) => {
    ctx.clock = new FakeClock(NOW);
    ctx.google = await createGoogleFake(ctx.clock);
    ctx.bing = await createBingFake();
    const g = ctx.google.server.url;
    ctx.t = await createTestHost({
      plugins: [],
      clock: ctx.clock,
      config: {
        ...store.config(),
        pluginSettings: {
          'analytics-search-stats': { base_url: g },
          'analytics-site-analytics': { base_url: `${g}/` },
          'analytics-page-performance': { base_url: g },
          'analytics-crawler-stats': { base_url: ctx.bing.server.url },
        },
      },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.google.server.close();
    await ctx.bing.server.close();
  });

  const post = (t: TestHost, tool: string, body: unknown, as?: { login: string; password: string }) =>
    t.request<Body>('POST', `/analytics/${tool}`, { body, ...(as ? { as } : {}) });

  test('unconfigured: every tool is 422 analytics_error naming what is missing; GET config says so', async ({ t, google, bing }) => {
    const cases: Array<[string, string, string[]]> = [
      ['search-stats', 'query_stats', ['service_account', 'site_url']],
      ['crawler-stats', 'crawl_stats', ['api_key', 'site_url']],
      ['site-analytics', 'page_stats', ['service_account', 'property_id']],
      ['page-performance', 'analyze', ['api_key']],
    ];
    for (const [tool, action, missing] of cases) {
      const res = await post(t, tool, { action });
      assert.is(res.status, 422, `${tool}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'analytics_error');
      assert.equal(res.body.data, { status: 422, tool, missing });
      assert.match(res.body.message, `flowhost analytics configure ${tool}`);
      const config = await t.request<Body>('GET', `/analytics/${tool}/config`);
      assert.is(config.status, 200);
      assert.equal(config.body.data.configured, false);
      assert.equal(config.body.data.missing, missing);
    }
    // property_id given in the request stands in for the configured one.
    const site = await post(t, 'site-analytics', { action: 'page_stats', property_id: PROPERTY });
    assert.equal(site.body.data.missing, ['service_account']);
    assert.is(google.server.requests.length + bing.server.requests.length, 0);
  });

  test('the errors table: invalid_tool, analytics_error with the allowed actions, rest_forbidden', async ({ t }) => {
    const unknown = await post(t, 'weather', { action: 'x' });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'invalid_tool');
    assert.equal(unknown.body.data, { status: 400 });
    for (const body of [
      {},
      { action: 'nope' },
      { action: 5 },
      { action: 'query_stats', limit: 25001 },
      { action: 'query_stats', limit: 0 },
      { action: 'query_stats', limit: 'ten' },
      { action: 'query_stats', start_date: '2026-02-30' },
      { action: 'query_stats', start_date: '10/03/2026' },
      { action: 'query_stats', start_date: '2026-03-05', end_date: '2026-03-01' },
      { action: 'query_stats', colour: 'red' },
      { action: 'inspect_url' },
      { action: 'get_sitemap' },
      { action: 'inspect_url', url: 'ftp://x' },
    ]) {
      const res = await post(t, 'search-stats', body);
      assert.is(res.status, 400, `${JSON.stringify(body)}: ${JSON.stringify(res.body)}`);
      assert.is(res.body.code, 'analytics_error');
      assert.match(
        res.body.message,
        'Allowed actions: query_stats, page_stats, query_page_stats, date_stats, inspect_url, list_sitemaps, get_sitemap, submit_sitemap.',
      );
    }
    assert.match((await post(t, 'search-stats', { action: 'query_stats', limit: 25001 })).body.message, /limit must be <= 25000/);
    assert.is((await post(t, 'site-analytics', { action: 'page_stats', limit: 10001 })).status, 400);
    assert.is((await post(t, 'crawler-stats', { action: 'crawl_stats', limit: 1001 })).status, 400);
    assert.is((await post(t, 'page-performance', { action: 'analyze', strategy: 'tablet' })).status, 400);
    assert.match(
      (await post(t, 'page-performance', { action: 'speed' })).body.message,
      'Allowed actions: analyze, performance, opportunities.',
    );
    assert.match(
      (await post(t, 'site-analytics', { action: 'realtime', page_filter: '/blog' })).body.message,
      'realtime takes no page_filter',
    );
    // A bad parameter is 400 even when the tool is not configured yet (checked first).
    const editor = await t.createUser('ana-editor', 'editor');
    const forbidden = await post(t, 'search-stats', { action: 'query_stats' }, editor);
    assert.is(forbidden.status, 403);
    assert.is(forbidden.body.code, 'rest_forbidden');
    assert.is((await t.request('GET', '/analytics/search-stats/config', { as: editor })).status, 403);
    assert.is((await t.request('PUT', '/analytics/search-stats/config', { as: editor, body: { site_url: SITE } })).status, 403);
    assert.is((await t.request('POST', '/analytics/search-stats', { as: 'anonymous', body: { action: 'query_stats' } })).status, 401);
    // POST only.
    assert.is((await t.request<Body>('GET', '/analytics/search-stats')).status, 404);
  });

  test('configuration: sealed at rest, masked in answers, checked; bad key files refused', async ({ t, google }) => {
    const keyText = JSON.stringify(google.keyFile);
    const bad = [
      [{ service_account: 'not json' }, /not JSON/],
      [{ service_account: JSON.stringify({ ...google.keyFile, private_key: 'nope' }) }, /private_key is not an RSA private key/],
      [{ service_account: JSON.stringify({ ...google.keyFile, token_uri: undefined }) }, /lacks token_uri/],
      [{ site_url: 'example dot com' }, /site_url must be/],
    ] as const;
    for (const [body, message] of bad) {
      const res = await t.request<Body>('PUT', '/analytics/search-stats/config', { body });
      assert.is(res.status, 400, JSON.stringify(res.body));
      assert.is(res.body.code, 'analytics_config_invalid');
      assert.match(res.body.message, message);
      assert.not.match(JSON.stringify(res.body), 'PRIVATE KEY');
    }
    assert.is((await t.request<Body>('PUT', '/analytics/search-stats/config', { body: {} })).status, 400);
    assert.is((await t.request<Body>('PUT', '/analytics/search-stats/config', { body: { api_key: 'x' } })).status, 400);

    const saved = await t.request<Body>('PUT', '/analytics/search-stats/config', { body: { service_account: keyText, site_url: SITE } });
    assert.is(saved.status, 200, JSON.stringify(saved.body));
    assert.equal(saved.body.data, {
      tool: 'search-stats',
      configured: true,
      missing: [],
      settings: { service_account: `${google.keyFile.client_email} (private key ••••••••)`, site_url: SITE },
    });
    assert.not.match(JSON.stringify(saved.body), 'PRIVATE KEY');
    const doc = await t.host.store.collection('analytics-search-stats__config').findOne({ _id: 'config' });
    assert.ok(doc && typeof doc.service_account === 'string');
    assert.not.match(JSON.stringify(doc), 'PRIVATE KEY');
    assert.not.match(JSON.stringify(doc), google.keyFile.client_email!);

    const ga = await t.request<Body>('PUT', '/analytics/site-analytics/config', {
      body: { service_account: keyText, property_id: PROPERTY },
    });
    assert.is(ga.status, 200, JSON.stringify(ga.body));
    assert.is((await t.request<Body>('PUT', '/analytics/site-analytics/config', { body: { property_id: 'properties/1' } })).status, 400);

    const bing = await t.request<Body>('PUT', '/analytics/crawler-stats/config', { body: { api_key: BING_KEY, site_url: SITE } });
    assert.equal(bing.body.data.settings, { api_key: `••••••••${BING_KEY.slice(-4)}`, site_url: SITE });
    const bingDoc = await t.host.store.collection('analytics-crawler-stats__config').findOne({ _id: 'config' });
    assert.not.match(JSON.stringify(bingDoc), BING_KEY);
    // The masked value sent back keeps the key.
    assert.is(
      (await t.request<Body>('PUT', '/analytics/crawler-stats/config', { body: { api_key: bing.body.data.settings.api_key } })).body.data
        .configured,
      true,
    );

    const psi = await t.request<Body>('PUT', '/analytics/page-performance/config', { body: { api_key: PSI_KEY } });
    assert.is(psi.body.data.configured, true);
    assert.is(
      (await t.request<Body>('GET', '/analytics/page-performance/config')).body.data.settings.api_key,
      `••••••••${PSI_KEY.slice(-4)}`,
    );
    assert.is(google.server.requests.length, 0, 'saving configuration calls nothing');
  });

  test('search-stats: every action answers the fake rows untransformed, with the spec defaults and a checked JWT', async ({
    t,
    google,
  }) => {
    const dims: Record<string, string[]> = {
      query_stats: ['query'],
      page_stats: ['page'],
      query_page_stats: ['query', 'page'],
      date_stats: ['date'],
    };
    for (const [action, dimensions] of Object.entries(dims)) {
      const res = await post(t, 'search-stats', { action });
      assert.is(res.status, 200, `${action}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body, {
        success: true,
        action,
        results_count: 3,
        results: searchRows(dimensions, 3),
        site_url: SITE,
        start_date: '2026-02-10',
        end_date: '2026-03-07',
        response_aggregation_type: 'byProperty',
      });
      const sent = google.server.requests.at(-1)!;
      assert.is(sent.url, `/webmasters/v3/sites/${encodeURIComponent(SITE)}/searchAnalytics/query`);
      assert.equal(sent.json(), { startDate: '2026-02-10', endDate: '2026-03-07', dimensions, rowLimit: 25 });
    }
    // One token for all of them (cached until it expires).
    assert.is(google.tokenRequests().length, 1);

    const filtered = await post(t, 'search-stats', {
      action: 'page_stats',
      start_date: '2026-01-01',
      end_date: '2026-01-31',
      limit: 25000,
      url_filter: '/blog',
      query_filter: 'kiwi',
    });
    assert.is(filtered.status, 200, JSON.stringify(filtered.body));
    assert.equal(google.server.requests.at(-1)!.json(), {
      startDate: '2026-01-01',
      endDate: '2026-01-31',
      dimensions: ['page'],
      rowLimit: 25000,
      dimensionFilterGroups: [
        {
          groupType: 'and',
          filters: [
            { dimension: 'page', operator: 'contains', expression: '/blog' },
            { dimension: 'query', operator: 'contains', expression: 'kiwi' },
          ],
        },
      ],
    });

    const inspect = await post(t, 'search-stats', { action: 'inspect_url', url: 'https://example.com/kiwi' });
    assert.is(inspect.status, 200, JSON.stringify(inspect.body));
    assert.equal(google.server.requests.at(-1)!.json(), { inspectionUrl: 'https://example.com/kiwi', siteUrl: SITE });
    assert.is(inspect.body.results_count, 1);
    assert.is(inspect.body.results[0].indexStatusResult.verdict, 'PASS');

    const list = await post(t, 'search-stats', { action: 'list_sitemaps' });
    assert.is(list.body.results[0].path, 'https://example.com/sitemap.xml');
    assert.is(list.body.results[0].contents[0].submitted, '120');
    const one = await post(t, 'search-stats', { action: 'get_sitemap', sitemap_url: 'https://example.com/sitemap.xml' });
    assert.equal(one.body.results, [
      {
        path: 'https://example.com/sitemap.xml',
        lastSubmitted: '2026-03-01T00:00:00Z',
        isPending: false,
        isSitemapsIndex: false,
        warnings: '0',
        errors: '0',
        contents: [{ type: 'web', submitted: '120', indexed: '0' }],
      },
    ]);
    const submitted = await post(t, 'search-stats', { action: 'submit_sitemap', sitemap_url: 'https://example.com/news.xml' });
    assert.is(submitted.status, 200, JSON.stringify(submitted.body));
    assert.equal(submitted.body, {
      success: true,
      action: 'submit_sitemap',
      results_count: 0,
      results: [],
      site_url: SITE,
      sitemap_url: 'https://example.com/news.xml',
      submitted: true,
      message: 'Submitted https://example.com/news.xml.',
    });
    const put = google.server.requests.at(-1)!;
    assert.is(put.method, 'PUT');
    assert.is(put.url, `/webmasters/v3/sites/${encodeURIComponent(SITE)}/sitemaps/${encodeURIComponent('https://example.com/news.xml')}`);
    // A write is never answered from the cache.
    const before = google.server.requests.length;
    await post(t, 'search-stats', { action: 'submit_sitemap', sitemap_url: 'https://example.com/news.xml' });
    assert.is(google.server.requests.length, before + 1);
  });

  test('site-analytics: every action is the GA4 report it names, rows untransformed; property_id overrides', async ({ t, google }) => {
    const expected: Record<string, { dims: string[]; mets: string[] }> = {
      page_stats: { dims: ['pagePath', 'pageTitle'], mets: ['screenPageViews', 'activeUsers', 'averageSessionDuration', 'bounceRate'] },
      traffic_sources: { dims: ['sessionSource', 'sessionMedium'], mets: ['sessions', 'activeUsers', 'engagementRate'] },
      date_stats: { dims: ['date'], mets: ['activeUsers', 'sessions', 'screenPageViews'] },
      realtime: { dims: ['unifiedScreenName'], mets: ['activeUsers'] },
      top_events: { dims: ['eventName'], mets: ['eventCount', 'totalUsers'] },
      user_demographics: { dims: ['country', 'deviceCategory'], mets: ['activeUsers', 'sessions'] },
    };
    for (const [action, { dims, mets }] of Object.entries(expected)) {
      const res = await post(t, 'site-analytics', { action });
      assert.is(res.status, 200, `${action}: ${JSON.stringify(res.body)}`);
      assert.equal(res.body.results, gaRows(dims, mets, 3));
      assert.is(res.body.results_count, 3);
      assert.is(res.body.property_id, PROPERTY);
      const sent = google.server.requests.at(-1)!;
      assert.is(sent.url, `/v1beta/properties/${PROPERTY}:${action === 'realtime' ? 'runRealtimeReport' : 'runReport'}`);
      const body = sent.json<Body>();
      assert.equal(
        body.dimensions,
        dims.map((name) => ({ name })),
      );
      assert.equal(
        body.metrics,
        mets.map((name) => ({ name })),
      );
      assert.is(body.limit, '25');
      if (action === 'realtime') assert.is(body.dateRanges, undefined);
      else {
        assert.equal(body.dateRanges, [{ startDate: '2026-02-10', endDate: '2026-03-09' }]);
        assert.is(res.body.start_date, '2026-02-10');
        assert.is(res.body.end_date, '2026-03-09');
      }
    }
    const other = await post(t, 'site-analytics', {
      action: 'page_stats',
      property_id: '987654321',
      limit: 10000,
      page_filter: '/blog',
      start_date: '2026-03-01',
      end_date: '2026-03-07',
    });
    assert.is(other.status, 200, JSON.stringify(other.body));
    assert.is(other.body.property_id, '987654321');
    const sent = google.server.requests.at(-1)!;
    assert.is(sent.url, '/v1beta/properties/987654321:runReport');
    assert.equal(sent.json<Body>().dimensionFilter, {
      filter: { fieldName: 'pagePath', stringFilter: { matchType: 'CONTAINS', value: '/blog', caseSensitive: false } },
    });
    assert.is(sent.json<Body>().limit, '10000');
  });

  test('crawler-stats and page-performance: API keys in the query, rows as sent, defaults', async ({ t, bing, google }) => {
    const methods: Record<string, string> = {
      query_stats: 'GetQueryStats',
      traffic_stats: 'GetRankAndTrafficStats',
      page_stats: 'GetPageStats',
      crawl_stats: 'GetCrawlStats',
    };
    for (const [action, method] of Object.entries(methods)) {
      const res = await post(t, 'crawler-stats', { action });
      assert.is(res.status, 200, `${action}: ${JSON.stringify(res.body)}`);
      const rows = BING_ROWS[method]!;
      assert.equal(res.body, {
        success: true,
        action,
        results_count: Math.min(20, rows.length),
        results: rows.slice(0, 20),
        site_url: SITE,
        total_rows: rows.length,
      });
      assert.is(
        bing.server.requests.at(-1)!.url,
        `/webmaster/api.svc/json/${method}?siteUrl=${encodeURIComponent(SITE)}&apikey=${BING_KEY}`,
      );
    }
    assert.is((await post(t, 'crawler-stats', { action: 'query_stats', limit: 5 })).body.results_count, 5);

    const home = t.url;
    const analyze = await post(t, 'page-performance', { action: 'analyze' });
    assert.is(analyze.status, 200, JSON.stringify(analyze.body));
    const answer = PSI_ANSWER(home, 'MOBILE');
    assert.equal(analyze.body.results, Object.values(answer.lighthouseResult.categories));
    assert.is(analyze.body.strategy, 'mobile');
    assert.is(analyze.body.url, home);
    const q = new URL(google.server.requests.at(-1)!.url, 'http://x').searchParams;
    assert.equal(
      [q.get('url'), q.get('strategy'), q.get('key'), q.getAll('category')],
      [home, 'MOBILE', PSI_KEY, ['PERFORMANCE', 'ACCESSIBILITY', 'BEST_PRACTICES', 'SEO']],
    );
    assert.not.match(JSON.stringify(analyze.body), PSI_KEY);

    const perf = await post(t, 'page-performance', { action: 'performance', url: 'https://example.com/kiwi', strategy: 'desktop' });
    const desktop = PSI_ANSWER('https://example.com/kiwi', 'DESKTOP');
    const audits = desktop.lighthouseResult.audits as Record<string, unknown>;
    assert.equal(
      perf.body.results,
      [
        'first-contentful-paint',
        'largest-contentful-paint',
        'total-blocking-time',
        'cumulative-layout-shift',
        'speed-index',
        'interactive',
      ].map((id) => audits[id]),
    );
    assert.is(perf.body.performance_score, 0.91);
    const q2 = new URL(google.server.requests.at(-1)!.url, 'http://x').searchParams;
    assert.equal([q2.get('strategy'), q2.getAll('category')], ['DESKTOP', ['PERFORMANCE']]);
    const opp = await post(t, 'page-performance', { action: 'opportunities', url: 'https://example.com/kiwi' });
    assert.equal(opp.body.results, [audits['render-blocking-resources'], audits['unused-javascript']]);
  });

  test('the cache: an identical request is answered once per TTL (5 minutes), across the store', async ({ t, bing, clock }) => {
    const before = bing.server.requests.length;
    const first = await post(t, 'crawler-stats', { action: 'traffic_stats', limit: 7 });
    const second = await post(t, 'crawler-stats', { limit: 7, action: 'traffic_stats' });
    assert.equal(second.body, first.body);
    assert.is(bing.server.requests.length, before + 1);
    assert.is((await t.host.store.collection('analytics-crawler-stats__cache').count({})) >= 1, true);
    clock.advance(301_000);
    await post(t, 'crawler-stats', { action: 'traffic_stats', limit: 7 });
    assert.is(bing.server.requests.length, before + 2);
    // Saving the configuration clears it.
    await t.request('PUT', '/analytics/crawler-stats/config', { body: { site_url: SITE } });
    assert.is(await t.host.store.collection('analytics-crawler-stats__cache').count({}), 0);
  });

  test('remote errors: quota, permission, not found, each a clear 502 analytics_error with no credential in it', async ({
    t,
    google,
    bing,
  }) => {
    google.failNext.push({
      status: 429,
      body: {
        error: {
          code: 429,
          message: `Quota exceeded for quota metric 'Queries' of service 'searchconsole.googleapis.com' (key=${PSI_KEY})`,
          status: 'RESOURCE_EXHAUSTED',
        },
      },
    });
    const quota = await post(t, 'search-stats', { action: 'query_stats', limit: 11 });
    assert.is(quota.status, 502, JSON.stringify(quota.body));
    assert.is(quota.body.code, 'analytics_error');
    assert.match(quota.body.message, /^The Search Console API: quota exceeded; try again later \(HTTP 429\): Quota exceeded/);
    assert.is(quota.body.data.remote_status, 429);
    assert.not.match(JSON.stringify(quota.body), PSI_KEY);

    const missing = await post(t, 'search-stats', { action: 'get_sitemap', sitemap_url: 'https://example.com/missing.xml' });
    assert.is(missing.status, 502);
    assert.match(missing.body.message, 'not found (HTTP 404)');

    const denied = await post(t, 'site-analytics', { action: 'page_stats', property_id: '555' });
    assert.is(denied.status, 502);
    assert.match(denied.body.message, /permission denied; check the credentials.*\(HTTP 403\)/);
    assert.not.match(denied.body.message, 'https://');

    await t.request('PUT', '/analytics/crawler-stats/config', { body: { api_key: 'wrong-bing-key-000000' } });
    const badKey = await post(t, 'crawler-stats', { action: 'crawl_stats' });
    assert.is(badKey.status, 502);
    assert.match(badKey.body.message, /permission denied.*InvalidApiKey/);
    assert.not.match(JSON.stringify(badKey.body), 'wrong-bing-key');
    await t.request('PUT', '/analytics/crawler-stats/config', { body: { api_key: BING_KEY } });

    google.failNext.push({
      status: 403,
      body: { error: { code: 403, message: 'API key not valid. Please pass a valid API key.', status: 'PERMISSION_DENIED' } },
    });
    const psi = await post(t, 'page-performance', { action: 'analyze', url: 'https://example.com/other' });
    assert.is(psi.status, 502);
    assert.not.match(JSON.stringify(psi.body), PSI_KEY);
    // A key file whose token endpoint refuses: the refusal, not the key.
    const stranger = { ...google.keyFile, client_email: 'someone-else@example-project.iam.gserviceaccount.com' };
    await t.request('PUT', '/analytics/site-analytics/config', { body: { service_account: JSON.stringify(stranger) } });
    const refused = await post(t, 'site-analytics', { action: 'top_events', limit: 3 });
    assert.is(refused.status, 502, JSON.stringify(refused.body));
    assert.match(refused.body.message, /token endpoint refused the key \(HTTP 400\): Invalid JWT Signature/);
    assert.not.match(JSON.stringify(refused.body), 'PRIVATE KEY');
    await t.request('PUT', '/analytics/site-analytics/config', { body: { service_account: JSON.stringify(google.keyFile) } });
    void bing;
  });

  test('the access token is reused until it expires, then a new assertion is exchanged', async ({ t, google, clock }) => {
    const before = google.tokenRequests().length;
    assert.is((await post(t, 'site-analytics', { action: 'date_stats', limit: 2 })).status, 200);
    assert.is((await post(t, 'site-analytics', { action: 'date_stats', limit: 4 })).status, 200);
    // The token fetched by the earlier site-analytics calls is still fresh.
    assert.is(google.tokenRequests().length, before);
    clock.advance(3600_000);
    const res = await post(t, 'site-analytics', { action: 'date_stats', limit: 3 });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(google.tokenRequests().length, before + 1);
  });

  test('a sealed secret that no longer opens (vault key replaced) counts as unset: 422, not 500', async ({ t }) => {
    const configs = t.host.store.collection('analytics-page-performance__config');
    const doc = await configs.findOne({ _id: 'config' });
    await configs.updateOne({ _id: 'config' }, { $set: { api_key: `${String(doc!.api_key).slice(0, -6)}AAAAAA` } });
    const res = await post(t, 'page-performance', { action: 'analyze', url: 'https://example.com/sealed' });
    assert.is(res.status, 422, JSON.stringify(res.body));
    assert.equal(res.body.data.missing, ['api_key']);
    assert.is((await t.request<Body>('GET', '/analytics/page-performance/config')).body.data.configured, false);
    assert.is(
      (await t.request<Body>('PUT', '/analytics/page-performance/config', { body: { api_key: PSI_KEY } })).body.data.configured,
      true,
    );
  });

  test.run();
}

// A build without a tool's plugin: the surface knows the id, so 500 ability_not_found.
const partial = suite('analytics surface without the tool plugins');
partial('a known tool whose plugin is not loaded is 500 ability_not_found; an unknown one 400 invalid_tool', async () => {
  const { defaultPlugins } = await import('../../../plugins/index.js');
  const plugins = defaultPlugins.filter((p) => !p.id.startsWith('analytics-'));
  const t = await createTestHost({ plugins, builtins: false });
  try {
    const res = await t.request<Body>('POST', '/analytics/site-analytics', { body: { action: 'page_stats' } });
    assert.is(res.status, 500, JSON.stringify(res.body));
    assert.is(res.body.code, 'ability_not_found');
    assert.match(res.body.message, 'analytics-site-analytics');
    assert.is((await t.request<Body>('POST', '/analytics/nope', { body: { action: 'x' } })).body.code, 'invalid_tool');
  } finally {
    await t.stop();
  }
});
partial(
  'a tool that fails with something other than an analytics_error it may give answers 502 analytics_error, URLs and keys cut out',
  async () => {
    const { defaultPlugins } = await import('../../../plugins/index.js');
    const { ApiError, definePlugin } = await import('../../../sdk/index.js');
    const { analyticsTools, defineAnalyticsTool, parametersSchema, TOOL_CATALOGUE } = await import('../../../sdk/analytics/index.js');
    const failing = definePlugin({
      id: 'failing-crawler',
      version: '1.0.0',
      flowhost: '^1.0.0',
      deps: { tools: analyticsTools },
      setup({ tools }) {
        tools.add(
          defineAnalyticsTool({
            name: 'crawler-stats',
            description: 'fails',
            parameters: parametersSchema(TOOL_CATALOGUE['crawler-stats']),
            async run(args) {
              if (args.action === 'query_stats') throw new Error('GET https://api.example/x?apikey=s3cret failed; key=s3cret');
              throw new ApiError('analytics_error', 'gone', 404);
            },
          }),
        );
      },
    });
    const plugins = [...defaultPlugins.filter((p) => !p.id.startsWith('analytics-')), failing];
    const t = await createTestHost({ plugins, builtins: false });
    try {
      const plain = await t.request<Body>('POST', '/analytics/crawler-stats', { body: { action: 'query_stats' } });
      assert.is(plain.status, 502, JSON.stringify(plain.body));
      assert.is(plain.body.code, 'analytics_error');
      assert.is(plain.body.message, 'The crawler-stats tool failed: GET [url] failed; key=[redacted]');
      const odd = await t.request<Body>('POST', '/analytics/crawler-stats', { body: { action: 'crawl_stats' } });
      assert.is(odd.status, 502, JSON.stringify(odd.body));
    } finally {
      await t.stop();
    }
  },
);
partial.run();
