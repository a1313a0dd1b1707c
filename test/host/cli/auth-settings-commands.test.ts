// Issue 31: handler credentials (`flowhost auth`), site settings (`flowhost settings`) and a
// user's preference (`flowhost preferences`) from the command line, checked against what
// the host then stores.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string };
const test = suite<Ctx>('cli: auth, settings and preferences');
const run = (ctx: Ctx, args: string[]) => cliInProcess([...args, '--data-dir', ctx.dataDir]);
const json = async <T>(ctx: Ctx, args: string[]): Promise<T> => {
  const res = await run(ctx, [...args, '--json']);
  assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
};
type AuthStatus = { handler_slug: string; requires_auth: boolean; authenticated: boolean; account_details?: { username: string }; config_status: Record<string, string> };

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

  const saved = await run(ctx, ['auth', 'set', 'federated', '--field', 'handle=alice.example', '--field', 'password=abcd-efgh-ijkl-mnop']);
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
  assert.is(((await hostApi(ctx.dataDir, 'GET', '/settings')).body.data as { settings: Record<string, unknown> }).settings.problem_flow_threshold, 5);
});

test("preferences: a user's selected pipeline, set, shown and cleared", async (ctx) => {
  const pipelineId = (await json<{ pipeline_id: number }>(ctx, ['pipelines', 'create', 'Picked', '--step', 'fetch'])).pipeline_id;
  const set = await json<{ user_id: number; selected_pipeline_id: number | null }>(ctx, ['preferences', 'set', 'admin', '--pipeline', String(pipelineId)]);
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
