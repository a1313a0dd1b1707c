// Alerts on both stores: a flow failing again and again is announced once (one e-mail to a
// fake SMTP server, one signed webhook POST the receiver verifies with node:crypto, one on-failure run given the
// failure), its recovery once; the webhook secret is never answered in clear; on MongoDB
// two hosts on one database send one alert between them within the window.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createTestHost, type TestClient, type TestHost } from '../../../sdk/testing/index.js';
import { testClient } from '../../../sdk/testing/test-client.js';
import { testConfig } from '../../../sdk/testing/start-test-host.js';
import { createHost, type Host } from '../../../host/create-host.js';
import type { HostConfig } from '../../../host/config/schema.js';
import type { PluginDefinition } from '../../../sdk/index.js';
import { defaultPlugins } from '../../../plugins/index.js';
import { defineHandler } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';
import { handlerPlugin } from '../../support/handler-plugin.js';
import alerts from '../../../plugins/alerts/index.js';
import { startSmtp, waitFor, type SmtpCapture } from '../billing/helpers.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const SECRET = 'alert-signing-secret-0123456789';

interface Received {
  signature: string;
  raw: string;
  body: Body;
}

interface World {
  fail: boolean;
  /** What each on-failure run was given, by job id. */
  given: Map<number, Record<string, unknown>>;
}

function fixtures(world: World) {
  return handlerPlugin('alerts-fixtures', [
    defineHandler({
      slug: 'flaky',
      type: 'fetch',
      label: 'Flaky',
      description: 'Fails while the world says so.',
      async fetch() {
        if (world.fail) throw new Error('remote said no');
        return [];
      },
    }),
    defineHandler({
      slug: 'record',
      type: 'fetch',
      label: 'Record',
      description: 'Records what its run was given.',
      async fetch(ctx) {
        world.given.set(ctx.jobId, ctx.engineData as Record<string, unknown>);
        return [];
      },
    }),
  ]);
}

async function receiver(received: Received[]): Promise<{ server: Server; url: string }> {
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ signature: String(req.headers['x-flowhost-signature'] ?? ''), raw, body: JSON.parse(raw) });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook` };
}

/** What the receiver does: the HMAC of the raw body, compared in constant time. */
function verifies(r: Received, secret: string): boolean {
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(r.raw).digest('hex')}`);
  const given = Buffer.from(r.signature);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

