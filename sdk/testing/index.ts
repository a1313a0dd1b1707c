/**
 * sdk/testing (`flowhost/testing`), two hosts for tests, both on an in-memory embedded
 * store with a fake clock and a logged-in administrator:
 *
 * - `startTestHost` (start-test-host.ts): no socket, only the plugins a test names,
 *   services a test may replace (`mockService`), requests through `inject`. For plugin tests.
 * - `createTestHost` (below): listening on a free loopback port, with every built-in by
 *   default, for tests that need real HTTP (a client library, a browser, another process).
 *
 * Response check mode is on: every JSON answer is validated against its route's
 * `schema.responses` (objects closed), and one that does not match — or a status the
 * route does not declare — becomes a 500 `rest_response_invalid` naming the route.
 *
 *   const t = await createTestHost({ plugins: [myPlugin] });
 *   const res = await t.request('GET', '/handlers');   // as admin, core namespace
 *   assert.is(res.status, 200);
 *   await t.stop();
 */
import 'reflect-metadata';
import { createHost, type Host } from '../../host/create-host.js';
import type { HostConfig } from '../../host/config/schema.js';
import type { PluginDefinition } from '../kernel/plugin.js';
import type { Logger } from '../kernel/logger.js';
import { silentLogger } from '../kernel/logger.js';
import { FakeClock } from './fake-clock.js';
import { defaultPlugins } from '../../plugins/index.js';
import { testConfig } from './start-test-host.js';
import { testClient, type TestClient } from './test-client.js';

export { FakeClock };
export { startTestHost, type StartTestHostOptions, type InjectTestHost } from './start-test-host.js';
export { mockService } from './mock-service.js';
export { inject, type InjectOptions, type InjectResponse } from './inject.js';
export type { JobView, TestResponse, RequestOptions, TestClient, Role } from './test-client.js';
export { runHandler, type RunHandlerOptions } from './run-handler.js';
export { runTool, type RunToolOptions, type ToolRun } from './run-tool.js';
export { createFakeServer, type FakeServer, type FakeReply, type RecordedRequest } from './fake-server.js';

export interface TestHost extends TestClient {
  host: Host;
  url: string;
  clock: FakeClock;
  /** Stops the host; no timer or socket of it is left, so the test process exits. */
  stop(): Promise<void>;
}

export interface CreateTestHostOptions {
  plugins: ReadonlyArray<PluginDefinition>;
  /** Also load the default built-ins (discovery...), as a stock build does. Default true. */
  builtins?: boolean;
  config?: Partial<HostConfig>;
  logger?: Logger;
  clock?: FakeClock;
}

export async function createTestHost(options: CreateTestHostOptions): Promise<TestHost> {
  const clock = options.clock ?? new FakeClock(Date.now());
  const given = new Set(options.plugins.map((p) => p.id));
  const builtins = options.builtins === false ? [] : defaultPlugins.filter((p) => !given.has(p.id));
  const host = await createHost({
    plugins: [...builtins, ...options.plugins],
    env: {},
    clock,
    logger: options.logger ?? silentLogger,
    coreApi: options.builtins !== false,
    config: testConfig(options.config),
  });
  const url = await host.start();
  const client = testClient(host, async (method, path, headers, body) => {
    const response = await fetch(`${url}${path}`, { method, headers, body });
    return { status: response.status, headers: response.headers, text: await response.text() };
  });
  return { ...client, host, url, clock, stop: () => host.stop() };
}
