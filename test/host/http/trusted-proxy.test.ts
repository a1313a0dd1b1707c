// Issue 30: behind a reverse proxy every client looked like the proxy, so one stranger's
// failures locked out every webhook sender and the administrator. The client address is
// now read through trusted hops only, and every per-client limit uses it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import type { IncomingMessage } from 'node:http';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { compileTrust, readClient } from '../../../host/http/client-address.js';
import { loadConfig } from '../../../host/config/load-config.js';
import { testStores } from '../../support/test-stores.js';
import { webhookEcho } from '../../support/webhook-echo.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const fakeRequest = (peer: string, headers: Record<string, string>): IncomingMessage =>
  ({ socket: { remoteAddress: peer }, headers }) as unknown as IncomingMessage;

const unit = suite('host: the client address through trusted proxies');

unit('without FLOWHOST_TRUST_PROXY forwarded headers are ignored', () => {
  const view = readClient(
    fakeRequest('127.0.0.1', { 'x-forwarded-for': '203.0.113.9', 'x-forwarded-proto': 'https' }),
    compileTrust(undefined),
  );
  assert.equal(view, { ip: '127.0.0.1', protocol: 'http', host: undefined, forwarded: false });
});

unit('X-Forwarded-For is read from the right through trusted hops only', () => {
  const headers = {
    'x-forwarded-for': '198.51.100.1, 203.0.113.9, 10.0.0.2',
    'x-forwarded-proto': 'https',
    'x-forwarded-host': 'flows.example.org',
    host: 'internal:8080',
  };
  // Only the socket's peer (nginx on loopback) is trusted: the hop it names is the client.
  assert.is(readClient(fakeRequest('127.0.0.1', headers), compileTrust('loopback')).ip, '10.0.0.2');
  // The load balancer's range is trusted too: one more hop is believed, never the left end a client wrote.
  const view = readClient(fakeRequest('127.0.0.1', headers), compileTrust('loopback, 10.0.0.0/8'));
  assert.is(view.ip, '203.0.113.9');
  assert.is(view.protocol, 'https');
  assert.is(view.host, 'flows.example.org');
  // A hop count: two proxies in front.
  assert.is(readClient(fakeRequest('127.0.0.1', headers), compileTrust('2')).ip, '203.0.113.9');
  // A peer that is not trusted is the client, whatever it claims.
  assert.is(readClient(fakeRequest('192.0.2.7', headers), compileTrust('loopback')).ip, '192.0.2.7');
});

unit(
  "only the header the proxies write is read: a client's own Forwarded is ignored by default, its X-Forwarded-For with 'forwarded'",
  () => {
    const headers = { 'x-forwarded-for': '203.0.113.9', forwarded: 'for=198.51.100.66' };
    assert.is(readClient(fakeRequest('127.0.0.1', headers), compileTrust('loopback')).ip, '203.0.113.9');
    assert.is(readClient(fakeRequest('127.0.0.1', headers), compileTrust('loopback', 'forwarded')).ip, '198.51.100.66');
    assert.is(readClient(fakeRequest('127.0.0.1', { forwarded: 'for=198.51.100.66' }), compileTrust('loopback')).ip, '127.0.0.1');
    assert.is(loadConfig({ env: { FLOWHOST_PROXY_HEADER: 'forwarded' } }).proxyHeader, 'forwarded');
    assert.is(loadConfig({ env: {} }).proxyHeader, 'x-forwarded-for');
    assert.throws(() => loadConfig({ env: { FLOWHOST_PROXY_HEADER: 'x-real-ip' } }), /proxyHeader|FLOWHOST_PROXY_HEADER/);
  },
);

unit('RFC 7239 Forwarded (FLOWHOST_PROXY_HEADER=forwarded) is read the same way, with ports and IPv6 brackets', () => {
  const view = readClient(
    fakeRequest('::ffff:127.0.0.1', { forwarded: 'for=198.51.100.1, for="[2001:db8::7]:4711";proto=https;host=flows.example.org' }),
    compileTrust('loopback', 'forwarded'),
  );
  assert.is(view.ip, '2001:db8::7');
  assert.is(view.protocol, 'https');
  assert.is(view.host, 'flows.example.org');
  assert.is(
    readClient(fakeRequest('127.0.0.1', { forwarded: 'for=unknown' }), compileTrust('loopback', 'forwarded')).ip,
    '127.0.0.1',
    'an unknown node leaves the proxy as the client',
  );
});

unit('a trust setting that is not an address, a range or a name stops start-up naming it', () => {
  assert.throws(() => loadConfig({ env: { FLOWHOST_TRUST_PROXY: 'loopback, not-an-ip' } }), /FLOWHOST_TRUST_PROXY.*not-an-ip/);
  const env = { FLOWHOST_TRUST_PROXY: '127.0.0.1, 10.0.0.0/8', FLOWHOST_PUBLIC_URL: 'https://flows.example.org' };
  assert.is(loadConfig({ env }).trustProxy, '127.0.0.1, 10.0.0.0/8');
});

unit.run();

const SIGN_IN = 'correct horse battery staple';
const { plugin: echo, seen, triggerOf } = webhookEcho('proxy-fixtures', 'proxy-input');

