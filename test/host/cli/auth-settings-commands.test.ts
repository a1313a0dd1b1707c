// Issue 31: handler credentials (`flowhost auth`), site settings, scheduling intervals and
// handler defaults (`flowhost settings`), the web search key (`flowhost tools`) and a
// user's preference (`flowhost preferences`) from the command line, checked against what
// the host then stores.
import { suite } from 'uvu';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { runCliAsync } from '../../support/host-process.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string };
const test = suite<Ctx>('cli: auth, settings (intervals, handler defaults), tools web-search and preferences');
type AuthStatus = {
  handler_slug: string;
  requires_auth: boolean;
  authenticated: boolean;
  account_details?: { username: string };
  config_status: Record<string, string>;
};

test.before(async (ctx) => {
  Object.assign(ctx, await startCliHost({}));
});
test.after(async (ctx) => {
  await ctx.host.stop();
});

test('auth set saves an app password, status shows the account, delete disconnects it', async (ctx) => {
  const before = await json<AuthStatus>(ctx, ['auth', 'status', 'federated']);
  assert.equal([before.requires_auth, before.authenticated], [true, false]);

  const missing = await run(ctx, ['auth', 'set', 'federated', '--field', 'handle=alice.example']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /Missing required field: .*password/);

  // A secret field never goes on the command line: refused without echoing it; from a file it is read.
  const onArgv = await run(ctx, ['auth', 'set', 'federated', '--field', 'handle=alice.example', '--field', 'password=abcd-efgh-ijkl-mnop']);
  assert.is(onArgv.status, 1);
  assert.match(
    onArgv.stderr,
    /password is a secret, .*--field password=@<file>, or all fields as a JSON object on standard input with --stdin/,
  );
  assert.not.match(onArgv.stderr, /abcd-efgh/);
  const file = join(mkdtempSync(join(tmpdir(), 'flowhost-auth-')), 'password');
  writeFileSync(file, 'abcd-efgh-ijkl-mnop\n', { mode: 0o600 });
  const saved = await run(ctx, ['auth', 'set', 'federated', '--field', 'handle=alice.example', '--field', `password=@${file}`]);
  assert.is(saved.status, 0, saved.stderr);
  assert.not.match(saved.stdout, /abcd-efgh/, 'the secret is never printed');
  const stored = (await hostApi(ctx.dataDir, 'GET', '/auth/federated/status')).body.data as AuthStatus;
  assert.equal([stored.authenticated, stored.account_details?.username], [true, 'alice.example']);
  const text = await run(ctx, ['auth', 'status', 'federated']);
  assert.match(text.stdout, /federated: connected as alice\.example/);

  const refused = await run(ctx, ['auth', 'delete', 'federated']);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /--yes/);
  assert.is(((await hostApi(ctx.dataDir, 'GET', '/auth/federated/status')).body.data as AuthStatus).authenticated, true);
  const deleted = await run(ctx, ['auth', 'delete', 'federated', '--yes']);
  assert.is(deleted.status, 0, deleted.stderr);
  assert.is(((await hostApi(ctx.dataDir, 'GET', '/auth/federated/status')).body.data as AuthStatus).authenticated, false);
});

test('auth names a handler that needs no credentials, and refuses a malformed field', async (ctx) => {
  const rss = await run(ctx, ['auth', 'status', 'rss']);
  assert.is(rss.status, 0, rss.stderr);
  assert.match(rss.stdout, /rss needs no credentials/);
  const bad = await run(ctx, ['auth', 'set', 'federated', '--field', 'handle']);
  assert.is(bad.status, 1);
  assert.match(bad.stderr, /--field 'handle' is not <name>=<value>/);
});

test('settings show and set: values parse, unknown keys and bad values are refused', async (ctx) => {
  const shown = await json<{ settings: Record<string, unknown>; defaults: Record<string, unknown> }>(ctx, ['settings', 'show']);
  assert.is(shown.settings.problem_flow_threshold, 3);
  const set = await run(ctx, ['settings', 'set', 'problem_flow_threshold=5', 'default_model=gpt-4o-mini']);
  assert.is(set.status, 0, set.stderr);
  const stored = (await hostApi(ctx.dataDir, 'GET', '/settings')).body.data as { settings: Record<string, unknown> };
  assert.equal([stored.settings.problem_flow_threshold, stored.settings.default_model], [5, 'gpt-4o-mini']);
  assert.match((await run(ctx, ['settings', 'show'])).stdout, /problem_flow_threshold\s+5/);

  const unknown = await run(ctx, ['settings', 'set', 'colour=blue']);
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /colour/);
  const range = await run(ctx, ['settings', 'set', 'problem_flow_threshold=0']);
  assert.is(range.status, 1);
  assert.match(range.stderr, /problem_flow_threshold/);
  const keys = await run(ctx, ['settings', 'set', 'ai_provider_keys={"openai":"sk-x"}']);
  assert.is(keys.status, 1);
  assert.match(keys.stderr, /providers set-key/);
  assert.is(
    ((await hostApi(ctx.dataDir, 'GET', '/settings')).body.data as { settings: Record<string, unknown> }).settings.problem_flow_threshold,
    5,
  );
});

