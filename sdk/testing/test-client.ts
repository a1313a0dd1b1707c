/**
 * What both test hosts offer a test once they can send a request: `request` as a user,
 * users, and waiting for jobs. Only `send` differs: over a socket (createTestHost) or
 * through the host's handler in memory (startTestHost).
 */
import type { Host } from '../../host/create-host.js';

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

export type Role = 'administrator' | 'editor' | 'author' | 'contributor' | 'subscriber';

export interface TestClient {
  admin: { login: string; password: string };
  request<T = Record<string, unknown>>(method: string, path: string, options?: RequestOptions): Promise<TestResponse<T>>;
  /** Creates a user with a role; returns its credentials for `as`. */
  createUser(login: string, role: Role, capabilities?: string[]): Promise<{ login: string; password: string; userId: number }>;
  /**
   * POST /execute (a saved flow or an ephemeral workflow), then waits until the job has
   * finished and returns it as GET /jobs/{id} shows it (status, steps, engine data).
   */
  executeAndWait(
    body:
      | { flow_id: number; initial_data?: Record<string, unknown> }
      | { workflow: { steps: Array<Record<string, unknown>> }; initial_data?: Record<string, unknown> },
    timeoutMs?: number,
  ): Promise<JobView>;
  /** Waits until a job is no longer pending or processing. */
  waitForJob(jobId: number, timeoutMs?: number): Promise<JobView>;
  /**
   * Resolves when a run of plugin `pluginId`'s scheduled job `job` that starts after the
   * call has ended (rejects after `timeoutMs`, default 10 s). Wait for this, then assert
   * what the run did or left alone, instead of sleeping "long enough".
   */
  nextJobRun(pluginId: string, job: string, timeoutMs?: number): Promise<void>;
}

/** One request, its path absolute on the host (`/api/...?...`); the answer's body as text. */
export type Send = (
  method: string,
  pathAndQuery: string,
  headers: Record<string, string>,
  body: string | Uint8Array | FormData | undefined,
) => Promise<{ status: number; headers: Headers; text: string }>;

export function testClient(host: Host, send: Send): TestClient {
  const issued = host.initialAdmin;
  if (!issued) throw new Error('flowhost/testing: the in-memory host issued no administrator password');
  const admin = { login: issued.login, password: issued.password };
  const base = host.config.apiPrefix;

  const request = async <T>(method: string, path: string, opts: RequestOptions = {}): Promise<TestResponse<T>> => {
    const target = new URL(opts.absolute ? path : `${base}/${opts.namespace ?? host.config.coreNamespace}${path}`, 'http://test.invalid');
    for (const [key, value] of Object.entries(opts.query ?? {})) target.searchParams.set(key, String(value));
    const headers: Record<string, string> = { ...(opts.headers ?? {}) };
    const who = opts.as ?? 'admin';
    const creds = who === 'admin' ? admin : who === 'anonymous' ? null : who;
    if (creds && !Object.keys(headers).some((h) => h.toLowerCase() === 'authorization')) {
      headers.Authorization = `Basic ${Buffer.from(`${creds.login}:${creds.password}`).toString('base64')}`;
    }
    let body: string | Uint8Array | FormData | undefined;
    if (opts.body instanceof FormData || opts.body instanceof Uint8Array) {
      // An upload: the multipart boundary is set where it is encoded; raw bytes go as given.
      body = opts.body;
    } else if (opts.body !== undefined) {
      body = typeof opts.body === 'string' ? opts.body : JSON.stringify(opts.body);
      if (!Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) headers['Content-Type'] = 'application/json';
    }
    const answer = await send(method, `${target.pathname}${target.search}`, headers, body);
    let parsed: unknown = answer.text;
    try {
      parsed = answer.text ? JSON.parse(answer.text) : {};
    } catch {
      // leave as text: the test will see it did not get JSON
    }
    return { status: answer.status, headers: answer.headers, body: parsed as T };
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
    admin,
    request,
    async createUser(login, role, capabilities) {
      const user = await host.users.create({ login, role, capabilities });
      const created = await host.users.createAppPassword(user.user_id, 'test');
      return { login, password: created.password, userId: user.user_id };
    },
    waitForJob,
    async nextJobRun(pluginId, job, timeoutMs = 10_000) {
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`nextJobRun: no run of ${pluginId}:${job} ended within ${timeoutMs} ms`)), timeoutMs);
      });
      try {
        await Promise.race([host.nextJobRun(`${pluginId}:${job}`), late]);
      } finally {
        clearTimeout(timer);
      }
    },
    async executeAndWait(body, timeoutMs = 10_000) {
      const res = await request<{ data?: { job_id?: number }; message?: string }>('POST', '/execute', { body });
      const jobId = res.body.data?.job_id;
      if (res.status !== 200 || !jobId)
        throw new Error(`executeAndWait: POST /execute answered ${res.status}: ${JSON.stringify(res.body)}`);
      return waitForJob(jobId, timeoutMs);
    },
  };
}
