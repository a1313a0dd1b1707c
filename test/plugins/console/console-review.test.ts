// Issue 55, the console's "Waiting for review": a run paused at an approval step (three
// items, each rewritten by an AI step) lists its items as they will be published; approve
// two one by one, reject one, and exactly two are published; a run decided elsewhere while
// the page is open refuses the click in the API's words and publishes nothing again; a
// waiting run's own page and the runs list show the wait too. Both stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Page } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin, defineProvider, services, type PluginDefinition } from '../../../sdk/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';
import { testStores } from '../../support/test-stores.js';
import { approvalProbe, jobIn, newApprovalRemote, type ApprovalRemote } from '../../support/approval-probe.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON

/** What the fake model answers for an item: HTML the console must show as text, a script that must not run. */
const aiAnswer = (title: string) => `AI summary of ${title}: <b>bold</b> <script>window.injected = true</script>`;

/** An AI provider on no network: it summarises the item the ai step sends (its `Title:` line). */
const reviewAi: PluginDefinition = definePlugin({
  id: 'review-ai',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { providers: services.providers },
  setup({ providers }) {
    providers.add(
      defineProvider({
        slug: 'review-ai',
        label: 'Review AI',
        configured: () => true,
        models: () => ['review-1'],
        generate: async (request) => {
          const prompt = request.messages.map((m) => ('content' in m ? m.content : '')).join('\n');
          const title =
            prompt
              .split('\n')
              .find((line) => line.startsWith('Title: '))
              ?.slice('Title: '.length) ?? 'nothing';
          const usage = { input_tokens: 10, output_tokens: 10, total_tokens: 20 };
          return { text: aiAnswer(title), toolCalls: [], usage, finishReason: 'stop', model: request.model, responseMessages: [] };
        },
      }),
    );
  },
}) as PluginDefinition;

/** fetch (appr-feed: urn:appr:1..3) → ai (review-ai) → approval → publish (appr-pub); answers the flow id. */
async function reviewedFlow(t: TestHost, name: string): Promise<number> {
  const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: name } })).body.data.pipeline_id as number;
  const psids: string[] = [];
  for (const [order, type] of ['fetch', 'ai', 'approval', 'publish'].entries()) {
    const res = await t.request<Body>('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: type, execution_order: order } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    psids.push(res.body.data.pipeline_step_id);
  }
  const ai = await t.request<Body>('PUT', `/pipelines/steps/${psids[1]}/config`, {
    body: { step_type: 'ai', pipeline_id: pipelineId, provider: 'review-ai', model: 'review-1', user_message: 'Summarise.' },
  });
  assert.is(ai.status, 200, JSON.stringify(ai.body));
  const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: `${name} flow` } })).body.data
    .flow_id as number;
  for (const [n, body] of [
    [0, { handler_slug: 'appr-feed', settings: { max_items: 5 } }],
    [3, { handler_slug: 'appr-pub', settings: {} }],
  ] as const) {
    const res = await t.request<Body>('PUT', `/flows/steps/${psids[n]}_${flowId}/handler`, { body });
    assert.is(res.status, 200, JSON.stringify(res.body));
  }
  return flowId;
}

/** Runs a new reviewed flow and answers its job once it waits. */
async function waitingJob(t: TestHost, name: string): Promise<number> {
  const job = await t.executeAndWait({ flow_id: await reviewedFlow(t, name) });
  assert.is(job.status, 'waiting', JSON.stringify(job));
  return job.job_id;
}

const ids = (...n: number[]) => n.map((i) => `urn:appr:${i}`);
const card = (page: Page, jobId: number) => page.getByRole('article', { name: `Review of job ${jobId}` });
const item = (page: Page, jobId: number, n: number) => card(page, jobId).getByRole('listitem', { name: `Story ${n}`, exact: true });
/** The refusals a test provokes on purpose (409 from a decision), which the page shows; anything else is a problem. */
const unexpected = (problems: string[]) =>
  problems.filter((p) => !/^409 POST .*\/(approve|reject)$/.test(p) && !p.includes('status of 409'));

