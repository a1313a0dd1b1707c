// A flow's webhook from the console, in Debian's Chromium: enable it, copy the token shown
// once, trigger the flow with the command the page shows and watch the run appear; a reload
// never shows the token again; regenerating refuses the old token at once; HMAC commands
// (every preset's) sign requests the host accepts; rotate and forget; rate limit; disable.
// A page error, console error or failed request of the page fails the test.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { promisify } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import webhookPresets from '../../../plugins/webhook-presets/index.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin as signIn, watchedPage as watchedConsolePage } from '../../support/console-page.js';
import { webhookEcho } from '../../support/webhook-echo.js';

type Ctx = { t: TestHost; browser: Browser; newFlow: (name: string) => Promise<number> };
const watchedPage = (ctx: Ctx, viewport?: { width: number; height: number }) => watchedConsolePage(ctx.browser, ctx.t.url, viewport);
type Body = { data: Record<string, unknown> } & Record<string, unknown>;
// page.evaluate's functions run in the page; the test build has no DOM types.
declare const localStorage: { length: number; key(i: number): string | null; getItem(k: string): string | null };
declare const sessionStorage: typeof localStorage;
declare const document: { documentElement: { scrollWidth: number } };
declare const window: { innerWidth: number };
declare const navigator: { clipboard: { readText(): Promise<string> } };

const { plugin: echo, triggerOf } = webhookEcho('console-webhook-echo', 'webhook-input');
const test = suite<Ctx>("console: a flow's webhook in Chromium, from enabling it to a run it started");
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [echo, webhookPresets] });
  ctx.browser = await launchChromium('console-webhooks');
  // Through the API: the pipeline and flow forms have their own suite.
  const pipeline = await ctx.t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', {
    body: { pipeline_name: 'Hooked', steps: [{ step_type: 'fetch' }] },
  });
  const pipelineId = pipeline.body.data.pipeline_id;
  const stepId = (
    await ctx.t.request<{ data: { pipeline: { pipeline_steps: Array<{ pipeline_step_id: string }> } } }>('GET', `/pipelines/${pipelineId}`)
  ).body.data.pipeline.pipeline_steps[0]!.pipeline_step_id;
  ctx.newFlow = async (name) => {
    const res = await ctx.t.request<{ data: { flow_id: number } }>('POST', '/flows', {
      body: { pipeline_id: pipelineId, flow_name: name, flow_config: { [stepId]: { handler_slug: 'webhook-input', handler_config: {} } } },
    });
    assert.is(res.status, 200, JSON.stringify(res.body));
    return res.body.data.flow_id;
  };
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

const panelOf = (page: Page) => page.getByRole('region', { name: 'Webhook' });
const shownOnce = (page: Page) => panelOf(page).getByRole('region', { name: 'Shown once' });
const commandOf = async (page: Page) => panelOf(page).getByLabel('Trigger command').innerText();

