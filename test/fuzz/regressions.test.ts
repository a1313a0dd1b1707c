// Inputs that once crashed the host or answered 500, each pinned as its own test: the
// answer must be a 4xx with the error body, nothing may be stored, and the host must still
// answer GET /healthz with nothing crashed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, defineVerifier, services, type PluginDefinition } from '../../sdk/index.js';
import { testStores } from '../support/test-stores.js';
import { checkResponse } from './check-response.js';
import { crashCount, crashesSince, prototypePollution, watchCrashes } from './crash-watch.js';
import { exitWhenDone } from './exit-when-done.js';
import { startFuzzHost, type FuzzHost } from './fuzz-host.js';
import { deepJson, preview } from './json-text.js';
import { basicAuth, type RawResponse } from './raw-request.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads arbitrary JSON
const P = '/api/automation/v1';
watchCrashes();

/** A verifier that accepts `Authorization: Basic <anything>:<the flow's secret>`: the sender's own Basic scheme. */
const basicVerifier: PluginDefinition = definePlugin({
  id: 'fuzz-basic-verifier',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { verifiers: services.verifiers },
  setup({ verifiers }) {
    verifiers.add(
      defineVerifier({
        mode: 'fuzz-basic',
        label: 'Basic credentials chosen by the sender',
        verify({ headers, secrets }) {
          const match = /^Basic (.+)$/.exec(headers.authorization ?? '');
          const password = match ? Buffer.from(match[1]!, 'base64').toString().split(':').slice(1).join(':') : '';
          return secrets.includes(password) ? { ok: true } : { ok: false, reason: 'basic password does not match' };
        },
      }),
    );
  },
}) as PluginDefinition;

