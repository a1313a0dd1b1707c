// Plugin migrations (issue 54) on both stores: steps run once per store, in order, before
// the plugin's setup, and are recorded; a failed step stops start-up naming the plugin and
// the step, and a later start resumes from it; a lock left by a killed host is taken over
// once its lease lapses; two hosts starting at once on one MongoDB database run each step
// exactly once. Side effects are counted in the plugin's own collection.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost, type Host } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { silentLogger, type Logger } from '../../../core/kernel/logger.js';
import { captureLogger } from '../../support/capture-logger.js';
import { definePlugin, services, type PluginMigration } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

const PLUGIN = 'migrate-probe';
const RUNS = 'migrate_probe_runs';

/** A step that records each run of itself (and optionally waits, or throws). */
function step(id: string, options: { waitMs?: number; fail?: string } = {}): PluginMigration {
  return {
    id,
    description: `step ${id}`,
    async up({ store, stepId }) {
      await store.collection(RUNS).insertOne({ step: stepId, at: new Date() });
      if (options.waitMs) await new Promise((done) => setTimeout(done, options.waitMs));
      if (options.fail) throw new Error(options.fail);
    },
  };
}

/** The probe plugin; its setup notes how many step runs it found (migrations ran first). */
function probe(migrations: PluginMigration[], seenAtSetup: number[] = []) {
  return definePlugin({
    id: PLUGIN,
    version: '1.0.0',
    flowhost: '^1.0.0',
    collections: [RUNS],
    migrations,
    deps: { store: services.store },
    async setup({ store }) {
      seenAtSetup.push(await store.collection(RUNS).count());
    },
  });
}

async function boot(
  config: Partial<HostConfig>,
  migrations: PluginMigration[],
  seen?: number[],
  logger: Logger = silentLogger,
): Promise<Host> {
  return createHost({
    plugins: [probe(migrations, seen)],
    // One plugin under test, not a whole build.
    coreApi: false,
    env: {},
    logger,
    config: { port: 0, logLevel: 'silent', ...config },
  });
}

async function bootAndStop(config: Partial<HostConfig>, migrations: PluginMigration[], seen?: number[]) {
  const host = await boot(config, migrations, seen);
  const runs = (await host.store.collection(RUNS).find({}, { sort: { at: 1 } })).map((d) => String(d.step));
  const record = await host.store.collection('plugin_migrations').findOne({ _id: PLUGIN });
  await host.stop();
  return { runs, record };
}