async function oneFetchFlow(t: TestHost, name: string, handler: string): Promise<number> {
  const pipeline = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: name, steps: [{ step_type: 'fetch' }] } })).body
    .data;
  const stepId = (await t.request<Body>('GET', `/pipelines/${pipeline.pipeline_id}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
  const flow = await t.request<Body>('POST', '/flows', {
    body: { pipeline_id: pipeline.pipeline_id, flow_name: name, flow_config: { [stepId]: { handler_slug: handler } } },
  });
  return flow.body.data.flow_id;
}

for (const store of testStores('alerts')) {
  type Ctx = {
    smtp: SmtpCapture;
    t: TestHost;
    world: World;
    received: Received[];
    server: Server;
    url: string;
    flowId: number;
    errorFlowId: number;
  };
  const test = suite<Ctx>(`alerts (${store.label})`);

  test.before(async (ctx) => {
    ctx.world = { fail: true, given: new Map() };
    ctx.received = [];
    Object.assign(ctx, await receiver(ctx.received));
    ctx.smtp = await startSmtp();
    ctx.t = await createTestHost({
      plugins: [fixtures(ctx.world), alerts],
      config: {
        ...store.config(),
        allowPrivateUrls: true,
        pluginSettings: { alerts: { smtp_host: '127.0.0.1', smtp_port: ctx.smtp.port, mail_from: 'flowhost@example.test' } },
      },
    });
    ctx.flowId = await oneFetchFlow(ctx.t, 'Hourly import', 'flaky');
    ctx.errorFlowId = await oneFetchFlow(ctx.t, 'On failure', 'record');
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await new Promise((resolve) => ctx.server.close(resolve));
    await ctx.smtp.close();
  });

  test('the webhook secret is sealed at rest and answered masked, never in clear', async ({ t, url }) => {
    const put = await t.request<Body>('PUT', '/alerts', {
      body: { webhook_url: url, webhook_secret: SECRET, webhook_format: 'json', email_to: ['ops@example.test'] },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.is(put.body.data.webhook_secret_set, true);
    assert.is(put.body.data.window_minutes, 60);
    assert.is(put.body.data.notify, 'problem');
    const get = await t.request<Body>('GET', '/alerts');
    for (const answer of [put, get]) assert.not.ok(JSON.stringify(answer.body).includes(SECRET), 'the secret is not answered');
    const stored = await t.host.store.collection('alerts__settings').findOne({ _id: 'site' });
    assert.ok(stored?.webhook_secret, 'a secret is stored');
    assert.not.ok(JSON.stringify(stored).includes(SECRET), 'sealed, not in clear');
    // The masked value sent back keeps the secret.
    const again = await t.request<Body>('PUT', '/alerts', { body: { webhook_secret: get.body.data.webhook_secret } });
    assert.is(again.body.data.webhook_secret_set, true);
  });

  test('bad settings are refused with a body naming the field', async ({ t, flowId }) => {
    const unknownFlow = await t.request<Body>('PUT', `/flows/${flowId}/alerts`, { body: { on_failure_flow_id: 99_999 } });
    assert.is(unknownFlow.status, 400, JSON.stringify(unknownFlow.body));
    assert.equal(unknownFlow.body.data.params, { on_failure_flow_id: 'no such flow' });
    const badMode = await t.request<Body>('PUT', '/alerts', { body: { notify: 'sometimes' } });
    assert.is(badMode.status, 400);
    const noFlow = await t.request<Body>('GET', '/flows/99999/alerts');
    assert.is(noFlow.status, 404, JSON.stringify(noFlow.body));
  });

  test('a flow failing five times: one problem alert, signed, and one on-failure run with the failure', async (ctx) => {
    const { t, flowId, errorFlowId, received, world, smtp } = ctx;
    const put = await t.request<Body>('PUT', `/flows/${flowId}/alerts`, { body: { on_failure_flow_id: errorFlowId } });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.is(put.body.data.effective.on_failure_flow_id, errorFlowId);
    assert.is(put.body.data.effective.webhook_secret_set, true);
    const jobs: number[] = [];
    for (let i = 0; i < 5; i++) {
      const job = await t.executeAndWait({ flow_id: flowId });
      assert.is(job.status, 'failed');
      jobs.push(job.job_id as number);
    }
    await waitFor('the problem alert', () => received.length >= 1);
    const onFailure = await waitFor('the on-failure run', () => [...world.given.values()][0]);
    // The third failure made it a problem flow (threshold 3): that run is the one announced.
    const failure = onFailure.failure as Body;
    assert.equal(
      { job_id: failure.job_id, flow_id: failure.flow_id, step: failure.failed_step.step_type, handler: failure.failed_step.handler_slug },
      { job_id: jobs[2], flow_id: flowId, step: 'fetch', handler: 'flaky' },
    );
    assert.match(failure.error as string, /remote said no/);
    const alert = received[0]!;
    assert.ok(verifies(alert, SECRET), 'the receiver verifies the HMAC');
    assert.not.ok(verifies(alert, 'another-secret'), 'and a wrong secret does not');
    assert.equal(
      { event: alert.body.event, flow_id: alert.body.flow_id, job_id: alert.body.job_id },
      { event: 'flow.problem', flow_id: flowId, job_id: jobs[2] },
    );

    // The next success is announced once; the earlier failures added nothing.
    world.fail = false;
    assert.is((await t.executeAndWait({ flow_id: flowId })).status, 'completed_no_items');
    assert.is((await t.executeAndWait({ flow_id: flowId })).status, 'completed_no_items');
    await waitFor('the recovery alert', () => received.some((r) => r.body.event === 'flow.recovered'));
    await waitFor('the recovery e-mail', () => smtp.mails.some((m) => m.raw.includes('recovered')));
    assert.is(smtp.mails.length, 2, 'one e-mail for the problem, one for the recovery');
    assert.equal(smtp.mails[0]!.to, ['ops@example.test']);
    assert.match(smtp.mails[0]!.raw, /problem flow/);
    assert.match(smtp.mails[0]!.raw, new RegExp(`Job: ${jobs[2]}`));
    assert.equal(
      received.map((r) => r.body.event),
      ['flow.problem', 'flow.recovered'],
    );
    assert.is(world.given.size, 1, 'one on-failure run');
    const sent = await t.host.store.collection('alerts__sent').find({ flow_id: flowId });
    assert.equal(sent.map((d) => d.channel).sort(), ['email', 'flow', 'webhook']);
  });

  test('a Slack-format webhook gets {text}; POST /alerts/test says how each channel went', async ({ t, received, url }) => {
    await t.request('PUT', '/alerts', { body: { webhook_format: 'slack' } });
    const before = received.length;
    const res = await t.request<Body>('POST', '/alerts/test', { body: {} });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body.data.channels, [
      { channel: 'email', ok: true },
      { channel: 'webhook', ok: true },
    ]);
    assert.is(received.length, before + 1);
    assert.equal(Object.keys(received.at(-1)!.body), ['text']);
    assert.match(received.at(-1)!.body.text, /test alert/);
    // A closed loopback port: the test answers, naming what went wrong.
    await t.request('PUT', '/alerts', { body: { webhook_url: 'http://127.0.0.1:9/hook' } });
    const failed = await t.request<Body>('POST', '/alerts/test', { body: {} });
    assert.is(failed.body.data.channels[1].ok, false);
    assert.match(failed.body.data.channels[1].error, /ECONNREFUSED|refused|connect/i);
    await t.request('PUT', '/alerts', { body: { webhook_url: url, webhook_format: 'json' } });
  });

  test.run();
}

/** A second host on the first one's database, asked as the first one's administrator (it issues none: one exists). */
async function secondHost(first: TestHost, plugins: PluginDefinition[], config: Partial<HostConfig>): Promise<TestClient & { host: Host }> {
  // The built-ins as createTestHost loads them (the fetch step type is steps-core's).
  const given = new Set(plugins.map((p) => p.id));
  const builtins = defaultPlugins.filter((p) => !given.has(p.id));
  const host = await createHost({ plugins: [...builtins, ...plugins], env: {}, config: testConfig(config) });
  const url = await host.start();
  const client = testClient(
    Object.assign(Object.create(host) as Host, { initialAdmin: first.host.initialAdmin }),
    async (method, path, headers, body) => {
      const response = await fetch(`${url}${path}`, { method, headers, body });
      return { status: response.status, headers: response.headers, text: await response.text() };
    },
  );
  return { ...client, host };
}

// Two hosts on one MongoDB database: the window is in the store, so a failure on each host
// within it is one alert between them; `every_failure` with a window of 0 announces each.
for (const store of testStores('alerts across hosts').filter((s) => s.label === 'mongodb')) {
  type Ctx = {
    a: TestHost;
    b: TestClient & { host: Host };
    world: World;
    received: Received[];
    server: Server;
    url: string;
    flowId: number;
  };
  const test = suite<Ctx>('alerts: rate limit across two hosts (mongodb)');

  test.before(async (ctx) => {
    ctx.world = { fail: true, given: new Map() };
    ctx.received = [];
    Object.assign(ctx, await receiver(ctx.received));
    // One database, one vault key: what two hosts of one deployment share.
    const shared = { ...store.config(), allowPrivateUrls: true, secretKey: randomBytes(32).toString('hex') };
    ctx.a = await createTestHost({ plugins: [fixtures(ctx.world), alerts], config: shared });
    ctx.b = await secondHost(ctx.a, [fixtures(ctx.world), alerts], shared);
    ctx.flowId = await oneFetchFlow(ctx.a, 'Shared', 'flaky');
  });
  test.after(async (ctx) => {
    await ctx.a?.stop();
    await ctx.b?.host.stop();
    await new Promise((resolve) => ctx.server.close(resolve));
  });

  test('one alert per flow and channel per window, whichever host ran the failure', async ({ a, b, world, received, url, flowId }) => {
    const put = await a.request<Body>('PUT', `/flows/${flowId}/alerts`, {
      body: { webhook_url: url, notify: 'every_failure', window_minutes: 60 },
    });
    assert.is(put.status, 200, JSON.stringify(put.body));
    assert.is((await a.executeAndWait({ flow_id: flowId })).status, 'failed');
    const onB = await b.executeAndWait({ flow_id: flowId });
    assert.is(onB.status, 'failed');
    assert.match(String(onB.error), /remote said no/);
    world.fail = false;
    assert.is((await b.executeAndWait({ flow_id: flowId })).status, 'completed_no_items');
    await waitFor('the recovery alert', () => received.some((r) => r.body.event === 'flow.recovered'));
    assert.equal(
      received.map((r) => r.body.event),
      ['flow.failed', 'flow.recovered'],
    );

    // Asked for every failure: a window of 0 lets each through, from either host.
    await b.request('PUT', `/flows/${flowId}/alerts`, { body: { window_minutes: 0 } });
    world.fail = true;
    const first = await a.executeAndWait({ flow_id: flowId });
    const second = await b.executeAndWait({ flow_id: flowId });
    await waitFor('both failures announced', () => received.filter((r) => r.body.event === 'flow.failed').length === 3);
    assert.equal(
      received
        .filter((r) => r.body.event === 'flow.failed')
        .slice(1)
        .map((r) => r.body.job_id)
        .sort(),
      [first.job_id, second.job_id].sort(),
    );
  });

  test.run();
}