const stores = testStores('fuzz: regressions');
for (const [index, store] of stores.entries()) {
  type Ctx = { h: FuzzHost; crashFrom: number; flowId: number; pipelineId: number; admin: Record<string, string> };
  const test = suite<Ctx>(`fuzz: regressions (${store.label})`);

  test.before(async (ctx) => {
    // Default failed-login throttle: the trigger must never count a sender's Basic header against it.
    ctx.h = await startFuzzHost(store, { plugins: [basicVerifier], config: { loginMaxFailures: 5, loginMaxFailuresPerIp: 50 } });
    ctx.flowId = ctx.h.known.flow_id![0] as number;
    ctx.pipelineId = ctx.h.known.pipeline_id![0] as number;
    ctx.admin = { Authorization: ctx.h.adminAuth() };
  });
  // Crashes are counted per test, so one test's crash does not fail the ones after it.
  test.before.each((ctx) => {
    ctx.crashFrom = crashCount();
  });
  test.after(async (ctx) => {
    await ctx.h.stop();
    if (index === stores.length - 1) exitWhenDone();
  });

  /** Sends a request; asserts the status (or 4xx), the error body, and a healthy host. */
  const expectRefused = async (
    ctx: Ctx,
    method: string,
    path: string,
    opts: { body?: string; headers?: Record<string, string>; status?: number; code?: string; anonymous?: boolean } = {},
  ): Promise<RawResponse> => {
    const headers = {
      ...(opts.anonymous ? {} : ctx.admin),
      ...(opts.body !== undefined ? { 'Content-Type': 'application/json' } : {}),
      ...opts.headers,
    };
    const res = await ctx.h.send({ method, path, headers, body: opts.body, timeoutMs: 10_000 });
    const what = `${method} ${preview(path, 80)} → ${res.status} ${preview(res.text, 300)}`;
    if (opts.status) assert.is(res.status, opts.status, what);
    else assert.ok(res.status >= 400 && res.status < 500, `expected a 4xx: ${what}`);
    assert.equal(checkResponse(method, res).problems, [], what);
    if (opts.code) assert.is((JSON.parse(res.text) as Body).code, opts.code, what);
    await expectHealthy(ctx);
    return res;
  };

  const expectHealthy = async (ctx: Ctx) => {
    const health = await ctx.h.send({ method: 'GET', path: '/healthz', timeoutMs: 5000 });
    assert.is(health.status, 200, `GET /healthz: ${health.status} ${preview(health.text, 200)}`);
    assert.equal(crashesSince(ctx.crashFrom), [], 'the host crashed');
    assert.equal(prototypePollution(), [], 'Object.prototype polluted');
  };

  const count = async (ctx: Ctx, path: string): Promise<number> => {
    const res = await ctx.h.t.request<Body>('GET', path);
    assert.is(res.status, 200, `GET ${path}: ${JSON.stringify(res.body).slice(0, 200)}`);
    return Number(res.body.total ?? res.body.data?.total);
  };

  for (const method of ['TRACE', 'PROPFIND']) {
    test(`${method} ${P}/users is a 4xx`, async (ctx) => {
      await expectRefused(ctx, method, `${P}/users`);
    });
  }

  for (const badEscape of ['%ff', '%E0%A4%A', '%C0%AF']) {
    test(`GET ${P}/users/${badEscape} is a 400`, async (ctx) => {
      await expectRefused(ctx, 'GET', `${P}/users/${badEscape}`, { status: 400 });
    });
  }

  for (const key of ['__proto__', 'constructor']) {
    test(`POST ${P}/trigger/{id}?${key}=x anonymous is a 4xx; with the flow's token it is accepted`, async (ctx) => {
      for (const flow of ctx.h.known.flow_id!)
        await expectRefused(ctx, 'POST', `${P}/trigger/${flow}?${key}=x`, { body: '{}', anonymous: true });
      const ok = await ctx.h.send({
        method: 'POST',
        path: `${P}/trigger/${ctx.flowId}?${key}=x&${key}=y`,
        headers: { Authorization: `Bearer ${ctx.h.flowToken}`, 'Content-Type': 'application/json' },
        body: `{"${key}":{"polluted":"yes"}}`,
      });
      assert.is(ok.status, 200, preview(ok.text, 300));
      await expectHealthy(ctx);
    });
  }

  for (const depth of [1000, 3000]) {
    test(`${depth} levels in initial_data of POST /execute are 400 rest_invalid_json, and no job is created`, async (ctx) => {
      const jobs = await count(ctx, '/jobs');
      for (const shape of ['array', 'object'] as const) {
        await expectRefused(ctx, 'POST', `${P}/execute`, {
          body: `{"flow_id":${ctx.flowId},"initial_data":{"deep":${deepJson(depth, shape).text}}}`,
          status: 400,
          code: 'rest_invalid_json',
        });
      }
      assert.is(await count(ctx, '/jobs'), jobs);
    });

    test(`${depth} levels in a pipeline step's config are 400 rest_invalid_json, and nothing is stored`, async (ctx) => {
      const pipelines = await count(ctx, '/pipelines');
      const deep = deepJson(depth, 'object').text;
      await expectRefused(ctx, 'POST', `${P}/pipelines`, {
        body: `{"pipeline_name":"deep","steps":[{"step_type":"fetch","config":${deep}}]}`,
        status: 400,
        code: 'rest_invalid_json',
      });
      assert.is(await count(ctx, '/pipelines'), pipelines);
      await expectRefused(ctx, 'POST', `${P}/pipelines/${ctx.pipelineId}/steps`, {
        body: `{"step_type":"fetch","config":${deep}}`,
        status: 400,
        code: 'rest_invalid_json',
      });
      const step = ctx.h.known.pipeline_step_id![0];
      await expectRefused(ctx, 'PUT', `${P}/pipelines/steps/${step}/config`, {
        body: `{"deep":${deep}}`,
        status: 400,
        code: 'rest_invalid_json',
      });
    });
  }

  test('numbers past what JSON and the stores hold are 400, never rounded or stored', async (ctx) => {
    const flows = await count(ctx, '/flows');
    await expectRefused(ctx, 'GET', `${P}/flows?pipeline_id=1e309`, { status: 400 });
    await expectRefused(ctx, 'GET', `${P}/jobs?offset=Infinity`, { status: 400 });
    await expectRefused(ctx, 'POST', `${P}/flows`, { body: '{"pipeline_id":1e999}', status: 400 });
    await expectRefused(ctx, 'GET', `${P}/jobs?offset=99999999999999999999`, { status: 400 });
    await expectRefused(ctx, 'GET', `${P}/flows?offset=99999999999999999999`, { status: 400 });
    await expectRefused(ctx, 'GET', `${P}/logs?page=99999999999999999999`, { status: 400 });
    // 2^53 + 1 would round to 2^53 (and then be a 404 for a flow that "does not exist").
    for (const path of ['/flows/9007199254740993', '/jobs/9007199254740993', '/pipelines/9007199254740993', '/users/9007199254740993']) {
      await expectRefused(ctx, 'GET', `${P}${path}`, { status: 400, code: 'rest_invalid_param' });
    }
    await expectRefused(ctx, 'POST', `${P}/execute`, { body: '{"flow_id":9007199254740993}', status: 400 });
    await expectRefused(ctx, 'POST', `${P}/flows`, { body: `{"pipeline_id":9007199254740993}`, status: 400 });
    assert.is(await count(ctx, '/flows'), flows);
  });

  test('a timestamp past year 9999 is 400 on /execute (no job) and in a one_time schedule (no flow, no change)', async (ctx) => {
    const jobs = await count(ctx, '/jobs');
    await expectRefused(ctx, 'POST', `${P}/execute`, { body: `{"flow_id":${ctx.flowId},"timestamp":99999999999999}`, status: 400 });
    assert.is(await count(ctx, '/jobs'), jobs, 'no job was created');

    const flows = await count(ctx, '/flows');
    const schedule = '{"interval":"one_time","timestamp":99999999999999}';
    await expectRefused(ctx, 'POST', `${P}/flows`, {
      body: `{"pipeline_id":${ctx.pipelineId},"flow_name":"far","scheduling_config":${schedule}}`,
      status: 400,
    });
    assert.is(await count(ctx, '/flows'), flows, 'no flow was created');

    const before = (await ctx.h.t.request<Body>('GET', `/flows/${ctx.flowId}`)).body.data;
    await expectRefused(ctx, 'PATCH', `${P}/flows/${ctx.flowId}`, { body: `{"scheduling_config":${schedule}}`, status: 400 });
    const after = (await ctx.h.t.request<Body>('GET', `/flows/${ctx.flowId}`)).body.data;
    assert.equal(after.scheduling_config, before.scheduling_config, 'the schedule is unchanged');
  });

  test('HEAD /healthz is 200', async (ctx) => {
    const res = await ctx.h.send({ method: 'HEAD', path: '/healthz' });
    assert.is(res.status, 200);
    assert.is(res.text, '');
    await expectHealthy(ctx);
  });

  test('wrong Basic credentials on POST /trigger/{id}: the flow decides, never rest_invalid_credentials', async (ctx) => {
    const wrong = { Authorization: basicAuth('sender', 'not-a-user-password'), 'Content-Type': 'application/json' };
    // A bearer flow answers its own 401, as many times as asked (no login throttle: 5 failures would block).
    for (let i = 0; i < 8; i++) {
      const res = await expectRefused(ctx, 'POST', `${P}/trigger/${ctx.flowId}`, { body: '{}', headers: wrong, status: 401 });
      assert.is.not((JSON.parse(res.text) as Body).code, 'rest_invalid_credentials');
      assert.is((JSON.parse(res.text) as Body).code, 'rest_unauthorized');
    }
    // A verifier that reads Basic credentials accepts the sender's own.
    const flowId = ctx.h.known.flow_id![2] as number;
    const enabled = await ctx.h.t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: { mode: 'fuzz-basic', secret: 'sender-chosen-secret-123' },
    });
    assert.is(enabled.status, 200, JSON.stringify(enabled.body));
    const accepted = await ctx.h.send({
      method: 'POST',
      path: `${P}/trigger/${flowId}`,
      headers: { Authorization: basicAuth('sender', 'sender-chosen-secret-123'), 'Content-Type': 'application/json' },
      body: '{"hello":"world"}',
    });
    assert.is(accepted.status, 200, preview(accepted.text, 300));
    assert.equal(checkResponse('POST', accepted).problems, []);
    await expectRefused(ctx, 'POST', `${P}/trigger/${flowId}`, { body: '{}', headers: wrong, status: 401, code: 'rest_unauthorized' });
  });

  test('wp/v2: meta keys the stores cannot hold as paths are 400, and the term and post keep their meta', async (ctx) => {
    const W = '/api/wp/v2';
    const [category] = (await ctx.h.t.request<Body[]>('GET', '/categories', { namespace: 'wp/v2', query: { slug: 'fuzz-category' } })).body;
    const postId = ctx.h.known.post![0];
    for (const key of [' ', 'a b', 'a-b', '_hidden']) {
      const body = JSON.stringify({ meta: { [key]: 0 } });
      await expectRefused(ctx, 'PATCH', `${W}/categories/${category!.id}`, { body, status: 400, code: 'rest_invalid_param' });
      await expectRefused(ctx, 'POST', `${W}/posts/${postId}`, { body, status: 400, code: 'rest_invalid_param' });
    }
    assert.equal((await ctx.h.t.host.content.getTerm('category', category!.id as number))!.meta, {});
  });

  // Issue 52: one anonymous request with this pattern and 32 'a's and a '!' held the host 30 s
  // (V8's backtracking engine; each character more doubled it). Patterns now run in linear time.
  test('a nested-quantifier HMAC extract pattern and a hostile X-Signature: 401 at once, the host answers /healthz', async (ctx) => {
    const flowId = ctx.h.known.flow_id![1] as number;
    const template = (key: string) => ({
      mode: 'hmac',
      template: {
        mode: 'hmac',
        algo: 'sha256',
        signed_template: '{body}',
        signature_source: { header: 'X-Signature', extract: { kind: 'regex', key }, encoding: 'hex' },
      },
    });
    const saved = await ctx.h.t.request<Body>('PUT', `/flows/${flowId}/webhook`, {
      body: template('^(?:[a-z0-9]+\\s?)*=\\s?([a-f0-9]+)$'),
    });
    assert.is(saved.status, 200, JSON.stringify(saved.body));
    for (const length of [32, 40, 15_000]) {
      const headers = { 'X-Signature': `${'a'.repeat(length)}!`, 'Content-Type': 'application/json' };
      await expectRefused(ctx, 'POST', `${P}/trigger/${flowId}`, { body: '{}', headers, status: 401, anonymous: true });
    }
    // A pattern only a backtracking engine can run is refused when saved, naming the construct.
    const refused = await ctx.h.t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: template('(v1)=\\1([a-f0-9]+)') });
    assert.is(refused.status, 400);
    assert.is(refused.body.code, 'invalid_template');
    assert.match(JSON.stringify(refused.body.data.problems), /backreferences/);
    // Linear time is not free: counted repeats compile to one instruction per count, and
    // twenty {1,1000} held the host 31 s on a 4,000-character header. Refused when saved.
    const large = await ctx.h.t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: template(`${'[a-z]{1,1000}'.repeat(20)}(!)`) });
    assert.is(large.status, 400);
    assert.match(JSON.stringify(large.body.data.problems), /too large/);
  });

  test.run();
}