/** Sends the request the shown bearer command describes (its URL, header and body), from Node. */
async function sendBearer(command: string, token: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const url = /curl -X POST '([^']+)'/.exec(command)?.[1];
  const body = /--data-binary '([^']*)'/.exec(command)?.[1];
  assert.ok(url && body !== undefined, `a curl with a URL and a body: ${command}`);
  assert.match(command, /-H "Authorization: Bearer \$TOKEN"/);
  const res = await fetch(url, { method: 'POST', headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' }, body });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function openFlow(page: Page, t: TestHost, flowId: number, name: string): Promise<void> {
  await signIn(page, t, `#/flows/${flowId}`);
  await page.getByRole('heading', { name: `Flow: ${name}` }).waitFor();
}

test('bearer: enabled from the flow page, the token is shown once, the shown command starts a run the page lists; a reload never shows it again', async (ctx) => {
  const { t } = ctx;
  const flowId = await ctx.newFlow('Bearer hook');
  const { page, problems } = await watchedPage(ctx);
  await openFlow(page, t, flowId, 'Bearer hook');
  const panel = panelOf(page);
  await panel.getByLabel('Authentication').selectOption('bearer');
  await panel.getByRole('button', { name: 'Enable webhook' }).click();
  await page.getByRole('status').filter({ hasText: 'Webhook enabled.' }).waitFor();

  const token = await shownOnce(page).locator('code').innerText();
  assert.match(token, /^[0-9a-f]{64}$/);
  const url = `${t.url}/api/automation/v1/trigger/${flowId}`;
  assert.ok((await panel.innerText()).includes(url), 'the trigger URL is shown');
  const command = await commandOf(page);
  assert.ok(command.includes(`TOKEN='${token}'`), command);
  // Copy puts exactly the shown command on the clipboard.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: t.url });
  await panel.getByRole('button', { name: 'Copy command' }).click();
  await panel.getByText('Copied.').waitFor();
  assert.is(await page.evaluate(() => navigator.clipboard.readText()), command);

  // The request the command makes starts the flow; the page lists the run without a reload.
  const sent = await sendBearer(command, token);
  assert.is(sent.status, 200, JSON.stringify(sent.body));
  const jobId = sent.body.job_id as number;
  assert.equal((await triggerOf(jobId)).payload, { hello: 'world' });
  const run = page.locator('.runs li').filter({ hasText: `Job ${jobId}` });
  await run.getByText('completed', { exact: true }).waitFor({ timeout: 15_000 });
  // For docs/images (test-output/ is not committed).
  await panel.screenshot({ path: 'test-output/console/webhook.png' });

  // The API shows the token masked from now on, and so does the page after a reload.
  const status = await t.request<Body>('GET', `/flows/${flowId}/webhook`);
  assert.is(status.body.data.token, `••••••••${token.slice(-4)}`);
  await page.reload();
  await page.getByRole('heading', { name: 'Flow: Bearer hook' }).waitFor();
  await panel.getByText(`••••••••${token.slice(-4)}`).waitFor();
  assert.is(await shownOnce(page).count(), 0);
  assert.not.ok((await page.content()).includes(token), 'the token is nowhere in the page');
  assert.match(await commandOf(page), /TOKEN='<the token shown when it was made>'/);
  const stored = await page.evaluate(() => {
    const all: string[] = [];
    for (const store of [localStorage, sessionStorage])
      for (let i = 0; i < store.length; i++) all.push(`${store.key(i)}=${store.getItem(store.key(i)!)}`);
    return all.join('\n');
  });
  assert.not.ok(stored.includes(token), 'nor in the browser storage');
  // At a phone's width the URL and the command wrap instead of widening the page.
  await page.setViewportSize({ width: 390, height: 844 });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `overflows by ${overflow}px`);
  assert.equal(problems, []);
  await page.close();
});

test('regenerate refuses the old token at once and shows the new one; the rate limit applies; disable turns it off', async (ctx) => {
  const { t } = ctx;
  const flowId = await ctx.newFlow('Regenerated hook');
  const enabled = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: 'bearer' } });
  const old = enabled.body.data.token as string;
  const { page, problems } = await watchedPage(ctx);
  await openFlow(page, t, flowId, 'Regenerated hook');
  const panel = panelOf(page);
  await panel.getByText(`••••••••${old.slice(-4)}`).waitFor();
  assert.is(await shownOnce(page).count(), 0, 'a token made elsewhere is never shown');

  await panel.getByRole('button', { name: 'Regenerate token' }).click();
  await panel.getByRole('button', { name: 'Yes, regenerate token' }).click();
  await page.getByRole('status').filter({ hasText: 'Token regenerated.' }).waitFor();
  const fresh = await shownOnce(page).locator('code').innerText();
  assert.match(fresh, /^[0-9a-f]{64}$/);
  assert.is.not(fresh, old);
  const command = await commandOf(page);
  assert.is((await sendBearer(command, old)).status, 401, 'the old token is refused at once');
  assert.is((await sendBearer(command, fresh)).status, 200, 'the new one works');

  const limit = page.getByRole('form', { name: 'Rate limit' });
  await limit.getByLabel('Requests at most').fill('1');
  await limit.getByLabel('Window (seconds)').fill('60');
  await limit.getByRole('button', { name: 'Save rate limit' }).click();
  await page.getByRole('status').filter({ hasText: 'Rate limit saved.' }).waitFor();
  assert.equal((await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data.rate_limit, { max: 1, window_seconds: 60 });
  assert.ok(await shownOnce(page).isVisible(), 'saving the rate limit leaves the new token on screen');
  assert.is((await sendBearer(command, fresh)).status, 200);
  assert.is((await sendBearer(command, fresh)).status, 429, 'one per minute');

  await panel.getByRole('button', { name: 'Disable webhook' }).click();
  await panel.getByRole('button', { name: 'Yes, disable webhook' }).click();
  await page.getByRole('status').filter({ hasText: 'Webhook disabled.' }).waitFor();
  await panel.getByRole('button', { name: 'Enable webhook' }).waitFor();
  assert.is(await shownOnce(page).count(), 0);
  assert.is((await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data.enabled, false);
  assert.is((await sendBearer(command, fresh)).status, 401);
  assert.equal(problems, []);
  await page.close();
});

