// The kernel's hooks are the host's own (issue 54): its lifecycle and the measurements. A
// hook one domain fires (the engine's, the log's, the webhook trigger's, the site's) is
// that domain's: it alone holds the firing side, and a plugin reaches the hook through the
// domain's service with its tapping methods only. What a listener plugin sees is asserted
// here on a real host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServiceRef, definePlugin, HookCatalogue, services, type JobOutcome } from '../../sdk/index.js';
import { createTestHost } from '../../sdk/testing/index.js';
import { coreServices } from '../../core/internal-services.js';

const test = suite('sdk: the kernel declares no domain hook');

/** The hooks the host itself fires: the only ones the kernel's catalogue may declare. */
const LIFECYCLE = ['repairInterrupted', 'booted', 'ready', 'stopping'];
const MEASUREMENTS = ['stepTimed', 'requestFinished', 'scheduledRunStarted', 'storeOperationTimed'];
/** Each domain hook, by the service a plugin listens through. */
const DOMAIN_HOOKS = {
  engineEvents: ['stepStarting', 'stepFinished', 'jobFinished', 'jobFailed', 'jobWaiting'],
  logEvents: ['logged'],
  webhookEvents: ['webhookReceived'],
  siteEvents: ['siteHome'],
} as const;
/** What fires a tapable hook (or changes how it fires): none of it is a listener's. */
const FIRING = ['call', 'callAsync', 'promise', 'intercept', 'isUsed', 'taps', 'interceptors'];

function hookNames(catalogue: object): string[] {
  return Object.entries(catalogue)
    .filter(([, value]) => value && typeof value === 'object' && typeof (value as { tap?: unknown }).tap === 'function')
    .map(([name]) => name)
    .sort();
}

test("the kernel's catalogue holds the host's lifecycle and measurement hooks, and nothing else", () => {
  assert.equal(hookNames(new HookCatalogue()), [...LIFECYCLE, ...MEASUREMENTS].sort());
  const catalogue = new HookCatalogue() as unknown as Record<string, unknown>;
  for (const name of Object.values(DOMAIN_HOOKS).flat()) assert.is(catalogue[name], undefined, `the kernel declares ${name}`);
});

test('a plugin that does not own a domain hook listens to it and cannot fire it', async () => {
  type Seen = Record<string, Record<string, Record<string, unknown>>>;
  const seen: Seen = {};
  const heard: JobOutcome[] = [];
  const listener = definePlugin({
    id: 'listener',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: {
      engineEvents: services.engineEvents,
      logEvents: services.logEvents,
      webhookEvents: services.webhookEvents,
      siteEvents: services.siteEvents,
    },
    setup(deps) {
      for (const [service, view] of Object.entries(deps)) seen[service] = view as unknown as Seen[string];
      deps.engineEvents.jobFinished.tapPromise('whatever-name', async (outcome) => void heard.push(outcome));
      deps.siteEvents.siteHome.tapPromise('listener', async () => undefined);
    },
  });
  const t = await createTestHost({ plugins: [listener] });
  try {
    for (const [service, names] of Object.entries(DOMAIN_HOOKS)) {
      assert.equal(Object.keys(seen[service]!).sort(), [...names].sort(), `services.${service}`);
      for (const name of names) {
        const hook = seen[service]![name]!;
        assert.equal(Object.keys(hook).sort(), ['tap', 'tapAsync', 'tapPromise'], `${service}.${name}`);
        for (const method of FIRING) assert.is(hook[method], undefined, `${service}.${name}.${method}`);
        // Frozen: a listener cannot put a firing method back either.
        assert.throws(() => Object.assign(hook, { promise: () => undefined }), TypeError);
      }
    }
    // The listener's taps are named after it, as taps on the kernel's hooks are
    // (`flowhost plugins list`), whatever name it gave.
    assert.equal(t.host.plugins.find((p) => p.id === 'listener')?.hooks, ['jobFinished', 'siteHome']);
    // The engine fires its own hook (the privileged reference only core plugins hold), and the listener hears it.
    const engineHooks = await t.host.services.get(coreServices.engineHooks, 'core-engine');
    await engineHooks.jobFinished.promise({ jobId: 7, flowId: null, status: 'completed' });
    assert.equal(heard, [{ jobId: 7, flowId: null, status: 'completed' }]);
  } finally {
    await t.stop();
  }
});

test('the firing side is privileged: not in services, and a reference forged by its id is another, unprovided service', async () => {
  for (const name of ['engineHooks', 'logHooks', 'webhookHooks', 'siteHooks'] as const) {
    assert.not.ok(name in services, `services.${name} is public`);
    assert.is.not(createServiceRef<unknown>({ id: coreServices[name].id }).token, coreServices[name].token, name);
  }
  const forger = definePlugin({
    id: 'forger',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { engineHooks: createServiceRef<unknown>({ id: 'engineHooks' }) },
    setup() {},
  });
  try {
    const t = await createTestHost({ plugins: [forger] });
    await t.stop();
    assert.unreachable('a forged reference to the engine hooks was provided');
  } catch (error) {
    assert.match((error as Error).message, /Plugin 'forger': needs service 'engineHooks'/);
  }
});

test.run();
