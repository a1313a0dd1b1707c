// A host with every built-in plugin (the optional ones too) and a few records to aim at:
// a pipeline with fetch and publish steps, flows with bearer, hmac and twilio triggers, an
// editor with an application password, a job. Their ids are the "existing" values the
// generators mix in; everything else they generate is junk or absent. The fuzzer deletes
// and rewires what it finds, so `refresh()` puts the records back before each property.
import { createTestHost, type TestHost } from '../../sdk/testing/index.js';
import type { PluginDefinition } from '../../sdk/index.js';
import type { HostConfig } from '../../host/config/schema.js';
import { optionalPlugins } from '../../plugins/index.js';
import type { TestStore } from '../support/test-stores.js';
import { basicAuth, rawRequest, type RawRequest, type RawResponse } from './raw-request.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- fixtures read arbitrary JSON

export interface FuzzHost {
  t: TestHost;
  url: string;
  /** Existing values by parameter / field name (numbers where the API has numbers); updated in place by refresh(). */
  known: Record<string, Array<string | number>>;
  /** Existing pipeline step ids (flow_config keys); updated in place. */
  knownKeys: string[];
  /** Bearer token of the first flow's trigger. */
  flowToken: string;
  /** Authorization header of a working administrator. */
  adminAuth(): string;
  /** The fuzzer deleted the administrator (or its password): make a new one. */
  restoreAdmin(): Promise<void>;
  /** Recreates deleted fixtures and resets the flows' triggers (the fuzzer may have changed them). */
  refresh(): Promise<void>;
  /**
   * Whether a request since the last refresh may have changed the fixtures: any request
   * but GET, HEAD and OPTIONS that was not refused with a 4xx (a 5xx or no answer may
   * have written half). Most fuzzed writes are refused, so most properties start
   * without the twenty-odd requests of a refresh.
   */
  readonly dirty: boolean;
  /** Records an answer (undefined: none) to a request, for `dirty`. */
  noteAnswer(method: string, status: number | undefined): void;
  send(req: RawRequest): Promise<RawResponse>;
  stop(): Promise<void>;
}

export interface FuzzHostOptions {
  /** More plugins (a test verifier...). */
  plugins?: PluginDefinition[];
  /** Config over the fuzz defaults (which lift the failed-login throttle). */
  config?: Partial<HostConfig>;
}

/** Every plugin a build can load: the defaults (createTestHost adds them) and the optional ones. */
export const allPlugins = (): PluginDefinition[] => Object.values(optionalPlugins);

const offlineProviders = {
  ...Object.fromEntries(
    ['provider-openai', 'provider-anthropic', 'provider-gemini', 'provider-xai', 'provider-openrouter'].map((id) => [
      id,
      { base_url: 'http://127.0.0.1:9/v1', max_retries: 0, timeout_ms: 2000 },
    ]),
  ),
  // Geocoding never reaches Nominatim either; no queueing for the 1/s slot (429 at once).
  events: { geocode_base_url: 'http://127.0.0.1:9', geocode_max_wait_ms: 0, geocode_timeout_ms: 2000 },
};

/**
 * wp/v2: a category, a tag and a published post carrying both (found again by slug,
 * in any status, else made anew), so item routes meet real ids.
 */
