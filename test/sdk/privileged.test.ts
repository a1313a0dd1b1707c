import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { services, createServiceRef, definePlugin, PluginError, type ServiceRef } from '../../sdk/index.js';
import { createTestHost } from '../../sdk/testing/index.js';
import { coreServices } from '../../core/internal-services.js';

const test = suite("sdk: privileged services are the core's");
const root = resolve(new URL('../../..', import.meta.url).pathname);

// What only core plugins may hold: the whole store, the run scheduler, the trigger's rate
// limiters, the engine itself, what scheduled runs start and the webhook trigger.
const privileged = [
  'rootStore',
  'runScheduler',
  'scheduledRuns',
  'rateLimiters',
  'engine',
  'webhooks',
  // The domains' own hooks: only their owners fire them (plugins listen through engineEvents...).
  'engineHooks',
  'logHooks',
  'webhookHooks',
  'siteHooks',
] as const;

test('the public services object names no privileged service', () => {
  for (const name of privileged) {
    assert.not.ok(name in services, `services.${name} is public`);
    assert.ok(name in coreServices, `coreServices.${name} is missing (the test would prove nothing)`);
  }
});

test('a domain reference is the same reference the core provides, typed by its contract', () => {
  for (const name of ['users', 'content', 'logs', 'pipelines', 'execute', 'credentials'] as const) {
    assert.is(services[name] as ServiceRef<unknown>, coreServices[name] as ServiceRef<unknown>, name);
  }
});

test('flows, jobs, settings and the vault are views for plugins: the core holds the stored records and its own vault', () => {
  // Plugins get flows and jobs without sealed values, and a vault scoped to their id
  // (test/core/security/plugin-secrets.test.ts); the core's references are privileged.
  for (const name of ['flows', 'jobs', 'settings', 'vault'] as const) {
    assert.is.not((services[name] as ServiceRef<unknown>).token, (coreServices[name] as ServiceRef<unknown>).token, name);
    assert.is.not(createServiceRef<unknown>({ id: coreServices[name].id }).token, coreServices[name].token, `${name} forged by id`);
  }
  assert.is(services.vault.scope, 'plugin');
  assert.is(services.settings.scope, 'plugin');
});

test('a reference made with a privileged id is not the privileged service', () => {
  // The container keys services by each reference's own symbol: naming the id is not enough.
  const forged = createServiceRef<unknown>({ id: 'rootStore' });
  assert.is.not(forged.token, coreServices.rootStore.token);
});

test('a plugin naming a privileged id in deps does not get the store: start-up stops, naming it', async () => {
  // Public references are keyed by id (a second copy of flowhost still names the host's
  // services); privileged ones are not, so this forged reference is one nobody provides.
  const forged = createServiceRef<{ collection(name: string): unknown }>({ id: 'rootStore' });
  const thief = definePlugin({ id: 'thief', version: '1.0.0', flowhost: '^1.0.0', deps: { s: forged }, setup: () => undefined });
  try {
    const t = await createTestHost({ plugins: [thief] });
    await t.stop();
    assert.unreachable('a plugin got the whole store');
  } catch (error) {
    assert.instance(error, PluginError);
    assert.match((error as Error).message, /Plugin 'thief': needs service 'rootStore' \(as 's'\), which no loaded plugin provides/);
  }
});

test('nothing the SDK exports leads to core/internal-services', () => {
  // Read as the TypeScript compiler does (import statements, not text).
  const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');
  const seen = new Set<string>();
  const walk = (file: string): void => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const ref of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      if (!ref.fileName.startsWith('.')) continue;
      walk(resolve(file, '..', ref.fileName.replace(/\.js$/, '.ts')));
    }
  };
  for (const entry of ['sdk/index.ts', 'sdk/ai/index.ts', 'sdk/analytics/index.ts', 'sdk/manifest.ts']) walk(resolve(root, entry));
  assert.ok(seen.size > 20);
  assert.not.ok(seen.has(resolve(root, 'core/internal-services.ts')), 'an SDK entry point imports core/internal-services.ts');
});

// Type-level: compiled by the build (tsc strict), never called. Each line must be an error.
export function typeChecks(): void {
  // @ts-expect-error run marks are the engine's, not a plugin's
  void services.flows.markRunning;
  // @ts-expect-error the raw flows collection is the core's
  void services.flows.collection;
  // @ts-expect-error legacy webhook migration is the core's
  void services.flows.migrateWebhook;
  // @ts-expect-error the whole store is not public
  void services.rootStore;
  // @ts-expect-error the run scheduler is not public
  void services.runScheduler;
  // @ts-expect-error claims are the engine's
  void services.jobs.claim;
}

test.run();