test('settings intervals lists the scheduling intervals the API has', async (ctx) => {
  const list = await json<Array<{ value: string; label: string; seconds: number | null }>>(ctx, ['settings', 'intervals']);
  assert.equal(list, (await hostApi(ctx.dataDir, 'GET', '/settings/scheduling-intervals')).body.data);
  assert.ok(list.some((i) => i.value === 'hourly' && i.seconds === 3600));
  assert.ok(list.some((i) => i.value === 'manual' && i.seconds === null));
  const table = await run(ctx, ['settings', 'intervals']);
  assert.match(table.stdout, /^INTERVAL\s+LABEL\s+SECONDS$/m);
  assert.match(table.stdout, /^hourly\s+Hourly\s+3600$/m);
  assert.match(table.stdout, /^manual\s+Manual only\s+-$/m);
  const extra = await run(ctx, ['settings', 'intervals', 'hourly']);
  // A usage error: 2, as the real CLI exits (buildCli's fail handler).
  assert.is(extra.status, 2);
  assert.match(extra.stderr, /Unknown argument: hourly/);
});

test('settings handler-defaults: set (merged), replaced, listed and deleted; secrets never printed; refusals change nothing', async (ctx) => {
  type Defaults = { handler_slug: string; settings: Record<string, unknown> };
  const stored = async () => ((await hostApi(ctx.dataDir, 'GET', '/settings/handler-defaults/cms-api')).body.data as Defaults).settings;
  assert.equal(await stored(), {});
  const secret = 'abcd-efgh-ijkl-mnop-qrst';
  // A secret never goes on the command line: --set refuses it, without echoing it.
  const onArgv = await run(ctx, ['settings', 'handler-defaults', 'cms-api', '--set', `app_password=${secret}`]);
  assert.is(onArgv.status, 1);
  assert.match(onArgv.stderr, /app_password is a secret, .*--set-secret app_password \(the value on standard input\)/);
  assert.not.match(onArgv.stderr, /abcd|qrst/);
  assert.equal(await stored(), {}, 'nothing was saved');
  const inline = await run(ctx, ['settings', 'handler-defaults', 'cms-api', '--set-secret', `app_password=${secret}`]);
  assert.is(inline.status, 1);
  assert.match(inline.stderr, /never on the command line/);
  assert.not.match(inline.stderr, /abcd|qrst/);
  const set = await run(
    ctx,
    ['settings', 'handler-defaults', 'cms-api', '--set', 'max_items=3', '--set-secret', 'app_password', '--set', 'username=alice'],
    { stdin: `${secret}\n` },
  );
  assert.is(set.status, 0, set.stderr);
  assert.match(set.stdout, /Handler defaults saved\./);
  assert.match(set.stdout, /^max_items\s+3$/m);
  assert.not.match(set.stdout, /abcd|qrst/, 'the password is never printed');
  const saved = await stored();
  assert.equal([saved.max_items, saved.username], [3, 'alice'], 'the number 3, not "3"');
  assert.ok(typeof saved.app_password === 'string' && saved.app_password.startsWith('••••'));
  // What standard input gave arrives whole, its line end dropped.
  assert.is((await ctx.host.flows.defaults.opened('cms-api')).app_password, secret);

  const merged = await json<Defaults>(ctx, ['settings', 'handler-defaults', 'cms-api', '--set', 'max_items=4', '--set', 'username=null']);
  assert.equal(merged.handler_slug, 'cms-api');
  assert.equal(Object.keys(merged.settings).sort(), ['app_password', 'max_items'], 'merged: app_password stays, null removes username');
  assert.is((await stored()).max_items, 4);
  const all = await json<Record<string, Record<string, unknown>>>(ctx, ['settings', 'handler-defaults']);
  assert.equal(Object.keys(all), ['cms-api']);
  assert.not.match(JSON.stringify(all), /abcd|qrst/);
  assert.match((await run(ctx, ['settings', 'handler-defaults'])).stdout, /^cms-api\s+max_items\s+4$/m);

  const tooMany = await run(ctx, ['settings', 'handler-defaults', 'cms-api', '--set', 'max_items=500']);
  assert.is(tooMany.status, 1);
  assert.match(tooMany.stderr, /^flowhost: Invalid defaults for handler 'cms-api': max_items must be <= 100 \(rest_invalid_param\)$/m);
  const unknown = await run(ctx, ['settings', 'handler-defaults', 'nope', '--set', 'max_items=1']);
  assert.is(unknown.status, 1);
  assert.match(unknown.stderr, /No handler 'nope' is registered \(handler_not_found\)/);
  const lone = await run(ctx, ['settings', 'handler-defaults', 'cms-api', '--replace']);
  assert.is(lone.status, 1);
  assert.match(lone.stderr, /--replace needs the new defaults/);
  assert.is((await stored()).max_items, 4, 'refusals change nothing');

  const replaced = await json<Defaults>(ctx, ['settings', 'handler-defaults', 'cms-api', '--replace', '--set', 'per_page=50']);
  assert.equal(replaced.settings, { per_page: 50 });
  assert.equal(await stored(), { per_page: 50 });

  const refused = await run(ctx, ['settings', 'handler-defaults', 'cms-api', '--delete']);
  assert.is(refused.status, 1);
  assert.match(refused.stderr, /Remove the defaults of handler cms-api \(per_page\): not confirmed .*--yes/);
  assert.equal(await stored(), { per_page: 50 });
  const deleted = await json<Defaults>(ctx, ['settings', 'handler-defaults', 'cms-api', '--delete', '--yes']);
  assert.equal(deleted, { handler_slug: 'cms-api', settings: {} });
  assert.equal(await stored(), {});
  assert.match((await run(ctx, ['settings', 'handler-defaults', 'cms-api'])).stdout, /cms-api: no defaults set/);
});