async function wpFixtures(t: Awaited<ReturnType<typeof createTestHost>>, admin: { login: string; password: string }) {
  const wp = async (method: string, path: string, query: Record<string, string> = {}, body?: unknown): Promise<Body> => {
    const res = await t.request<Body>(method, path, { namespace: 'wp/v2', as: admin, query, body });
    if (res.status >= 300)
      throw new Error(`fuzz fixtures: ${method} wp/v2${path} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  // A fuzzed PUT may have changed the fixture's slug but kept its name: then POST says
  // term_exists with the term's id, and that term is the fixture.
  const term = async (base: string, name: string): Promise<Body> => {
    const found = (await wp('GET', `/${base}`, { slug: name }))[0] as Body | undefined;
    if (found) return found;
    const made = await t.request<Body>('POST', `/${base}`, { namespace: 'wp/v2', as: admin, body: { name } });
    if (made.status === 400 && made.body.code === 'term_exists')
      return wp('GET', `/${base}/${(made.body.data as { term_id: number }).term_id}`);
    if (made.status >= 300)
      throw new Error(`fuzz fixtures: POST wp/v2/${base} answered ${made.status} ${JSON.stringify(made.body).slice(0, 300)}`);
    return made.body;
  };
  const [category, tag] = [await term('categories', 'fuzz-category'), await term('tags', 'fuzz-tag')];
  const wpPost =
    (await wp('GET', '/posts', { slug: 'fuzz-post', status: 'publish,draft,pending,private,trash' }))[0] ??
    (await wp(
      'POST',
      '/posts',
      {},
      { title: 'Fuzz post', slug: 'fuzz-post', status: 'publish', content: '# Fuzz', categories: [category.id], tags: [tag.id] },
    ));
  return { category, tag, wpPost };
}

export async function startFuzzHost(store: TestStore, options: FuzzHostOptions = {}): Promise<FuzzHost> {
  const t = await createTestHost({
    plugins: [...allPlugins(), ...(options.plugins ?? [])],
    // Failed-login throttles would turn most of the run into 429s: out of the way.
    // AI providers never reach the real services: a closed loopback port, no retries.
    config: {
      ...store.config(),
      loginMaxFailures: 1_000_000,
      loginMaxFailuresPerIp: 1_000_000,
      pluginSettings: offlineProviders,
      ...options.config,
    },
  });
  let admin = { ...t.admin, userId: (await t.host.users.findByLogin(t.admin.login))!.user_id };
  let serial = 0;
  const asAdmin = () => ({ login: admin.login, password: admin.password });
  const call = async (method: string, path: string, body?: unknown): Promise<Body> => {
    const res = await t.request<Body>(method, path, { body, as: asAdmin() });
    if (res.status >= 300)
      throw new Error(`fuzz fixtures: ${method} ${path} answered ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    return res.body;
  };
  const exists = async (path: string) => (await t.request('GET', path, { as: asAdmin() })).status === 200;

  const known: Record<string, Array<string | number>> = {
    slug: ['cms', 'cms-local', 'cms-update', 'rss'],
    handler_slug: ['cms', 'cms-local', 'rss'],
    step_type: ['fetch', 'publish', 'update', 'ai'],
    type: ['fetch', 'publish', 'update', 'ai'],
    mode: ['bearer', 'hmac', 'twilio'],
    preset: ['github', 'stripe', 'shopify', 'slack', 'standard-webhooks'],
    interval: ['manual', 'one_time', 'hourly', 'daily'],
  };
  const knownKeys: string[] = [];
  let pipelineId = 0;
  let steps: string[] = [];
  let flowIds: number[] = [];
  let editor: { login: string; userId: number } | null = null;
  let jobId: number | undefined;

  let dirty = true;
  const fuzzHost: FuzzHost = {
    t,
    url: t.url,
    get dirty() {
      return dirty;
    },
    noteAnswer(method, status) {
      if (['GET', 'HEAD', 'OPTIONS'].includes(method.toUpperCase())) return;
      if (status === undefined || status < 400 || status >= 500) dirty = true;
    },
    known,
    knownKeys,
    flowToken: '',
    adminAuth: () => basicAuth(admin.login, admin.password),
    async restoreAdmin() {
      dirty = true;
      serial += 1;
      admin = await t.createUser(`fuzz-admin-${serial}`, 'administrator');
    },
    async refresh() {
      if ((await t.request('GET', '/users/me', { as: asAdmin() })).status === 401) await fuzzHost.restoreAdmin();
      // The pipeline and its three flows come back whole: a fresh pipeline when the fuzzer
      // deleted any of them (it may also have added, removed or reordered steps).
      const alive = await Promise.all([`/pipelines/${pipelineId}`, ...flowIds.map((id) => `/flows/${id}`)].map(exists));
      if (!pipelineId || flowIds.length !== 3 || alive.includes(false)) {
        pipelineId = (
          await call('POST', '/pipelines', { pipeline_name: 'Fuzz', steps: [{ step_type: 'fetch' }, { step_type: 'publish' }] })
        ).data.pipeline_id as number;
        const fresh = (await call('GET', `/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps as Body[];
        const handler = (stepType: unknown) =>
          stepType === 'fetch'
            ? { handler_slug: 'cms-local', handler_config: { max_items: 1 } }
            : { handler_slug: 'cms', handler_config: {} };
        const flowConfig = Object.fromEntries(fresh.map((step) => [step.pipeline_step_id as string, handler(step.step_type)]));
        flowIds = [];
        for (const name of ['bearer', 'hmac', 'twilio'])
          flowIds.push(
            (await call('POST', '/flows', { pipeline_id: pipelineId, flow_name: `Fuzz ${name}`, flow_config: flowConfig })).data
              .flow_id as number,
          );
      }
      steps = ((await call('GET', `/pipelines/${pipelineId}`)).data.pipeline.pipeline_steps as Body[]).map(
        (s) => s.pipeline_step_id as string,
      );
      const [bearerFlow, hmacFlow, twilioFlow] = flowIds as [number, number, number];
      fuzzHost.flowToken = (await call('PUT', `/flows/${bearerFlow}/webhook`, { mode: 'bearer' })).data.token as string;
      await call('PUT', `/flows/${bearerFlow}/webhook/rate-limit`, { max: 100000, window_seconds: 1 });
      const secretId = (await call('PUT', `/flows/${hmacFlow}/webhook`, { mode: 'hmac', preset: 'github' })).data.secret.id as string;
      await call('PUT', `/flows/${twilioFlow}/webhook`, { mode: 'twilio' });
      if (!editor || !(await exists(`/users/${editor.userId}`))) {
        serial += 1;
        editor = await t.createUser(`fuzz-editor-${serial}`, 'editor');
      }
      const appPasswords = (await call('GET', `/users/${editor.userId}/application-passwords`)).data as Body[];
      if (!jobId || !(await exists(`/jobs/${jobId}`)))
        jobId = (await call('POST', '/execute', { flow_id: bearerFlow })).data?.job_id as number | undefined;

      const { category, tag, wpPost } = await wpFixtures(t, asAdmin());

      Object.assign(known, {
        id: [admin.userId, editor.userId, pipelineId, 1, 2, wpPost.id as number, category.id as number, tag.id as number],
        post: [wpPost.id as number],
        parent: [category.id as number],
        categories: [String(category.id)],
        tags: [String(tag.id)],
        flow_id: flowIds,
        pipeline_id: [pipelineId],
        target_id: [pipelineId, bearerFlow],
        job_id: jobId ? [jobId] : [1],
        parent_job_id: jobId ? [jobId] : [1],
        pipeline_step_id: steps,
        flow_step_id: steps.map((s) => `${s}_${bearerFlow}`),
        uuid: appPasswords.map((p) => p.uuid as string).filter(Boolean),
        secret_id: [secretId],
        login: [admin.login, editor.login],
      });
      knownKeys.splice(0, knownKeys.length, ...steps);
      dirty = false;
    },
    send: (req) => rawRequest(t.url, req),
    stop: () => t.stop(),
  };
  await fuzzHost.refresh();
  return fuzzHost;
}
