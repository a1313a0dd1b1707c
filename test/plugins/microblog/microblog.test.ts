// The microblog handler end to end, on both stores, against a fake service that checks
// every OAuth 1.0a signature with an independent verifier: keys saved, the browser
// authorization driven like a popup would be, a denied authorization, and a flow
// rss -> microblog whose 400-character item is shortened to 280 as the service counts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createFakeServer, createTestHost, type FakeServer, type TestHost } from '../../../sdk/testing/index.js';
import { startFakeMicroblog, type FakeMicroblog } from '../../support/fake-microblog.js';
import { testStores } from '../../support/test-stores.js';
import { authorizeInPopup } from '../../support/oauth-popup.js';
import { captureLogger } from '../../support/capture-logger.js';
import { AMP_LINK, ENTITY_LINK, ENTITY_TEXT, ampText, startEntityFeed } from '../../support/entity-feed.js';
import { fitWeighted as fitText, weightedLength } from '../../../plugins/microblog/text-weight.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const unit = suite('microblog: text as the service counts it');
unit('URLs count 23, CJK and emoji 2; shortening ends at a word with an ellipsis, the link kept whole', () => {
  assert.is(weightedLength('hello'), 5);
  assert.is(weightedLength('see https://example.org/a/very/long/path/that/is/long'), 4 + 23);
  assert.is(weightedLength('日本'), 4);
  assert.is(weightedLength('👍🏽'), 2);
  const long = Array.from({ length: 80 }, (_, i) => `word${i}`).join(' ');
  const { text, shortened } = fitText(long, 'https://blog.example.org/post', 280);
  assert.ok(shortened);
  assert.ok(weightedLength(text) <= 280, String(weightedLength(text)));
  assert.match(text, /word\d+… https:\/\/blog\.example\.org\/post$/);
  assert.equal(fitText('short', null, 280), { text: 'short', shortened: false });
  const wide = fitText('日'.repeat(200), null, 280);
  assert.is(weightedLength(wide.text), 280);
});
unit.run();

