// The console's settings, AI providers and chat views in Debian's Chromium, against a fake
// OpenAI-compatible API on 127.0.0.1: a setting changed through the form is stored; the
// API's refusal of a value is shown beside its field; a provider key is saved write-only
// (it never reaches the page or any answer), tested, and the default model chosen; a chat
// message runs a tool call, stops at the turn limit, continues, and the session is deleted.
// A page error, console error or failed request fails a test (test/support/console-page.ts).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signIn, watchedPage } from '../../support/console-page.js';
import {
  createFakeModelApi,
  offlineOpenRouter,
  pluginSettingsFor,
  textReply,
  toolCallReply,
  type FakeModelApi,
} from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Ctx = { t: TestHost; browser: Browser; openai: FakeModelApi };
const PASSWORD = 'correct horse battery';

const test = suite<Ctx>('console: settings, AI providers and chat in Chromium');
test.before(async (ctx) => {
  ctx.openai = await createFakeModelApi('openai');
  // One model call per chat request, so the turn limit and Continue are reached with one tool call.
  ctx.t = await createTestHost({
    plugins: [],
    config: { pluginSettings: { ...offlineOpenRouter, ...pluginSettingsFor([ctx.openai], { max_retries: 0 }) } },
  });
  assert.is((await ctx.t.request('PUT', '/settings', { body: { max_turns: 1 } })).status, 200);
  // The admin's own password (what the console's first sign-in asks for), set through the API.
  assert.is((await ctx.t.request('PUT', '/session/password', { body: { password: PASSWORD } })).status, 200);
  ctx.browser = await launchChromium('console settings');
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
  await ctx.openai?.server.close();
});

test('a setting changed in the form is stored through a partial PATCH, and shown after a reload', async ({ t, browser }) => {
  const { page, problems } = await watchedPage(browser, t.url);
  await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/settings');
  await page.getByRole('heading', { name: 'Settings' }).waitFor();
  const threshold = page.getByLabel('Problem-flow threshold');
  assert.is(await threshold.inputValue(), '3', 'the stored value (the default)');
  assert.is(await threshold.getAttribute('type'), 'number', 'typed by its value');
  await threshold.fill('7');
  await page.getByLabel('Keep log entries (days)').fill('45');
  const patch = page.waitForRequest((r) => r.method() === 'PATCH' && r.url().endsWith('/settings'));
  await page.getByRole('button', { name: 'Save settings' }).click();
  assert.equal((await patch).postDataJSON(), { problem_flow_threshold: 7, log_retention_days: 45 }, 'only what changed is sent');
  await page.getByRole('status').filter({ hasText: 'Settings saved.' }).waitFor();

  const stored = await t.request<Body>('GET', '/settings');
  assert.is(stored.body.data.settings.problem_flow_threshold, 7);
  assert.is(stored.body.data.settings.log_retention_days, 45);
  assert.is(stored.body.data.settings.flows_per_page, 20, 'the others untouched');

  await page.reload();
  assert.is(await page.getByLabel('Problem-flow threshold').inputValue(), '7');
  await page.screenshot({ path: 'test-output/console/settings.png', fullPage: true });
  assert.equal(problems, []);
  await page.close();
});

test("an invalid value: the API's error is shown beside the field it names, and nothing is stored", async ({ t, browser }) => {
  const { page, problems } = await watchedPage(browser, t.url);
  await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/settings');
  const field = page.getByLabel('Flows per page');
  await field.fill('0');
  await page.getByRole('button', { name: 'Save settings' }).click();
  const note = page.locator('#setting-flows_per_page-error').getByRole('alert');
  await note.waitFor();
  assert.match(await note.innerText(), /flows_per_page must be >= 1 \(rest_invalid_param\)/);
  assert.is(await field.getAttribute('aria-invalid'), 'true');
  assert.match((await field.getAttribute('aria-describedby')) ?? '', /setting-flows_per_page-error/, 'the field points at its error');
  assert.is(await page.getByRole('alert').count(), 1, 'shown once, at the field');
  assert.is((await t.request<Body>('GET', '/settings')).body.data.settings.flows_per_page, 20);
  assert.equal(
    problems.filter((p) => !p.startsWith('400 PATCH') && !p.includes('status of 400')),
    [],
  );
  assert.ok(problems.length > 0, 'the 400 was the API refusing it');
  await page.close();
});

