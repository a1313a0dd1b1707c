// `flowhost providers list | set-key | test` as a user runs them, against a fake model API:
// in process on every store against a host on the data directory (the base URL comes from
// its config), and spawned once with no host (the CLI starts its own, reading FLOWHOST_CONFIG)
// so the key is read from a real stdin and sealed in the data directory.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliAsync } from '../../support/host-process.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, offlineOpenRouter, type FakeModelApi } from '../../support/fake-model-apis.js';

const VALID_KEY = 'sk-cli-test-0123456789wxyz';

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

for (const store of testStores('cli: flowhost providers')) {
  type Ctx = { api: FakeModelApi; host: Host; dataDir: string };
  const test = suite<Ctx>(`cli: flowhost providers (${store.label})`);
  const cli = (ctx: Ctx, args: string[], stdin?: string) => runCli(ctx, args, { stdin });

  test.before(async (ctx) => {
    ctx.api = await createFakeModelApi('openai', { validKey: VALID_KEY });
    Object.assign(
      ctx,
      await startCliHost({ ...store.config(), pluginSettings: { ...offlineOpenRouter, 'provider-openai': { base_url: ctx.api.baseUrl } } }),
    );
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    await ctx.api.server.close();
  });

  test('set-key reads the key from stdin, never argv; list shows it configured; test says OK', async (ctx) => {
    const { api, dataDir } = ctx;
    const set = await cli(ctx, ['providers', 'set-key', 'openai'], `${api.validKey}\n`);
    assert.is(set.status, 0, set.stderr);
    assert.match(set.stdout, /Saved the openai key \(••••••••wxyz\)/);
    assert.not.match(set.stdout + set.stderr, /0123456789/);
    // Sealed in the data directory: the key's text is nowhere in the store files.
    for (const file of filesUnder(dataDir)) assert.not.ok(readFileSync(file).includes('0123456789wxyz'), file);
    const list = await cli(ctx, ['providers', 'list', '--json']);
    assert.is(list.status, 0, list.stderr);
    const data = JSON.parse(list.stdout) as { providers: Record<string, { configured: boolean; models: string[] }> };
    assert.is(data.providers.openai!.configured, true);
    assert.equal(data.providers.openai!.models, ['gpt-4o', 'gpt-4o-mini']);
    assert.is(data.providers.anthropic!.configured, false);
    const table = await cli(ctx, ['providers', 'list']);
    assert.match(table.stdout, /openai\s+OpenAI\s+yes\s+2/);
    const ok = await cli(ctx, ['providers', 'test', 'openai']);
    assert.is(ok.status, 0, ok.stderr);
    assert.match(ok.stdout, /OpenAI accepted the API key/);
    assert.ok(api.server.requests.some((r) => r.headers.authorization === `Bearer ${api.validKey}`));
  });

  test("a wrong key: test prints the provider's own message and exits 1", async (ctx) => {
    const set = await cli(ctx, ['providers', 'set-key', 'openai'], 'sk-wrong-key\n');
    assert.is(set.status, 0, set.stderr);
    const wrong = await cli(ctx, ['providers', 'test', 'openai', '--json']);
    assert.is(wrong.status, 1);
    const result = JSON.parse(wrong.stdout) as { ok: boolean; code: string; message: string };
    assert.is(result.code, 'key_refused');
    assert.match(result.message, /OpenAI refused the API key \(HTTP 401\): Incorrect API key provided/);
    const none = await cli(ctx, ['providers', 'test', 'grok']);
    assert.is(none.status, 1);
    assert.match(none.stdout, /no API key/);
  });

  test('an empty stdin is refused; an unknown provider is an error; --clear removes the key', async (ctx) => {
    const empty = await cli(ctx, ['providers', 'set-key', 'openai'], '');
    assert.is.not(empty.status, 0);
    assert.match(empty.stderr, /No key on standard input/);
    const unknown = await cli(ctx, ['providers', 'set-key', 'nope'], 'k\n');
    assert.is.not(unknown.status, 0);
    assert.match(unknown.stderr, /no AI provider 'nope'/);
    const cleared = await cli(ctx, ['providers', 'set-key', 'openai', '--clear']);
    assert.is(cleared.status, 0, cleared.stderr);
    const list = JSON.parse((await cli(ctx, ['providers', 'list', '--json'])).stdout) as {
      providers: Record<string, { configured: boolean }>;
    };
    assert.is(list.providers.openai!.configured, false);
  });

  test.run();
}

// Spawned (asynchronous: the fake API answers from this process while the CLI runs), with no
// host on the data directory: the real stdin, the CLI's own host reading FLOWHOST_CONFIG, and
// the key sealed in the embedded store's files. One command: the rest is checked in process.
const spawned = suite<{ api: FakeModelApi }>('cli: flowhost providers, spawned, no host');
spawned.before(async (ctx) => {
  ctx.api = await createFakeModelApi('openai', { validKey: VALID_KEY });
});
spawned.after(async (ctx) => {
  await ctx.api.server.close();
});
spawned('set-key reads the key from the real stdin into a store no host holds', async ({ api }) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-providers-'));
  const configFile = join(dataDir, 'flowhost.config.json');
  writeFileSync(configFile, JSON.stringify({ pluginSettings: { 'provider-openai': { base_url: api.baseUrl } } }));
  const env = { FLOWHOST_CONFIG: configFile, FLOWHOST_LOG_LEVEL: 'warn' };
  const set = await runCliAsync(['providers', 'set-key', 'openai', '--init', '--data-dir', dataDir], env, `${api.validKey}\n`);
  assert.is(set.status, 0, set.stderr);
  assert.match(set.stdout, /Saved the openai key \(••••••••wxyz\)/);
  assert.not.match(set.stdout + set.stderr, /0123456789/);
  for (const file of filesUnder(dataDir)) assert.not.ok(readFileSync(file).includes('0123456789wxyz'), file);
});
spawned.run();
