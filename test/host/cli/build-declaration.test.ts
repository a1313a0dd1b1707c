// One build, one truth (issue 54): a team's build declared in a flowhost.build.json is what
// `serve`, `plugins list` and every command that starts a host load; the stock CLI on that
// team's data directory refuses instead of creating the plugins' collections and jobs.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { MongoClient } from 'mongodb';
import { cliInProcess } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import { repoRoot, startHostProcess, waitForExit } from '../../support/host-process.js';
import { buildDefaultHost } from '../../../host/default-build.js';
import { findBuild } from '../../../host/build/build-declaration.js';
import { resolveBuild } from '../../../host/build/build-plugins.js';
import { loadConfig } from '../../../host/config/load-config.js';
import { DATABASE_FILE } from '../../../host/runtime/data-dir-files.js';
import { defaultManifests } from '../../../plugins/manifests.js';
import { corePlugins } from '../../../core/core-plugins.js';

const LEFT_OUT = ['chat', 'global-tools', 'billing', 'docsync'];
// Every host also runs the core plugins (users, content, engine...), first.
const TEAM_PLUGINS = [...corePlugins.map((p) => p.id), ...defaultManifests.map((m) => m.id).filter((id) => !LEFT_OUT.includes(id))];

function declare(content: unknown): string {
  const file = join(mkdtempSync(join(tmpdir(), 'flowhost-build-')), 'flowhost.build.json');
  writeFileSync(file, JSON.stringify(content));
  return file;
}

/** The collections of the store and the names of the jobs in Agenda's collection. */
async function storeTrace(dataDir: string, mongodbUrl: string | undefined): Promise<{ collections: string[]; jobs: string[] }> {
  if (mongodbUrl) {
    const client = await MongoClient.connect(mongodbUrl);
    try {
      const db = client.db();
      const collections = (await db.listCollections().toArray()).map((c) => c.name);
      const jobs = (await db.collection('agenda_jobs').find({}).toArray()).map((j) => String(j.name));
      return { collections, jobs };
    } finally {
      await client.close();
    }
  }
  const db = new Database(join(dataDir, DATABASE_FILE), { readonly: true });
  try {
    const tables = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'c\\_%' ESCAPE '\\'").all() as Array<{
      name: string;
    }>;
    const collections = tables.map((t) => t.name.slice(2));
    const jobs = collections.includes('agenda_jobs')
      ? (db.prepare('SELECT doc FROM "c_agenda_jobs"').all() as Array<{ doc: string }>).map((r) => String(JSON.parse(r.doc).name))
      : [];
    return { collections, jobs };
  } finally {
    db.close();
  }
}

