// `flowhost providers list | set-key | test` as a user runs them, against a fake model API
// (the CLI starts its own host on the data directory; the base URL comes from the config).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCliAsync } from '../../support/host-process.js';
import { createFakeModelApi, type FakeModelApi } from '../../support/fake-model-apis.js';

// Asynchronous: the fake API answers from this process while the CLI runs.
const cli = runCliAsync;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? filesUnder(join(dir, name)) : [join(dir, name)]));

type Ctx = { api: FakeModelApi; dataDir: string; env: Record<string, string> };
const test = suite<Ctx>('cli: flowhost providers');

test.before(async (ctx) => {
  ctx.api = await createFakeModelApi('openai', { validKey: 'sk-cli-test-0123456789wxyz' });
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-providers-'));
  const configFile = join(ctx.dataDir, 'flowhost.config.json');
  writeFileSync(configFile, JSON.stringify({ pluginSettings: { 'provider-openai': { base_url: ctx.api.baseUrl } } }));
  ctx.env = { FLOWHOST_CONFIG: configFile, FLOWHOST_LOG_LEVEL: 'warn' };
});
test.after(async (ctx) => {
  await ctx.api.server.close();
});

test('set-key reads the key from stdin, never argv; list shows it configured; test says OK', async ({ api, dataDir, env }) => {
  const set = await cli(['providers', 'set-key', 'openai', '--data-dir', dataDir], env, `${api.validKey}\n`);
  assert.is(set.status, 0, set.stderr);
  assert.match(set.stdout, /Saved the openai key \(••••••••wxyz\)/);
  assert.not.match(set.stdout + set.stderr, /0123456789/);
  // Sealed in the data directory: the key's text is nowhere in the store files.
  for (const file of filesUnder(dataDir)) assert.not.ok(readFileSync(file).includes('0123456789wxyz'), file);
  const list = await cli(['providers', 'list', '--json', '--data-dir', dataDir], env);
  assert.is(list.status, 0, list.stderr);
  const data = JSON.parse(list.stdout) as { providers: Record<string, { configured: boolean; models: string[] }> };
  assert.is(data.providers.openai!.configured, true);
  assert.equal(data.providers.openai!.models, ['gpt-4o', 'gpt-4o-mini']);
  assert.is(data.providers.anthropic!.configured, false);
  const table = await cli(['providers', 'list', '--data-dir', dataDir], env);
  assert.match(table.stdout, /openai\s+OpenAI\s+yes\s+2/);
  const ok = await cli(['providers', 'test', 'openai', '--data-dir', dataDir], env);
  assert.is(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /OpenAI accepted the API key/);
  assert.ok(api.server.requests.some((r) => r.headers.authorization === `Bearer ${api.validKey}`));
});

test("a wrong key: test prints the provider's own message and exits 1", async ({ dataDir, env }) => {
  const set = await cli(['providers', 'set-key', 'openai', '--data-dir', dataDir], env, 'sk-wrong-key\n');
  assert.is(set.status, 0, set.stderr);
  const wrong = await cli(['providers', 'test', 'openai', '--json', '--data-dir', dataDir], env);
  assert.is(wrong.status, 1);
  const result = JSON.parse(wrong.stdout) as { ok: boolean; code: string; message: string };
  assert.is(result.code, 'key_refused');
  assert.match(result.message, /OpenAI refused the API key \(HTTP 401\): Incorrect API key provided/);
  const none = await cli(['providers', 'test', 'grok', '--data-dir', dataDir], env);
  assert.is(none.status, 1);
  assert.match(none.stdout, /no API key/);
});

test('an empty stdin is refused; an unknown provider is an error; --clear removes the key', async ({ dataDir, env }) => {
  const empty = await cli(['providers', 'set-key', 'openai', '--data-dir', dataDir], env, '');
  assert.is.not(empty.status, 0);
  assert.match(empty.stderr, /No key on standard input/);
  const unknown = await cli(['providers', 'set-key', 'nope', '--data-dir', dataDir], env, 'k\n');
  assert.is.not(unknown.status, 0);
  assert.match(unknown.stderr, /no AI provider 'nope'/);
  const cleared = await cli(['providers', 'set-key', 'openai', '--clear', '--data-dir', dataDir], env);
  assert.is(cleared.status, 0, cleared.stderr);
  const list = JSON.parse((await cli(['providers', 'list', '--json', '--data-dir', dataDir], env)).stdout) as {
    providers: Record<string, { configured: boolean }>;
  };
  assert.is(list.providers.openai!.configured, false);
});

test.run();