test('a provider key is saved write-only, never seen again, the test call passes, and the default model is chosen from the list', async ({
  t,
  browser,
  openai,
}) => {
  const { page, problems } = await watchedPage(browser, t.url);
  // Every answer the page receives, to look for the key in.
  const bodies: Array<Promise<string>> = [];
  page.on('response', (response) =>
    bodies.push(
      response.body().then(
        (b) => b.toString('utf8'),
        () => '',
      ),
    ),
  );
  await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/providers');
  const card = page.getByRole('region', { name: 'OpenAI' });
  await card.waitFor();
  assert.match(await card.innerText(), /API key: not set/);
  const input = card.getByLabel('API key', { exact: true });
  assert.is(await input.getAttribute('type'), 'password');
  assert.is(await input.getAttribute('autocomplete'), 'off');
  await input.fill(openai.validKey);
  await card.getByRole('button', { name: 'Save key' }).click();
  await card.getByRole('status').filter({ hasText: 'Key saved.' }).waitFor();
  await card.getByText('API key: set').waitFor();
  assert.is(await card.getByLabel('Replace the API key').inputValue(), '', 'the field is emptied');
  assert.is((await t.request<Body>('GET', '/providers')).body.data.providers.openai.configured, true, 'stored');

  await card.getByRole('button', { name: 'Test' }).click();
  const result = card.getByRole('status').filter({ hasText: /^Test (passed|failed)/ });
  await result.waitFor();
  assert.match(await result.innerText(), /^Test passed/);
  assert.ok(
    openai.server.requests.some((r) => r.url.startsWith('/v1/models') && r.headers.authorization === `Bearer ${openai.validKey}`),
    'the test reached the fake with the key',
  );

  // The defaults: the model list is the service's own now that a key is set.
  const defaults = page.getByRole('form', { name: 'Default provider and model' });
  await defaults.getByLabel('Default provider').selectOption('openai');
  await page.waitForFunction(() =>
    [
      ...(globalThis as unknown as { document: { querySelectorAll(s: string): Array<{ value: string }> } }).document.querySelectorAll(
        'select[name=default_model] option',
      ),
    ].some((o) => o.value === 'gpt-4o'),
  );
  await defaults.getByLabel('Default model').selectOption('gpt-4o');
  await defaults.getByRole('button', { name: 'Save defaults' }).click();
  await defaults.getByRole('status').filter({ hasText: 'Defaults saved.' }).waitFor();
  const settings = (await t.request<Body>('GET', '/settings')).body.data.settings;
  assert.is(settings.default_provider, 'openai');
  assert.is(settings.default_model, 'gpt-4o');

  await page.screenshot({ path: 'test-output/console/providers.png', fullPage: true });
  const texts = await Promise.all(bodies);
  assert.ok(texts.length > 5, 'the answers were recorded');
  assert.ok(
    texts.every((text) => !text.includes(openai.validKey)),
    'no answer carries the key',
  );
  assert.not.ok((await page.content()).includes(openai.validKey), 'the page does not show it');
  assert.not.ok((await page.content()).includes(openai.validKey.slice(-4)), 'not even its end, as the masked form would');
  assert.equal(problems, []);
  await page.close();
});

test('a chat message runs a tool call shown by its name; at the turn limit Continue gets the answer; the session is listed, reopened and deleted', async ({
  t,
  browser,
  openai,
}) => {
  assert.is((await t.request('PATCH', '/settings', { body: { ai_provider_keys: { openai: openai.validKey } } })).status, 200);
  const { page, problems } = await watchedPage(browser, t.url);
  await signIn(page, t.url, { login: 'admin', password: PASSWORD }, '#/chat');
  await page.getByRole('heading', { name: 'Chat' }).waitFor();
  openai.script.push(
    toolCallReply('openai', 'call_1', 'create_pipeline', { name: 'Console news', steps: ['fetch', 'publish'] }),
    textReply('openai', 'I made the pipeline Console news.'),
  );

  await page.getByLabel('Message', { exact: true }).fill('Make me a news pipeline');
  const sent = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/chat'));
  await page.getByRole('button', { name: 'Send' }).click();
  const request = await sent;
  assert.equal(request.postDataJSON(), { message: 'Make me a news pipeline' });
  assert.match(request.headers()['x-request-id'] ?? '', /^[a-f0-9]{32}$/, 'a fresh X-Request-ID');

  const log = page.getByRole('list', { name: 'Conversation' });
  await log.locator('.tool-name').filter({ hasText: 'create_pipeline' }).waitFor();
  assert.match(await log.innerText(), /You[\s\S]*Make me a news pipeline/);
  assert.match(await log.innerText(), /Result of create_pipeline: ok/);
  assert.match(page.url(), /#\/chat\/[a-f0-9-]+$/, 'the session has an address');
  const pipelines = await t.request<Body>('GET', '/pipelines');
  assert.ok(JSON.stringify(pipelines.body).includes('Console news'), 'the tool ran');

  await page.getByText('stopped at the turn limit').waitFor();
  const cont = page.waitForRequest((r) => r.method() === 'POST' && r.url().endsWith('/chat/continue'));
  await page.getByRole('button', { name: 'Continue' }).click();
  assert.is((await cont).postDataJSON().session_id, page.url().split('/').pop());
  await log.getByText('I made the pipeline Console news.').waitFor();
  assert.not.ok(await page.getByRole('button', { name: 'Continue' }).isVisible(), 'completed: nothing to continue');
  await page.screenshot({ path: 'test-output/console/chat.png', fullPage: true });

  const sessions = page.getByRole('complementary', { name: 'Your chat sessions' });
  await sessions.getByRole('link', { name: 'Make me a news pipeline' }).waitFor();
  // Reopened from its address in a fresh load: the conversation is read back.
  await page.reload();
  await page.getByRole('list', { name: 'Conversation' }).getByText('I made the pipeline Console news.').waitFor();

  await sessions.getByRole('button', { name: 'Delete' }).click();
  await sessions.getByRole('button', { name: 'Yes, delete' }).click();
  await sessions.getByText('No sessions yet.').waitFor();
  assert.match(page.url(), /#\/chat$/);
  assert.is((await t.request<Body>('GET', '/chat/sessions')).body.data.total, 0);
  assert.equal(problems, []);
  await page.close();
});

test.run();