test('tools web-search: the key is read from stdin and shown masked as the API masks it; --clear removes it', async (ctx) => {
  type WebSearch = { configured: boolean; base_url: string; api_key: string };
  const stored = async () => (await hostApi(ctx.dataDir, 'GET', '/tools/web-search')).body.data as WebSearch;
  // stdin needs a process of its own; it reaches this suite's host through host.json.
  const piped = (args: string[], input: string) =>
    runCliAsync(['tools', 'web-search', 'set', ...args, '--data-dir', ctx.dataDir], {}, input);
  assert.is((await json<WebSearch>(ctx, ['tools', 'web-search'])).configured, false);
  assert.match((await run(ctx, ['tools', 'web-search', 'show'])).stdout, /^web_search: not configured/);

  const set = await piped([], 'brave-key-0123456789wxyz\n');
  assert.is(set.status, 0, set.stderr);
  assert.match(set.stdout, /Saved the web search key \(••••••••wxyz\)/);
  assert.not.match(set.stdout + set.stderr, /0123456789/);
  const saved = await stored();
  assert.equal([saved.configured, saved.api_key], [true, '••••••••wxyz']);
  assert.equal(await json<WebSearch>(ctx, ['tools', 'web-search', 'show']), saved);
  assert.match((await run(ctx, ['tools', 'web-search'])).stdout, /^web_search: configured \(key ••••••••wxyz; https?:\/\//);

  const tooLong = await piped(['--json'], `${'k'.repeat(5000)}\n`);
  assert.is(tooLong.status, 1);
  assert.is(tooLong.stdout, '');
  const refused = (JSON.parse(tooLong.stderr) as { error: { message: string; code: string } }).error;
  assert.is(refused.code, 'rest_invalid_param');
  assert.match(refused.message, /api_key/);
  const stray = await run(ctx, ['tools', 'web-search', 'show', '--clear']);
  assert.is(stray.status, 1);
  assert.match(stray.stderr, /--clear goes with set/);
  assert.is((await stored()).api_key, '••••••••wxyz', 'refusals keep the saved key');

  const cleared = await json<WebSearch>(ctx, ['tools', 'web-search', 'set', '--clear']);
  assert.equal([cleared.configured, cleared.api_key], [false, '']);
  assert.equal(await stored(), { ...saved, configured: false, api_key: '' });
});

test("preferences: a user's selected pipeline, set, shown and cleared", async (ctx) => {
  const pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Picked', '--step', 'fetch'])).pipeline_id;
  const set = await json<{ user_id: number; selected_pipeline_id: number | null }>(ctx, [
    'preferences',
    'set',
    'admin',
    '--pipeline',
    String(pipelineId),
  ]);
  assert.is(set.selected_pipeline_id, pipelineId);
  const stored = await hostApi(ctx.dataDir, 'GET', `/users/${set.user_id}`);
  assert.is(stored.body.selected_pipeline_id, pipelineId);
  assert.match((await run(ctx, ['preferences', 'show', 'admin'])).stdout, new RegExp(`admin: pipeline ${pipelineId}`));

  const missing = await run(ctx, ['preferences', 'set', 'admin', '--pipeline', '9999']);
  assert.is(missing.status, 1);
  assert.match(missing.stderr, /Pipeline 9999 does not exist/);
  const nobody = await run(ctx, ['preferences', 'show', 'nobody']);
  assert.is(nobody.status, 1);
  assert.match(nobody.stderr, /No user with login 'nobody'/);

  const cleared = await json<{ selected_pipeline_id: number | null }>(ctx, ['preferences', 'set', 'admin', '--clear']);
  assert.is(cleared.selected_pipeline_id, null);
  assert.is((await hostApi(ctx.dataDir, 'GET', `/users/${set.user_id}`)).body.selected_pipeline_id, null);
});

test.run();