const feedOf = (link: string, content: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Blog</title><link>${link}</link>
<item><title>Long post</title><link>${link}/long</link><guid>${link}/long</guid><description>${content}</description></item></channel></rss>`;

for (const store of testStores('microblog: end to end')) {
  type Ctx = { t: TestHost; fake: FakeMicroblog; feed: FakeServer; log: string[]; bodies: string[] };
  const test = suite<Ctx>(`microblog: end to end (${store.label})`);
  test.before(async (ctx) => {
    ctx.fake = await startFakeMicroblog();
    const content = `${'Lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(7)}end`.slice(0, 400);
    ctx.feed = await createFakeServer(() => ({
      headers: { 'content-type': 'application/rss+xml' },
      body: feedOf('https://blog.example.org', content),
    }));
    ctx.log = [];
    ctx.t = await createTestHost({
      plugins: [],
      logger: captureLogger(ctx.log),
      config: { ...store.config(), logLevel: 'trace', pluginSettings: { microblog: { api_url: ctx.fake.server.url } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.fake.server.close();
    await ctx.feed.close();
  });

  test('keys saved, the browser authorization connects the account with its details', async ({ t, fake }) => {
    const saved = await t.request<Body>('PUT', '/auth/microblog', {
      body: { consumer_key: fake.consumer.key, consumer_secret: fake.consumer.secret },
    });
    assert.is(saved.body.message, 'Configuration saved successfully');
    const done = await authorizeInPopup(t, 'microblog');
    assert.is(done.status, 200, done.html);
    assert.match(done.html, /Connected Microblog account ada/);
    assert.match(done.html, /postMessage/);
    const status = await t.request<Body>('GET', '/auth/microblog/status');
    assert.equal([status.body.data.authenticated, status.body.data.account_details], [true, { username: 'ada', id: '42' }]);
    assert.equal(fake.refusals, []);
  });

  test('a flow rss -> microblog publishes the item shortened to 280, signed, once', async ({ t, fake, feed }) => {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Feed to microblog' } })).body.data
      .pipeline_id;
    const fetchStep = (
      await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'fetch', execution_order: 0 } })
    ).body.data.pipeline_step_id;
    const publishStep = (
      await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'publish', execution_order: 1 } })
    ).body.data.pipeline_step_id;
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Microblog flow' } })).body.data
      .flow_id;
    assert.is(
      (
        await t.request('PUT', `/flows/steps/${fetchStep}_${flowId}/handler`, {
          body: { handler_slug: 'rss', settings: { feed_url: `${feed.url}/feed.xml` } },
        })
      ).status,
      200,
    );
    assert.is(
      (await t.request('PUT', `/flows/steps/${publishStep}_${flowId}/handler`, { body: { handler_slug: 'microblog', settings: {} } }))
        .status,
      200,
    );
    const job = await t.executeAndWait({ flow_id: flowId });
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(fake.posts.length, 1);
    const post = fake.posts[0]!;
    assert.ok(weightedLength(post.text) <= 280);
    assert.match(post.text, /… https:\/\/blog\.example\.org\/long$/);
    const steps = job.steps as Array<{
      step_type: string;
      items_out: number;
      published?: Array<{ id: string; url: string; shortened: boolean }>;
    }>;
    assert.equal(
      steps.map((s) => [s.step_type, s.items_out]),
      [
        ['fetch', 1],
        ['publish', 1],
      ],
    );
    // The job's outcome records what was published, and that it was shortened.
    assert.equal(steps[1]!.published, [{ id: post.id, url: `https://x.com/ada/status/${post.id}`, shortened: true }]);
    const again = await t.executeAndWait({ flow_id: flowId });
    assert.is(again.status, 'completed_no_items');
    assert.is(fake.posts.length, 1, 'the item is published once');
    assert.equal(fake.refusals, []);
  });

  test('HTML in an item is posted as the text a reader sees, and weighed on that text', async ({ t, fake }) => {
    // 60 × "Q&amp;A ": 480 characters escaped (over 280), 239 read (plus the link, it fits).
    const entities = await startEntityFeed(60);
    try {
      const before = fake.posts.length;
      const job = await t.executeAndWait({
        workflow: {
          steps: [
            { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${entities.url}/entities.xml`, max_items: 2 } },
            { type: 'publish', handler_slug: 'microblog' },
          ],
        },
      });
      assert.is(job.status, 'completed', JSON.stringify(job));
      const texts = fake.posts
        .slice(before)
        .map((p) => p.text)
        .sort();
      assert.equal(texts, [`${ampText(60)} ${AMP_LINK}`, `${ENTITY_TEXT} ${ENTITY_LINK}`].sort());
      const steps = job.steps as Array<{ published?: Array<{ shortened: boolean }> }>;
      assert.equal(
        steps[1]!.published!.map((p) => p.shortened),
        [false, false],
        'neither was shortened',
      );
      assert.equal(fake.refusals, []);
    } finally {
      await entities.close();
    }
  });

  test('429 waits Retry-After and retries once; 401 marks the account not authenticated with the error', async (ctx) => {
    const { t, fake } = ctx;
    fake.nextTweetAnswers.push({ status: 429, headers: { 'retry-after': '1' }, body: { title: 'Too Many Requests' } });
    const started = Date.now();
    const viaWorkflow = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${ctx.feed.url}/other.xml`, max_items: 1 } },
          { type: 'publish', handler_slug: 'microblog' },
        ],
      },
    });
    assert.is(viaWorkflow.status, 'completed', JSON.stringify(viaWorkflow));
    assert.ok(Date.now() - started >= 1000, 'waited for Retry-After');
    fake.nextTweetAnswers.push({ status: 401, body: { title: 'Unauthorized', detail: 'Invalid or expired token' } });
    const refused = await t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: `${ctx.feed.url}/third.xml`, max_items: 1 } },
          { type: 'publish', handler_slug: 'microblog' },
        ],
      },
    });
    assert.is(refused.status, 'failed');
    assert.match(String(refused.error), /Invalid or expired token/);
    const status = await t.request<Body>('GET', '/auth/microblog/status');
    assert.equal([status.body.data.authenticated, status.body.data.error, status.body.data.error_code], [false, true, 'invalid_token']);
  });

  test('a denied authorization shows error true in the status; DELETE disconnects', async ({ t, fake }) => {
    fake.denyNext = true;
    const denied = await authorizeInPopup(t, 'microblog');
    assert.is(denied.status, 200);
    assert.match(denied.html, /"success":false/);
    assert.match(denied.html, /denied/);
    const status = await t.request<Body>('GET', '/auth/microblog/status');
    assert.equal(
      [status.status, status.body.data.authenticated, status.body.data.error, status.body.data.error_code],
      [200, false, true, 'access_denied'],
    );
    const gone = await t.request<Body>('DELETE', '/auth/microblog');
    assert.is(gone.status, 200);
    const after = await t.request<Body>('GET', '/auth/microblog/status');
    assert.is(after.body.data.authenticated, false);
    assert.is(after.body.data.error, false);
  });

  test('no secret of the account or its keys appears in any answer, log line or stored document', async ({ t, fake, log }) => {
    const secrets = [fake.consumer.secret, 'ats-ada-secret-value', 'rts-rt-'];
    const answers = [
      JSON.stringify((await t.request('GET', '/auth/microblog/status')).body),
      JSON.stringify((await t.request('GET', '/handlers')).body),
      JSON.stringify((await t.request('GET', '/logs', { query: { per_page: 100 } })).body),
      JSON.stringify((await t.request('GET', '/jobs', { query: { per_page: 100 } })).body),
    ];
    const stored = JSON.stringify([
      await t.host.store.collection('application_keys').find({}),
      await t.host.store.collection('auth_accounts').find({}),
      await t.host.store.collection('oauth_states').find({}),
    ]);
    assert.ok(log.length > 10, 'the host logged');
    for (const secret of secrets) {
      for (const text of [...answers, stored, ...log]) assert.not.ok(text.includes(secret), `${secret} found in ${text.slice(0, 200)}`);
    }
  });

  test.run();
}