for (const store of testStores('host: per-client limits behind a proxy')) {
  type Ctx = {
    t: TestHost;
    flowId: number;
    token: string;
    post: (path: string, init: { from: string; headers?: Record<string, string>; body?: string }) => Promise<Response>;
  };
  const test = suite<Ctx>(`host: per-client limits behind a trusted proxy (${store.label})`);

  test.before(async (ctx) => {
    seen.clear();
    // The test's own requests come from 127.0.0.1, the proxy; X-Forwarded-For names the client.
    ctx.t = await createTestHost({
      plugins: [echo],
      // Links keep the host the test reaches (a trusted proxy needs an allowed host or a public URL).
      config: { ...store.config(), trustProxy: '127.0.0.1', allowedHosts: ['127.0.0.1'], loginMaxFailures: 5, loginMaxFailuresPerLogin: 8 },
    });
    const t = ctx.t;
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Hooked', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id;
    const stepId = (await t.request<Body>('GET', `/pipelines/${pipelineId}`)).body.data.pipeline.pipeline_steps[0].pipeline_step_id;
    ctx.flowId = (
      await t.request<Body>('POST', '/flows', {
        body: {
          pipeline_id: pipelineId,
          flow_name: 'Hooked flow',
          flow_config: { [stepId]: { handler_slug: 'proxy-input', handler_config: {} } },
        },
      })
    ).body.data.flow_id;
    const admin = await t.host.users.findByLogin(t.admin.login);
    await t.host.users.setPassword(admin!.user_id, SIGN_IN);
    ctx.token = (await t.request<Body>('PUT', `/flows/${ctx.flowId}/webhook`, { body: { mode: 'bearer' } })).body.data.token as string;
    ctx.post = (path, init) =>
      fetch(`${t.url}/api/automation/v1${path}`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': init.from, ...(init.headers ?? {}) },
        body: init.body ?? '{}',
      });
  });
  test.after(async (ctx) => ctx.t.stop());

  test("a stranger's failed webhook attempts never refuse another client's signed delivery; remote_ip is the client", async ({
    flowId,
    token,
    post,
  }) => {
    const statuses: number[] = [];
    // 25 failures from one client: to this flow, and to one that does not exist.
    for (let i = 0; i < 25; i++)
      statuses.push(
        (await post(`/trigger/${i % 2 ? flowId : 99999}`, { from: '203.0.113.5', headers: { Authorization: 'Bearer wrong' } })).status,
      );
    assert.ok(
      statuses.slice(0, 10).every((s) => s === 401),
      `first failures are 401: ${statuses}`,
    );
    assert.is(statuses.at(-1), 429, 'the failing client is limited');
    const other = await post(`/trigger/${flowId}`, {
      from: '198.51.100.20',
      headers: { Authorization: `Bearer ${token}` },
      body: '{"n":1}',
    });
    assert.is(other.status, 200, 'a correct delivery from another client is accepted');
    const jobId = ((await other.json()) as Body).job_id as number;
    const trigger = await triggerOf(jobId);
    assert.is(trigger.remote_ip, '198.51.100.20');
    assert.is(trigger.request_id, other.headers.get('x-request-id'));
    // The limited client's own correct delivery is accepted too (it fixed its token): the
    // budget refuses failures only, and its next failure still is.
    assert.is((await post(`/trigger/${flowId}`, { from: '203.0.113.5', headers: { Authorization: `Bearer ${token}` } })).status, 200);
    assert.is((await post(`/trigger/${flowId}`, { from: '203.0.113.5', headers: { Authorization: 'Bearer wrong' } })).status, 429);
  });

  test('wrong passwords for admin from one address lock out that address, not the administrator elsewhere', async ({ t, post }) => {
    const login = (from: string, password: string) => post('/session', { from, body: JSON.stringify({ login: t.admin.login, password }) });
    for (let i = 0; i < 6; i++) await login('203.0.113.66', 'guess');
    assert.is((await login('203.0.113.66', 'guess')).status, 429, 'the guessing address is throttled');
    const elsewhere = await fetch(`${t.url}/api/automation/v1/handlers`, {
      headers: {
        'X-Forwarded-For': '198.51.100.20',
        Authorization: `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`,
      },
    });
    assert.is(elsewhere.status, 200, 'the administrator still signs in from their own address');
  });

  test('a guesser spread over many addresses is refused on new addresses, while a known address keeps working', async ({ t }) => {
    const basic = (password: string) => `Basic ${Buffer.from(`${t.admin.login}:${password}`).toString('base64')}`;
    const call = (from: string, password: string) =>
      fetch(`${t.url}/api/automation/v1/handlers`, { headers: { 'X-Forwarded-For': from, Authorization: basic(password) } });
    // The administrator's usual address signs in (and becomes known for the login).
    assert.is((await call('198.51.100.77', t.admin.password)).status, 200);
    // Failures for admin from many addresses pass the per-login budget (8 here; the earlier test spent 6).
    for (let i = 1; i <= 8; i++) await call(`192.0.2.${i}`, 'guess');
    const fresh = await call('192.0.2.200', t.admin.password);
    assert.is(fresh.status, 429, 'a new address is refused for this login while the guessing lasts');
    assert.ok(Number(fresh.headers.get('retry-after')) > 0);
    assert.is((await call('198.51.100.77', t.admin.password)).status, 200, 'the known address is not locked out');
  });

  test('X-Forwarded-Proto https from the trusted proxy makes the session cookie Secure', async ({ t }) => {
    const plain = await fetch(`${t.url}/api/automation/v1/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77' },
      body: JSON.stringify({ login: t.admin.login, password: SIGN_IN }),
    });
    const secure = await fetch(`${t.url}/api/automation/v1/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Forwarded-For': '198.51.100.77', 'X-Forwarded-Proto': 'https' },
      body: JSON.stringify({ login: t.admin.login, password: SIGN_IN }),
    });
    assert.is(plain.status, 200, 'the address the administrator signed in from before');
    assert.not.match(plain.headers.get('set-cookie') ?? '', /Secure/);
    assert.is(secure.status, 200, await secure.clone().text());
    assert.match(secure.headers.get('set-cookie') ?? '', /; Secure/);
  });

  test.run();
}