for (const store of testStores('host: plugin migrations')) {
  const test = suite(`host: plugin migrations (${store.label})`);
  const configOf = () => ({ ...store.config(), dataDir: mkdtempSync(join(tmpdir(), 'flowhost-migrate-')) });

  test('steps run once, in order, before setup, and are recorded; a later boot runs only a new step', async () => {
    const config = configOf();
    const seen: number[] = [];
    const first = await bootAndStop(config, [step('2024-01-a'), step('2024-02-b')], seen);
    assert.equal(first.runs, ['2024-01-a', '2024-02-b']);
    assert.equal(seen, [2], 'setup ran after both steps');
    assert.equal(first.record?.applied, ['2024-01-a', '2024-02-b']);
    assert.is(first.record?.last, '2024-02-b');
    assert.is(first.record?.lock, null);
    assert.ok(first.record?.updated_at instanceof Date);

    const second = await bootAndStop(config, [step('2024-01-a'), step('2024-02-b')]);
    assert.equal(second.runs, ['2024-01-a', '2024-02-b'], 'a second boot runs nothing');

    const third = await bootAndStop(config, [step('2024-01-a'), step('2024-02-b'), step('2024-03-c')]);
    assert.equal(third.runs, ['2024-01-a', '2024-02-b', '2024-03-c'], 'the new step ran alone');
    assert.equal(third.record?.applied, ['2024-01-a', '2024-02-b', '2024-03-c']);
    assert.is(third.record?.last, '2024-03-c');
  });

  test('a failing step stops start-up naming the plugin and the step; nothing after it runs; a fixed boot resumes from it', async () => {
    const config = configOf();
    const seen: number[] = [];
    let refused: unknown = null;
    try {
      const host = await boot(config, [step('a'), step('b', { fail: 'column x is missing' }), step('c')], seen);
      await host.stop();
    } catch (error) {
      refused = error;
    }
    assert.instance(refused, Error);
    assert.match((refused as Error).message, "Plugin 'migrate-probe': migration 'b' failed: column x is missing");
    assert.equal(seen, [], "the plugin's setup did not run");

    const fixed = await bootAndStop(config, [step('a'), step('b'), step('c')], seen);
    assert.equal(fixed.runs, ['a', 'b', 'b', 'c'], "'a' did not run again, 'b' ran again, then 'c' (never before)");
    assert.equal(fixed.record?.applied, ['a', 'b', 'c']);
    assert.is(fixed.record?.failed, null, 'the failure is cleared once the step succeeds');
    assert.equal(seen, [4]);
  });

  test('the failure is recorded with its step until fixed', async () => {
    const config = configOf();
    await boot(config, [step('a', { fail: 'disk full' })]).then(
      (host) => host.stop(),
      () => undefined,
    );
    const host = await boot(config, []);
    try {
      const record = await host.store.collection('plugin_migrations').findOne({ _id: PLUGIN });
      assert.equal(record?.applied, []);
      const failed = record?.failed as { step: string; message: string; at: Date } | undefined;
      assert.is(failed?.step, 'a');
      assert.is(failed?.message, 'disk full');
      assert.ok(failed?.at instanceof Date);
      assert.is(record?.lock, null, 'a failed step leaves the lock free');
    } finally {
      await host.stop();
    }
  });

  test("a killed host's lock is taken over once its lease lapses, and its step runs again", async () => {
    const config = configOf();
    // A host that applied 'a' and died during 'b': its lock is still held for 1.5 s more.
    const first = await bootAndStop(config, [step('a')]);
    assert.equal(first.runs, ['a']);
    const leaseEnd = new Date(Date.now() + 1500);
    {
      const host = await boot(config, []);
      await host.store
        .collection('plugin_migrations')
        .updateOne({ _id: PLUGIN }, { $set: { lock: { owner: 'dead-host-1', since: new Date(), expires_at: leaseEnd, step: 'b' } } });
      await host.store.collection(RUNS).insertOne({ step: 'b', at: new Date() }); // its half-done 'b'
      await host.stop();
    }
    const after = await bootAndStop(config, [step('a'), step('b'), step('c')]);
    assert.ok(Date.now() >= leaseEnd.getTime(), 'the boot waited for the lease to lapse');
    assert.equal(after.runs, ['a', 'b', 'b', 'c']);
    assert.equal(after.record?.applied, ['a', 'b', 'c']);
    assert.is(after.record?.lock, null);
  });

  test('bad migration lists are refused at boot, naming the plugin', async () => {
    const config = configOf();
    const cases: Array<[PluginMigration[], RegExp]> = [
      [[step('a'), step('a')], /migration id 'a' is listed twice/],
      [[{ id: '', up: () => undefined }], /migrations\[0\] has no id/],
      [[{ id: 'x' } as unknown as PluginMigration], /migration 'x' has no up\(context\) function/],
    ];
    for (const [migrations, expected] of cases) {
      const refused = await boot(config, migrations).then(
        async (host) => {
          await host.stop();
          return null;
        },
        (error: Error) => error,
      );
      assert.ok(refused, `refused: ${expected}`);
      assert.match(refused!.message, /^Plugin 'migrate-probe': /);
      assert.match(refused!.message, expected);
    }
  });

  if (store.label === 'mongodb') {
    test('two hosts starting at once on one database run each step exactly once', async () => {
      const config = configOf();
      const seen: number[] = [];
      const steps = [step('a', { waitMs: 300 }), step('b', { waitMs: 300 }), step('c')];
      // Each host has its own data directory (its own vault key file): the same key for both.
      const shared = { ...config, secretKey: 'ab'.repeat(32) };
      const lines: string[] = [];
      const hosts = await Promise.all([
        boot({ ...shared, dataDir: mkdtempSync(join(tmpdir(), 'flowhost-migrate-a-')) }, steps, seen, captureLogger(lines)),
        boot({ ...shared, dataDir: mkdtempSync(join(tmpdir(), 'flowhost-migrate-b-')) }, steps, seen, captureLogger(lines)),
      ]);
      try {
        const runs = (await hosts[0]!.store.collection(RUNS).find({}, { sort: { at: 1 } })).map((d) => String(d.step));
        assert.equal(runs, ['a', 'b', 'c'], 'each step ran once across both hosts');
        assert.equal(seen, [3, 3], "both hosts' setups saw every step applied");
        const waited = lines.filter((line) => line.includes("to finish the migrations of plugin 'migrate-probe'"));
        assert.ok(waited.length >= 1, `one host waited for the other's lock:\n${lines.filter((l) => l.includes('migrat')).join('\n')}`);
        const record = await hosts[0]!.store.collection('plugin_migrations').findOne({ _id: PLUGIN });
        assert.equal(record?.applied, ['a', 'b', 'c']);
        assert.is(record?.lock, null);
      } finally {
        await Promise.all(hosts.map((host) => host.stop()));
      }
    });
  }

  test.run();
}
