/**
 * `startTestHost`: a host for one plugin's tests, with no socket. It loads the core
 * domains and only the plugins the test names (built-ins off unless asked for), lets a
 * test replace any service (`mockService`), and answers requests in memory through the
 * host's own handler: the same routing, authentication, permissions, validation and error
 * bodies as HTTP, with no port to open or close.
 *
 *   const t = await startTestHost({ plugins: [myPlugin], services: [mockService(services.fetch, fakeFetch)] });
 *   const res = await t.request('GET', '/my-plugin/v1/things', { namespace: '' });
 *   const raw = await t.inject({ method: 'POST', url: '/api/automation/v1/flows', payload: {} });
 *   await t.stop();
 */
import 'reflect-metadata';
import { createHost, type Host } from '../../host/create-host.js';
import type { HostConfig } from '../../host/config/schema.js';
import type { PluginDefinition } from '../kernel/plugin.js';
import type { ServiceFactory } from '../kernel/service-ref.js';
import type { Logger } from '../kernel/logger.js';
import { silentLogger } from '../kernel/logger.js';
import { defaultPlugins } from '../../plugins/index.js';
import { FakeClock } from './fake-clock.js';
import { inject, type InjectOptions, type InjectResponse } from './inject.js';
import { testClient, type TestClient } from './test-client.js';

export interface StartTestHostOptions {
  /** The plugins under test; the core domains (flows, jobs, content, users...) are always there. */
  plugins: ReadonlyArray<PluginDefinition>;
  /** Also load the default built-ins (discovery, cms, steps...). Default false: only `plugins`. */
  builtins?: boolean;
  /** Services the test implements itself: `mockService(ref, implementation)`. */
  services?: ReadonlyArray<ServiceFactory>;
  config?: Partial<HostConfig>;
  logger?: Logger;
  clock?: FakeClock;
}

export interface InjectTestHost extends TestClient {
  host: Host;
  clock: FakeClock;
  /** One request as given (no credentials added), answered without a socket. */
  inject<T = unknown>(options: InjectOptions): Promise<InjectResponse<T>>;
  /** Stops the host; nothing of it is left running, so the test process exits. */
  stop(): Promise<void>;
}

// A test host reaches no service beyond this machine: OpenRouter's model catalogue is public,
// so listing providers asks openrouter.ai even with no key set. A closed loopback port
// instead (the built-in list answers), unless a test names its own base URL.
const OFFLINE_PLUGIN_SETTINGS: Record<string, Record<string, unknown>> = {
  'provider-openrouter': { base_url: 'http://127.0.0.1:9/api/v1', max_retries: 0 },
};

/** Plugin settings over the offline defaults, merged per plugin. */
function offlineSettings(given: HostConfig['pluginSettings'] = {}): HostConfig['pluginSettings'] {
  const merged = { ...given };
  for (const [id, defaults] of Object.entries(OFFLINE_PLUGIN_SETTINGS)) merged[id] = { ...defaults, ...given[id] };
  return merged;
}

/** The config of both test hosts: in memory, quiet, quick to schedule, responses checked, offline. */
export function testConfig(overrides: Partial<HostConfig> | undefined): Partial<HostConfig> {
  return {
    dataDir: ':memory:',
    port: 0,
    host: '127.0.0.1',
    logLevel: 'silent',
    allowPrivateUrls: true,
    schedulerProcessEvery: 100,
    schedulerLockLifetime: 2000,
    checkResponses: true,
    ...overrides,
    pluginSettings: offlineSettings(overrides?.pluginSettings),
  };
}

export async function startTestHost(options: StartTestHostOptions): Promise<InjectTestHost> {
  const clock = options.clock ?? new FakeClock(Date.now());
  const given = new Set(options.plugins.map((p) => p.id));
  const builtins = options.builtins ? defaultPlugins.filter((p) => !given.has(p.id)) : [];
  const host = await createHost({
    plugins: [...builtins, ...options.plugins],
    env: {},
    clock,
    logger: options.logger ?? silentLogger,
    listen: false,
    services: options.services ?? [],
    // Only the plugins under test unless asked for the built-ins: not a whole build.
    coreApi: options.builtins === true,
    config: testConfig(options.config),
  });
  await host.start();
  const handle = host.handle.bind(host);
  const client = testClient(host, async (method, url, headers, body) => {
    let payload: string | Uint8Array | undefined;
    if (body instanceof FormData) {
      // Encoded as fetch would send it: the same bytes and multipart boundary.
      const encoded = new Request('http://test.invalid/', { method: 'POST', body });
      payload = new Uint8Array(await encoded.arrayBuffer());
      headers = { ...headers, 'content-type': encoded.headers.get('content-type') ?? 'multipart/form-data' };
    } else payload = body;
    const res = await inject(handle, { method, url, headers, payload });
    const out = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (Array.isArray(value)) for (const v of value) out.append(name, v);
      else if (value !== undefined) out.set(name, String(value));
    }
    return { status: res.status, headers: out, text: res.raw.toString('utf8') };
  });
  return {
    ...client,
    host,
    clock,
    inject: (request) => inject(handle, request),
    stop: () => host.stop(),
  };
}