const exec = promisify(execFile);
/** Runs a shown command as a user pastes it into bash; answers the trigger's HTTP status and body. */
async function runInShell(script: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const { stdout } = await exec('bash', ['-c', `${script.replace(/\n(curl .*)$/, '\n$1 -s -w "\\n%{http_code}"')}`]);
  const lines = stdout.trim().split('\n');
  return { status: Number(lines.pop()), body: JSON.parse(lines.join('\n')) as Record<string, unknown> };
}

test('HMAC: the command shown for the generic template and every preset signs a request the flow accepts; rotate keeps the old secret, forget drops it', async (ctx) => {
  for (const tool of ['/usr/bin/curl', '/usr/bin/openssl'])
    assert.ok(
      existsSync(tool),
      `this test runs the shown command, which needs ${tool} (Debian: apt-get install -y curl openssl); it does not skip`,
    );
  const { t } = ctx;
  const flowId = await ctx.newFlow('Signed hook');
  const { page, problems } = await watchedPage(ctx);
  await openFlow(page, t, flowId, 'Signed hook');
  const panel = panelOf(page);
  const choices = [
    'hmac',
    ...(await t.request<{ data: Array<{ slug: string }> }>('GET', '/webhook-presets')).body.data.map((p) => `preset:${p.slug}`),
  ];
  assert.equal(choices, ['hmac', 'preset:github', 'preset:stripe', 'preset:shopify', 'preset:slack', 'preset:standard-webhooks']);
  for (const choice of choices) {
    await panel.getByLabel('Authentication').selectOption(choice);
    await panel.getByRole('button', { name: 'Enable webhook' }).click();
    await page.getByRole('status').filter({ hasText: 'Webhook enabled.' }).waitFor();
    const secret = await shownOnce(page).locator('code').innerText();
    const script = await commandOf(page);
    assert.ok(script.includes(secret), `${choice}: the command carries the secret`);
    assert.match(await panel.innerText(), /Signature: HMAC-SHA256 of/);
    const sent = await runInShell(script);
    assert.is(sent.status, 200, `${choice}: ${JSON.stringify(sent.body)}\n${script}`);
    assert.equal((await triggerOf(sent.body.job_id as number)).auth_mode, 'hmac');
    if (choice === choices[choices.length - 1]) break; // rotation goes on with the last one
    await panel.getByRole('button', { name: 'Disable webhook' }).click();
    await panel.getByRole('button', { name: 'Yes, disable webhook' }).click();
    await page.getByRole('status').filter({ hasText: 'Webhook disabled.' }).waitFor();
  }
  const oldScript = await commandOf(page);
  const oldId = (await t.request<{ data: { secrets: Array<{ id: string }> } }>('GET', `/flows/${flowId}/webhook`)).body.data.secrets[0]!.id;
  await panel.getByRole('button', { name: 'Rotate secret' }).click();
  await page.getByRole('status').filter({ hasText: 'Secret rotated.' }).waitFor();
  // The note comes before the panel reloads its list: wait for the list as a user sees it.
  await panel.locator('.secrets li').nth(1).waitFor();
  const newScript = await commandOf(page);
  assert.is.not(newScript, oldScript);
  assert.is(await panel.locator('.secrets li').count(), 2);
  assert.is((await runInShell(oldScript)).status, 200, 'the old secret keeps working after a rotation');
  assert.is((await runInShell(newScript)).status, 200);

  await panel.locator('.secrets li').filter({ hasText: oldId }).getByRole('button', { name: 'Forget' }).click();
  await panel.getByRole('button', { name: 'Yes, forget' }).click();
  await page.getByRole('status').filter({ hasText: 'Secret forgotten.' }).waitFor();
  await panel.locator('.secrets li').filter({ hasText: oldId }).waitFor({ state: 'detached' });
  assert.is(await panel.locator('.secrets li').count(), 1);
  assert.is((await runInShell(oldScript)).status, 401, 'a forgotten secret is refused');
  assert.is((await runInShell(newScript)).status, 200);
  assert.equal(problems, []);
  await page.close();
});

test.run();