for (const store of testStores('cli: a declared build')) {
  const test = suite(`cli: a declared build (${store.label})`);

  test("served, listed as it runs; the stopped host's CLI uses it and leaves no other plugin's data; the stock CLI refuses", async () => {
    const build = declare({ builtins: { exclude: LEFT_OUT } });
    const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-build-data-'));
    const storeConfig = store.config();
    const mongo: Record<string, string> = storeConfig.mongodbUrl ? { MONGODB_URL: storeConfig.mongodbUrl } : {};
    const config = loadConfig({ env: {}, overrides: { dataDir, port: 0, host: '127.0.0.1', logLevel: 'silent', ...storeConfig } });
    const host = await buildDefaultHost(config, { build: findBuild(build) });
    await host.start();
    try {
      // No --build: the list is the running host's, whatever the CLI would build itself.
      const listed = await cliInProcess(['plugins', 'list', '--json', '--data-dir', dataDir]);
      assert.is(listed.status, 0, listed.stderr);
      assert.equal(
        (JSON.parse(listed.stdout) as Array<{ id: string }>).map((p) => p.id),
        TEAM_PLUGINS,
      );
    } finally {
      await host.stop();
    }

    const flows = await cliInProcess(['flows', 'list', '--json', '--data-dir', dataDir, '--build', build], { env: mongo });
    assert.is(flows.status, 0, flows.stderr);
    assert.ok(Array.isArray(JSON.parse(flows.stdout)), flows.stdout);

    const stock = await cliInProcess(['flows', 'list', '--data-dir', dataDir], { env: mongo });
    assert.is(stock.status, 1, stock.stdout);
    assert.match(
      stock.stderr,
      /last served by another build: the stock build would load chat, global-tools, billing, docsync, which it did not run/,
    );
    assert.match(stock.stderr, /--build <file> or FLOWHOST_BUILD/);
    assert.match(stock.stderr, /\(build_mismatch\)/);
    if (storeConfig.mongodbUrl) {
      // Another machine's command: its own data directory, the same database.
      const elsewhere = mkdtempSync(join(tmpdir(), 'flowhost-build-elsewhere-'));
      const remote = await cliInProcess(['flows', 'list', '--data-dir', elsewhere], { env: mongo });
      assert.is(remote.status, 1, remote.stdout);
      assert.match(
        remote.stderr,
        /The database was last served by another build: the stock build would load chat, global-tools, billing, docsync/,
      );
    }

    const trace = await storeTrace(dataDir, storeConfig.mongodbUrl);
    assert.ok(trace.collections.includes('agenda_jobs'), `the host wrote its store: ${trace.collections.join(', ')}`);
    const foreign = trace.collections.filter((name) => /^(chat|billing|docsync|global-tools)__/.test(name));
    assert.equal(foreign, [], 'no collection of a plugin the build leaves out');
    assert.equal(
      trace.jobs.filter((name) => /^(chat|billing|docsync):/.test(name)),
      [],
      'no job of a plugin the build leaves out',
    );

    // No host: the list is the declaration's, and says so.
    const declared = await cliInProcess(['plugins', 'list', '--json', '--data-dir', dataDir, '--build', build]);
    assert.is(declared.status, 0, declared.stderr);
    assert.match(declared.stderr, /no host runs on .*; listing the build declared in .*flowhost\.build\.json/);
    assert.equal(
      (JSON.parse(declared.stdout) as Array<{ id: string }>).map((p) => p.id),
      TEAM_PLUGINS,
    );
  });

  test.run();
}

const served = suite('cli: flowhost serve reads the declaration');

served('a spawned serve with FLOWHOST_BUILD runs the declared build, and plugins list shows it', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-build-serve-'));
  const running = await startHostProcess(dataDir, { FLOWHOST_BUILD: declare({ builtins: { exclude: LEFT_OUT } }) });
  try {
    const listed = await cliInProcess(['plugins', 'list', '--json', '--data-dir', dataDir]);
    assert.is(listed.status, 0, listed.stderr);
    assert.equal(
      (JSON.parse(listed.stdout) as Array<{ id: string }>).map((p) => p.id),
      TEAM_PLUGINS,
    );
    // What the CLI itself would build (the stock one) plays no part while a host runs.
    assert.is(listed.stderr, '');
  } finally {
    running.proc.kill('SIGTERM');
    assert.is(await waitForExit(running.proc), 0, running.output());
  }
});

served.run();

const bad = suite('cli: a bad build declaration');

bad('an unknown built-in id is refused, naming the field and the id', async () => {
  const build = declare({ builtins: { only: ['discovery', 'chatt'] } });
  const res = await cliInProcess(['plugins', 'list', '--build', build]);
  assert.is(res.status, 1);
  assert.match(res.stderr, /'builtins\.only\[1\]' names 'chatt', which is no default built-in/);
});

bad('an optional built-in under builtins is pointed to plugins', async () => {
  const res = await cliInProcess(['plugins', 'list', '--build', declare({ builtins: { exclude: ['alerts'] } })]);
  assert.is(res.status, 1);
  assert.match(res.stderr, /'alerts' is an optional built-in: name it in 'plugins'/);
});

bad('a wrong shape is refused, naming the field', async () => {
  const shape = await cliInProcess(['plugins', 'list', '--build', declare({ builtins: ['discovery'] })]);
  assert.is(shape.status, 1);
  assert.match(shape.stderr, /'builtins' must be "default", \{ "exclude": \[ids\] \} or \{ "only": \[ids\] \}/);
  const field = await cliInProcess(['plugins', 'list', '--build', declare({ plugin: ['alerts'] })]);
  assert.match(field.stderr, /'plugin' is not a field of a build/);
  const settings = await cliInProcess(['plugins', 'list', '--build', declare({ settings: { billing: 1 } })]);
  assert.match(settings.stderr, /'settings\.billing' must be an object/);
});

