// Issue 52, "the console loses work and strands people": a handler picked in a step's
// dropdown was lost on reload unless that step's own "Save settings" was pressed (four save
// buttons on one flow page, no warning); an editor saw the whole navigation and every page
// but Posts said "Sorry, you are not allowed to do that" without naming what it needs; and
// "Create user" preselected editor. In Debian's Chromium, as a user meets them.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { Browser, Dialog, Page } from 'playwright-core';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { roleCapabilities } from '../../../core/users/roles.js';
import { launchChromium } from '../../support/chromium.js';
import { signInAsAdmin, watchedPage } from '../../support/console-page.js';

type Ctx = { t: TestHost; browser: Browser; flowId: number; publishStep: string };
// page.evaluate's functions run in the page; the test build has no DOM types.
declare const location: { hash: string; reload(): void };
declare const document: { querySelector(selector: string): { value: string; validity: { valueMissing: boolean } } | null };

const test = suite<Ctx>('console: keeps your work, and shows each user what they may open');
test.before(async (ctx) => {
  ctx.t = await createTestHost({ plugins: [] });
  ctx.browser = await launchChromium('console-keeps-work');
  const pipeline = await ctx.t.request<{ data: { pipeline_id: number } }>('POST', '/pipelines', { body: { pipeline_name: 'Out' } });
  const pipelineId = pipeline.body.data.pipeline_id;
  await ctx.t.request('POST', `/pipelines/${pipelineId}/steps`, { body: { step_type: 'publish', execution_order: 0 } });
  const flow = await ctx.t.request<{ data: { flow_id: number } }>('POST', '/flows', {
    body: { pipeline_id: pipelineId, flow_name: 'Posts out' },
  });
  ctx.flowId = flow.body.data.flow_id;
});
test.after(async (ctx) => {
  await ctx.browser?.close();
  await ctx.t?.stop();
});

const storedHandler = async (ctx: Ctx) => {
  const flow = await ctx.t.request<{ data: { flow_config: Record<string, { handler_slug: string | null }> } }>(
    'GET',
    `/flows/${ctx.flowId}`,
  );
  return Object.values(flow.body.data.flow_config)[0]!.handler_slug;
};

/** The next dialog the page opens, answered by `answer`; none within 10 s fails the test. */
function nextDialog(page: Page, what: string, answer: (dialog: Dialog) => Promise<void>): Promise<{ type: string; message: string }> {
  return new Promise((resolve, reject) => {
    const none = setTimeout(() => reject(new Error(`the page opened no dialog (${what}) within 10 s`)), 10_000);
    page.once('dialog', (dialog) => {
      clearTimeout(none);
      resolve({ type: dialog.type(), message: dialog.message() });
      void answer(dialog);
    });
  });
}

test('a handler picked but not saved: the console and the browser ask before leaving; one Save changes keeps it', async (ctx) => {
  const { page, problems } = await watchedPage(ctx.browser, ctx.t.url);
  await signInAsAdmin(page, ctx.t, `#/flows/${ctx.flowId}`);
  await page.getByRole('heading', { name: 'Flow: Posts out' }).waitFor();
  const step = page.getByRole('region', { name: 'Step 1/1: publish' });
  const saveBar = page.getByRole('region', { name: 'Save changes' });
  await saveBar.getByText('No unsaved changes.').waitFor();
  assert.ok(await saveBar.getByRole('button', { name: 'Save changes' }).isDisabled(), 'nothing to save yet');
  // A real click first: Chromium shows beforeunload only on a page the user interacted with.
  await step.getByRole('heading').click();
  await step.getByLabel('Handler').selectOption('cms');
  await saveBar.getByText('Unsaved changes: Step 1 (publish).').waitFor();

  // Another page of the console: asked; "Cancel" keeps the page, its address and the choice.
  const asked = nextDialog(page, 'confirm', (d) => d.dismiss());
  await page.getByRole('link', { name: 'Runs', exact: true }).click();
  const confirm = await asked;
  assert.is(confirm.type, 'confirm');
  assert.match(confirm.message, /unsaved changes \(Step 1 \(publish\)\)/);
  assert.is(await page.evaluate(() => location.hash), `#/flows/${ctx.flowId}`);
  assert.ok(await page.getByRole('heading', { name: 'Flow: Posts out' }).isVisible());
  assert.is(await step.getByLabel('Handler').inputValue(), 'cms');

  // A reload (or a closed tab): the browser's own question (beforeunload), declined. The
  // reload is the page's own, as F5 is: a declined page.reload() would wait for its timeout.
  const unload = nextDialog(page, 'beforeunload', (d) => d.dismiss());
  await page.evaluate(() => void setTimeout(() => location.reload()));
  assert.is((await unload).type, 'beforeunload');
  assert.is(await step.getByLabel('Handler').inputValue(), 'cms');
  assert.is(await storedHandler(ctx), null, 'nothing saved until asked');

  // One save for the page; then leaving asks nothing (an unanswered dialog would keep the page).
  await saveBar.getByRole('button', { name: 'Save changes' }).click();
  await saveBar.getByRole('status').filter({ hasText: 'All changes saved.' }).waitFor();
  assert.is(await storedHandler(ctx), 'cms');
  await page.getByRole('link', { name: 'Runs', exact: true }).click();
  await page.getByRole('heading', { name: 'Runs' }).waitFor();
  await page.goBack();
  await page.getByRole('heading', { name: 'Flow: Posts out' }).waitFor();
  // The page draws its heading before the flow's steps have loaded: wait for the step's pick,
  // not for the heading (under load the select was read while still empty).
  const picked = step.getByLabel('Handler');
  for (const deadline = Date.now() + 10_000; (await picked.inputValue()) === '' && Date.now() < deadline; ) await page.waitForTimeout(50);
  assert.is(await step.getByLabel('Handler').inputValue(), 'cms', 'kept after leaving and coming back');
  assert.equal(problems, []);
  await page.close();
});