for (const store of testStores('console: waiting for review')) {
  type Ctx = { t: TestHost; browser: Browser; remote: ApprovalRemote };
  const test = suite<Ctx>(`console: waiting for review (${store.label})`);
  test.before(async (ctx) => {
    ctx.remote = newApprovalRemote();
    ctx.t = await createTestHost({ plugins: [approvalProbe(ctx.remote), reviewAi], config: { ...store.config() } });
    ctx.browser = await launchChromium('console review');
  });
  test.before.each(({ remote }) => {
    Object.assign(remote, newApprovalRemote());
  });
  test.after(async (ctx) => {
    await ctx.browser?.close();
    await ctx.t?.stop();
  });

  test('each item as it will be published (the AI’s output, as text); approve two one by one, reject one: two posts', async ({
    t,
    browser,
    remote,
  }) => {
    const jobId = await waitingJob(t, 'Reviewed');
    const { page, problems } = await watchedPage(browser, t.url);
    await signInAsAdmin(page, t);
    // The navigation counts what waits, and opens the page.
    const nav = page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Review 1 waiting' });
    await nav.waitFor();
    await nav.click();
    await page.getByRole('heading', { name: 'Waiting for review', level: 1 }).waitFor();
    const review = card(page, jobId);
    await review.waitFor();
    assert.match(await review.getByRole('heading', { level: 2 }).innerText(), /Job \d+ · Reviewed flow waiting/);
    for (const n of [1, 2, 3]) {
      const one = item(page, jobId, n);
      assert.ok(await one.getByRole('heading', { name: `Story ${n}` }).isVisible());
      assert.ok(await one.getByText(`urn:appr:${n}`, { exact: true }).isVisible(), 'the identifier');
      assert.ok(await one.getByText('Written by the AI step (review-ai · review-1)').isVisible());
      // The AI's HTML is shown as text: the tags are visible, no element is made of them, no script ran.
      assert.is(await one.locator('.review-content').innerText(), aiAnswer(`Story ${n}`));
      assert.is(await one.locator('.review-content b, .review-content script').count(), 0);
    }
    assert.is(await page.evaluate(() => (globalThis as { injected?: boolean }).injected), undefined, 'no script of an item ran');
    await page.screenshot({ path: `test-output/console/review-waiting-${store.label}.png`, fullPage: true });

    const decide = async (n: number, word: 'Approve' | 'Reject', said: RegExp) => {
      await item(page, jobId, n)
        .getByRole('button', { name: `${word} Story ${n}` })
        .click();
      await review.getByRole('status').filter({ hasText: said }).waitFor();
      await item(page, jobId, n)
        .getByText(`${word === 'Approve' ? 'Approved' : 'Rejected'} by admin`)
        .waitFor();
      assert.is(
        await item(page, jobId, n)
          .getByRole('button')
          .filter({ hasText: /^(Approve|Reject)$/ })
          .count(),
        0,
        'decided: no buttons',
      );
    };
    await decide(1, 'Approve', new RegExp(`^Job ${jobId}: 1 item approved; 2 still waiting\\.$`));
    assert.is((await jobIn(t, jobId, ['waiting'])).review.pending, 2, 'the API says so too');
    await decide(2, 'Reject', /1 item rejected; 1 still waiting/);
    assert.equal(remote.posted, [], 'nothing published while an item waits');
    await decide(3, 'Approve', /1 item approved; the run goes on/);

    const done = await jobIn(t, jobId, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.equal(remote.posted, ids(1, 3), 'exactly the two approved items are published');
    assert.equal(
      done.review.items.map((i: Body) => [i.item_id, i.decision, i.decided_by]),
      [
        [ids(1)[0], 'approved', 'admin'],
        [ids(2)[0], 'rejected', 'admin'],
        [ids(3)[0], 'approved', 'admin'],
      ],
    );
    // The page: the run is no longer waiting, with how it went; nothing else waits; the badge is gone.
    const left = page.getByRole('heading', { name: 'No longer waiting' });
    await left.waitFor();
    await review.locator('h2 .status').filter({ hasText: 'completed' }).waitFor();
    assert.ok(await review.getByText(/no longer waiting/).isVisible());
    assert.ok(await page.getByText('Nothing waits for review.').isVisible());
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Review', exact: true }).waitFor();
    assert.is(await review.getByRole('button', { name: /^Approve/ }).count(), 0);
    await page.screenshot({ path: `test-output/console/review-decided-${store.label}.png`, fullPage: true });
    assert.equal(problems, []);
    await page.close();
  });

  test('decided elsewhere while the page is open: Approve is refused in the API’s words, and nothing is published twice', async ({
    t,
    browser,
    remote,
  }) => {
    const jobId = await waitingJob(t, 'Raced');
    const { page, problems } = await watchedPage(browser, t.url);
    // The page's timers stand still: it shows the run as it was when the other reviewer decided.
    await page.clock.install();
    await signInAsAdmin(page, t, '#/review');
    await item(page, jobId, 2).getByRole('button', { name: 'Approve Story 2' }).waitFor();
    const elsewhere = await t.request<Body>('POST', `/jobs/${jobId}/approve`, { body: {} });
    assert.is(elsewhere.status, 200, JSON.stringify(elsewhere.body));
    assert.is((await jobIn(t, jobId, ['completed', 'failed'])).status, 'completed');
    assert.equal(remote.posted, ids(1, 2, 3));

    const sent = page.waitForResponse((r) => r.request().method() === 'POST' && r.url().endsWith(`/jobs/${jobId}/approve`));
    await item(page, jobId, 2).getByRole('button', { name: 'Approve Story 2' }).click();
    assert.is((await sent).status(), 409);
    const refusal = card(page, jobId).getByRole('alert').filter({ hasText: '(job_not_waiting)' });
    await refusal.waitFor();
    assert.match(await refusal.innerText(), new RegExp(`^Job ${jobId} is completed; only a waiting job can be approved or rejected`));
    // Re-read after the refusal: the page shows the decisions the other reviewer made.
    await item(page, jobId, 2).getByText('Approved by admin').waitFor();
    await card(page, jobId).locator('h2 .status').filter({ hasText: 'completed' }).waitFor();
    assert.ok(await refusal.isVisible(), 'the refusal stays where it was said');
    assert.equal(remote.posted, ids(1, 2, 3), 'no second post');
    await page.screenshot({ path: `test-output/console/review-refused-${store.label}.png`, fullPage: true });
    assert.equal(unexpected(problems), []);
    await page.close();
  });

  test('the runs list filters waiting runs; a waiting run’s page shows its items, and Reject all (asked in place) publishes nothing', async ({
    t,
    browser,
    remote,
  }) => {
    const jobId = await waitingJob(t, 'Listed');
    const { page, problems } = await watchedPage(browser, t.url);
    await signInAsAdmin(page, t, '#/jobs');
    await page.getByLabel('Status').selectOption('waiting');
    const row = page.getByRole('row').filter({ has: page.getByRole('link', { name: String(jobId), exact: true }) });
    await row.locator('.status').filter({ hasText: 'waiting' }).waitFor();
    assert.match(await row.innerText(), /3 items to review/);
    assert.ok(await row.getByRole('button', { name: 'Cancel run' }).isVisible(), 'a waiting run may be cancelled (the API allows it)');
    assert.ok(page.url().endsWith('#/jobs?status=waiting'), page.url());
    await row.getByRole('link', { name: String(jobId), exact: true }).click();

    const section = page.getByRole('region', { name: 'Review' });
    await section.getByText('This run waits for 3 items to be approved or rejected.').waitFor();
    assert.equal(await section.getByRole('listitem').locator('h3').allInnerTexts(), ['Story 1', 'Story 2', 'Story 3']);
    await section.getByRole('button', { name: 'Reject all (3)' }).click();
    const question = section.getByRole('group', { name: `Reject the 3 pending items of job ${jobId}?` });
    await question.waitFor();
    assert.is((await jobIn(t, jobId, ['waiting'])).review.pending, 3, 'nothing decided before the answer');
    await question.getByRole('button', { name: 'Yes, reject all (3)' }).click();
    await section.getByRole('status').filter({ hasText: '3 items rejected; the run goes on' }).waitFor();
    const done = await jobIn(t, jobId, ['completed', 'failed']);
    assert.is(done.status, 'completed', JSON.stringify(done));
    assert.equal(remote.posted, [], 'a rejected item is not published');
    // The ended run's page keeps the review, each item with its decision.
    await page.locator('p .status').filter({ hasText: 'completed' }).waitFor();
    assert.is(await page.getByText('Rejected by admin').count(), 3);
    assert.equal(problems, []);
    await page.close();
  });

  test.run();
}