bad('settings for a plugin the build does not load are refused', async () => {
  const res = await cliInProcess(['plugins', 'list', '--build', declare({ builtins: { exclude: LEFT_OUT }, settings: { billing: {} } })]);
  assert.is(res.status, 1);
  assert.match(res.stderr, /'settings\.billing' is for a plugin this build does not load/);
});

bad('a declaration and FLOWHOST_PLUGINS together are refused', async () => {
  const res = await cliInProcess(['plugins', 'list', '--build', declare({})], { env: { FLOWHOST_PLUGINS: 'alerts' } });
  assert.is(res.status, 1);
  assert.match(res.stderr, /list alerts in the declaration's 'plugins' instead/);
});

bad('a missing declaration named by --build is refused', async () => {
  const res = await cliInProcess(['plugins', 'list', '--build', '/no/such/flowhost.build.json']);
  assert.is(res.status, 1);
  assert.match(res.stderr, /Build declaration \/no\/such\/flowhost\.build\.json does not exist \(from --build\)/);
});

bad.run();

const assembled = suite('cli: what a declaration assembles');

assembled("a plugin's nouns exist only in a build that loads it", async () => {
  const build = declare({ builtins: { exclude: LEFT_OUT } });
  const help = await cliInProcess(['--help', '--build', build]);
  assert.is(help.status, 0, help.stderr);
  assert.not.match(help.stdout, /flowhost billing/);
  assert.match((await cliInProcess(['--help'])).stdout, /flowhost billing <command>/);
  const without = await cliInProcess(['billing', 'plans', '--build', build]);
  assert.is(without.status, 2);
  assert.match(without.stderr, /Unknown arguments: billing, plans/);
});

assembled("the assistant's built-in nouns (chat, tools) exist only in a build that loads chat and global-tools", async () => {
  // Issue 54's trial: a team build without chat still listed `flowhost chat` and `flowhost
  // tools`, whose every command then failed with rest_no_route from the host.
  const build = declare({ builtins: { exclude: LEFT_OUT } });
  const help = await cliInProcess(['--help', '--build', build]);
  assert.is(help.status, 0, help.stderr);
  assert.not.match(help.stdout, /flowhost chat/);
  assert.not.match(help.stdout, /flowhost tools/);
  const stock = (await cliInProcess(['--help'])).stdout;
  assert.match(stock, /flowhost chat /);
  assert.match(stock, /flowhost tools <verb>/);
  const chat = await cliInProcess(['chat', '--message', 'hi', '--build', build]);
  assert.is(chat.status, 2);
  assert.match(chat.stderr, /Unknown arguments: message, chat/);
  const tools = await cliInProcess(['tools', 'web-search', '--build', declare({ builtins: { exclude: ['global-tools'] } })]);
  assert.is(tools.status, 2);
  assert.match(tools.stderr, /Unknown arguments: tools, web-search/);
});

assembled("the declaration's settings are the build's defaults; the config's pluginSettings override them key by key", async () => {
  const file = declare({ plugins: ['alerts', './own/plugin.js'], settings: { rss: { a: 1, b: 2 } } });
  const config = loadConfig({ env: {}, overrides: { dataDir: ':memory:', pluginSettings: { rss: { b: 3 } } } });
  const refused = await resolveBuild(config, findBuild(file)).catch((error: Error) => error);
  // A path is relative to the declaration's folder, not to where the command runs.
  assert.match(
    String(refused),
    new RegExp(`Plugin '${join(dirname(file), 'own/plugin.js')}' \\(from build declaration ${file}\\) could not be loaded`),
  );
  const build = await resolveBuild(config, findBuild(declare({ plugins: ['alerts'], settings: { rss: { a: 1, b: 2 } } })));
  assert.equal(build.config.pluginSettings.rss, { a: 1, b: 3 });
  assert.is(build.entries.at(-1)?.id, 'alerts');
});

assembled('examples/custom-host declares the build its build.ts assembles', async () => {
  const file = join(repoRoot, 'examples/custom-host/flowhost.build.json');
  const build = await resolveBuild(loadConfig({ env: {}, overrides: { dataDir: ':memory:' } }), findBuild(file));
  assert.equal(
    build.entries.map((e) => e.id),
    [...defaultManifests.map((m) => m.id), 'hello'],
  );
  assert.equal(build.config.pluginSettings.hello, { greeting: 'Welcome' });
});

assembled.run();
