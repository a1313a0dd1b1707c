// The issue's done-means on every store: the chat assistant answers "which pages lost
// traffic last week" by calling the site_analytics chat tool (a scripted fake model); the
// tool result the model receives holds the fake GA4 API's rows exactly as it sent them.
// The tool is offered to the model only once the tool is configured.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, FakeClock, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';
import { createGoogleFake, gaRows, PROPERTY, type GoogleFake } from './fakes.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const PAGE_DIMS = ['pagePath', 'pageTitle'];
const PAGE_METRICS = ['screenPageViews', 'activeUsers', 'averageSessionDuration', 'bounceRate'];

/** The tool messages the model was sent, parsed (OpenAI wire: role 'tool', content JSON text). */
function toolOutputs(request: RecordedRequest): Body[] {
  const messages = request.json<Body>().messages as Body[];
  return messages.filter((m) => m.role === 'tool').map((m) => (typeof m.content === 'string' ? JSON.parse(m.content) : m.content));
}

const offered = (request: RecordedRequest): string[] => ((request.json<Body>().tools ?? []) as Body[]).map((t) => t.function.name);

for (const store of testStores('analytics chat')) {
  const test = suite<{ t: TestHost; openai: FakeModelApi; google: GoogleFake }>(`analytics in chat (${store.label})`);

  test.before(async (ctx) => {
    const clock = new FakeClock('2026-03-10T12:00:00.000Z');
    ctx.openai = await createFakeModelApi('openai');
    ctx.google = await createGoogleFake(clock);
    ctx.t = await createTestHost({
      plugins: [],
      clock,
      config: {
        ...store.config(),
        pluginSettings: {
          ...pluginSettingsFor([ctx.openai], { max_retries: 0 }),
          'analytics-site-analytics': { base_url: ctx.google.server.url },
        },
      },
    });
    assert.is((await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: ctx.openai.validKey } } })).status, 200);
  });
  test.after(async ({ t, openai, google }) => {
    await t.stop();
    await openai.server.close();
    await google.server.close();
  });

  test('site_analytics is offered only once configured', async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'I cannot see analytics yet.'));
    assert.is((await t.request<Body>('POST', '/chat', { body: { message: 'hello' } })).status, 200);
    const names = offered(openai.chats().at(-1)!);
    for (const name of ['site_analytics', 'search_stats', 'crawler_stats', 'page_performance'])
      assert.not.ok(names.includes(name), `${name} offered unconfigured`);
  });

  test('"which pages lost traffic last week": the model calls site_analytics and gets the rows as the API sent them', async ({
    t,
    openai,
    google,
  }) => {
    const saved = await t.request<Body>('PUT', '/analytics/site-analytics/config', {
      body: { service_account: JSON.stringify(google.keyFile), property_id: PROPERTY },
    });
    assert.is(saved.status, 200, JSON.stringify(saved.body));

    const lastWeek = { action: 'page_stats', start_date: '2026-03-02', end_date: '2026-03-08', limit: 10 };
    const weekBefore = { action: 'page_stats', start_date: '2026-02-23', end_date: '2026-03-01', limit: 10 };
    openai.script.push(
      (request) => {
        assert.ok(offered(request).includes('site_analytics'), 'offered once configured');
        return toolCallReply('openai', 'call_last', 'site_analytics', lastWeek);
      },
      toolCallReply('openai', 'call_before', 'site_analytics', weekBefore),
      (request) => {
        const outputs = toolOutputs(request);
        assert.is(outputs.length, 2);
        for (const [i, out] of outputs.entries()) {
          assert.is(out.success, true, JSON.stringify(out));
          // The fake's rows, untransformed, inside the tool's answer.
          assert.equal(out.result.results, gaRows(PAGE_DIMS, PAGE_METRICS, 3));
          assert.is(out.result.action, 'page_stats');
          assert.is(out.result.start_date, [lastWeek, weekBefore][i]!.start_date);
        }
        return textReply('openai', 'pagePath-3 lost the most views last week.');
      },
    );
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'Which pages lost traffic last week?' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.response, 'pagePath-3 lost the most views last week.');
    assert.equal(
      res.body.tool_calls.map((c: Body) => c.function.name),
      ['site_analytics', 'site_analytics'],
    );
    assert.equal(res.body.tool_calls[0].result.results, gaRows(PAGE_DIMS, PAGE_METRICS, 3));

    // What the GA4 fake received: two runReport calls with the weeks asked for.
    const reports = google.server.requests.filter((r) => r.url.endsWith(':runReport'));
    assert.equal(
      reports.map((r) => r.json<Body>().dateRanges),
      [[{ startDate: '2026-03-02', endDate: '2026-03-08' }], [{ startDate: '2026-02-23', endDate: '2026-03-01' }]],
    );
    assert.is(reports[0]!.url, `/v1beta/properties/${PROPERTY}:runReport`);
  });

  test.run();
}
