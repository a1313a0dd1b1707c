/**
 * sdk/testing: a real Flowhost host for plugin tests, on an in-memory embedded store,
 * listening on a free loopback port, with a fake clock and a logged-in administrator.
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
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import type { Logger } from '../../core/kernel/logger.js';
import { silentLogger } from '../../core/kernel/logger.js';
import { FakeClock } from './fake-clock.js';
import { defaultPlugins } from '../../plugins/index.js';

export { FakeClock };
export { runHandler, type RunHandlerOptions } from './run-handler.js';
export { createFakeServer, type FakeServer, type FakeReply, type RecordedRequest } from './fake-server.js';

/** A job as GET /jobs/{id} shows it. */
export type JobView = Record<string, unknown> & { job_id: number; status: string };

export interface TestResponse<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

export interface RequestOptions {
  /** JSON (any value), a string as is, raw bytes (a Buffer), or a FormData (multipart). */
  body?: unknown;
  query?: Record<string, string | number | boolean>;
  headers?: Record<string, string>;
  /** Credentials: 'admin' (default), 'anonymous', or a login + application password. */
  as?: 'admin' | 'anonymous' | { login: string; password: string };
  /** Treat `path` as absolute (e.g. '/healthz') instead of relative to the namespace. */
  absolute?: boolean;
  /** Namespace for relative paths (default: the core namespace). */
  namespace?: string;
}

export interface TestHost {
  host: Host;
  url: string;
  clock: FakeClock;
  admin: { login: string; password: string };
  request<T = Record<string, unknown>>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** Creates a user with a role; returns its credentials for `as`. */
  createUser(login: string, role: 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber', capabilities?: string[]): Promise<{ login: string; password: string; userId: number }>;
  /**
   * POST /execute (a saved flow or an ephemeral workflow), then waits until the job has
   * finished and returns it as GET /jobs/{id} shows it (status, steps, engine data).
   */
  executeAndWait(body: { flow_id: number; initial_data?: Record<string, unknown> } | { workflow: { steps: Array<Record<string, unknown>> }; initial_data?: Record<string, unknown> }, timeoutMs?: number): Promise<JobView>;
  /** Waits until a job is no longer pending or processing. */
  waitForJob(jobId: number, timeoutMs?: number): Promise<JobView>;
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
    // A 2 s lock lifetime: Agenda's per-run watchdog sleeps half of it on a timer it never
    // clears, so a suite ends at most 1 s after its last job instead of 5 minutes later.
    config: { dataDir: ':memory:', port: 0, host: '127.0.0.1', logLevel: 'silent', allowPrivateUrls: true, schedulerProcessEvery: 100, schedulerLockLifetime: 2000, checkResponses: true, ...options.config },
  });
  const url = await host.start();
  const issued = host.initialAdmin;
  if (!issued) throw new Error('createTestHost: the in-memory host issued no administrator password');
  const admin = { login: issued.login, password: issued.password };
  const base = `${url}${host.config.apiPrefix}`;

  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> => {
    const target = new URL(opts.absolute ? `${url}${path}` : `${base}/${opts.namespace ?? host.config.coreNamespace}${path}`);
    for (const [key, value] of Object.entries(opts.query ?? {})) target.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const who = opts.as ?? 'admin';
    const creds = who === 'admin' ? admin : who === 'anonymous' ? null : who;
    if (creds && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers.Authorization = `Basic ${Buffer.from(`${creds.login}:${creds.password}`).toString('base64')}`;
    }
    let body: string | Uint8Array | FormData | undefined;
    if (opts.body instanceof FormData || opts.body instanceof Uint8Array) {
      // An upload: fetch sets the multipart boundary; raw bytes go as given.
      body = opts.body;
    } else if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    const response = await fetch(target, { method, headers, body });
    const text = await response.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : {};
    } catch {
      // leave as text: the test will see it did not get JSON
    }
    return { status: response.status, headers: response.headers, body: parsed as T };
  };

  const waitForJob = async (jobId: number, timeoutMs = 10_000): Promise<JobView> => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const res = await request<{ data: JobView }>('GET', `/jobs/${jobId}`);
      if (res.status !== 200) throw new Error(`waitForJob: GET /jobs/${jobId} answered ${res.status}: ${JSON.stringify(res.body)}`);
      if (!['pending', 'processing'].includes(res.body.data.status)) return res.body.data;
      if (Date.now() > deadline) throw new Error(`waitForJob: job ${jobId} is still ${res.body.data.status} after ${timeoutMs} ms`);
      await new Promise((r) => setTimeout(r, 20));
    }
  };

  return {
    host,
    url,
    clock,
    admin,
    request,
    async createUser(login, role, capabilities) {
      const user = await host.users.create({ login, role, capabilities });
      const created = await host.users.createAppPassword(user.user_id, 'test');
      return { login, password: created.password, userId: user.user_id };
    },
    waitForJob,
    async executeAndWait(body, timeoutMs = 10_000) {
      const res = await request<{ data?: { job_id?: number }; message?: string }>('POST', '/execute', { body });
      const jobId = res.body.data?.job_id;
      if (res.status !== 200 || !jobId) throw new Error(`executeAndWait: POST /execute answered ${res.status}: ${JSON.stringify(res.body)}`);
      return waitForJob(jobId, timeoutMs);
    },
    stop: () => host.stop(),
  };
}