test('Sign out asks too; leaving anyway goes where asked and the unsaved choice is dropped, not saved', async (ctx) => {
  const { page, problems } = await watchedPage(ctx.browser, ctx.t.url);
  await signInAsAdmin(page, ctx.t, `#/flows/${ctx.flowId}`);
  const step = page.getByRole('region', { name: 'Step 1/1: publish' });
  await step.getByLabel('Handler').waitFor();
  await page.getByRole('region', { name: 'Save changes' }).getByText('No unsaved changes.').waitFor();
  await step.getByLabel('Handler').selectOption('federated');
  // Signing out would drop it too: asked, and declined, the user stays signed in on the page.
  const signOut = nextDialog(page, 'confirm', (d) => d.dismiss());
  await page.getByRole('button', { name: 'Sign out' }).click();
  assert.match((await signOut).message, /Step 1 \(publish\)/);
  assert.is(await step.getByLabel('Handler').inputValue(), 'federated');
  assert.ok(await page.getByRole('button', { name: 'Sign out' }).isVisible());
  const asked = nextDialog(page, 'confirm', (d) => d.accept());
  await page.getByRole('link', { name: 'Pipelines', exact: true }).click();
  assert.is((await asked).type, 'confirm');
  await page.getByRole('heading', { name: 'Pipelines' }).waitFor();
  assert.is(await storedHandler(ctx), 'cms');
  assert.equal(problems, []);
  await page.close();
});

test('an editor sees only the pages their capabilities open; another page names the capability it needs', async (ctx) => {
  const created = await ctx.t.request<{ data: { application_password: { password: string } } }>('POST', '/users', {
    body: { login: 'eddie', role: 'editor' },
  });
  const { page, problems } = await watchedPage(ctx.browser, ctx.t.url);
  await page.goto(`${ctx.t.url}/admin/`);
  await page.getByLabel('Login').fill('eddie');
  await page.getByLabel('Password').fill(created.body.data.application_password.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Choose your password' }).waitFor();
  await page.getByLabel('New password', { exact: true }).fill('editor password 1');
  await page.getByLabel('New password again').fill('editor password 1');
  await page.getByRole('button', { name: 'Save password' }).click();
  // The editor's start page is the one they may open.
  await page.getByRole('heading', { name: 'Posts' }).waitFor();
  const sections = page.getByRole('navigation', { name: 'Sections' }).getByRole('link');
  assert.equal(await sections.allInnerTexts(), ['Posts']);

  await page.goto(`${ctx.t.url}/admin/#/flows`);
  await page.getByRole('heading', { name: 'Flows' }).waitFor();
  const refused = await page.getByRole('alert').innerText();
  assert.match(refused, /needs the manage_options capability/);
  assert.match(refused, /your account \(editor\)/);
  assert.match(refused, /held by administrators/);
  await page.goto(`${ctx.t.url}/admin/#/logs`);
  await page.getByRole('heading', { name: 'Logs' }).waitFor();
  assert.match(await page.getByRole('alert').innerText(), /needs the view_logs capability.*or a user an administrator granted it to/);
  assert.not.match(await page.locator('main').innerText(), /Sorry, you are not allowed/);
  // Refused before any call: no 403 reached the page.
  assert.equal(problems, []);
  await page.close();
});

test('Create user preselects no role and says what each role opens in the console', async (ctx) => {
  const { page, problems } = await watchedPage(ctx.browser, ctx.t.url);
  await signInAsAdmin(page, ctx.t, '#/users');
  const form = page.getByRole('form', { name: 'New user' });
  await form.getByLabel('Login').fill('newcomer');
  assert.is(await form.getByLabel('Role').inputValue(), '');
  const help = await form.locator('#role-help').innerText();
  assert.match(help, /only administrators run flows from it/);
  assert.match(help, /administrator: the whole console/);
  assert.match(help, /editor: Posts only/);
  assert.match(help, /subscriber: no page of the console/);
  assert.is(await form.getByLabel('Role').getAttribute('aria-describedby'), 'role-help');
  // Without a role the browser keeps the form (the select is required): nothing is created.
  await form.getByRole('button', { name: 'Create user' }).click();
  assert.ok(await page.evaluate(() => document.querySelector('select[name=role]')!.validity.valueMissing));
  const users = await ctx.t.request<{ data: Array<{ login: string }> }>('GET', '/users');
  assert.not.ok(users.body.data.some((u) => u.login === 'newcomer'));
  await form.getByLabel('Role').selectOption('administrator');
  await form.getByRole('button', { name: 'Create user' }).click();
  await page.locator('.once .secret[data-secret="password"]').waitFor();
  assert.equal(problems, []);
  await page.close();
});

test("the console's table of what each role opens is the server's roles", async () => {
  const accessModule = new URL('../../../plugins/console/web/access.js', import.meta.url).href;
  const { ROLE_CAPABILITIES, SECTIONS } = (await import(accessModule)) as {
    ROLE_CAPABILITIES: Record<string, string[]>;
    SECTIONS: Array<{ capability: string }>;
  };
  assert.equal(Object.keys(ROLE_CAPABILITIES), Object.keys(roleCapabilities));
  const pageCaps = [...new Set(SECTIONS.map((s) => s.capability))];
  for (const [role, caps] of Object.entries(roleCapabilities)) {
    const held = pageCaps.filter((c) => (caps as readonly string[]).includes(c));
    assert.equal([...ROLE_CAPABILITIES[role]!].sort(), held.sort(), role);
  }
});

test.run();
