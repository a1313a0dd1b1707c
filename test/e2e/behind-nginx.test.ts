// Issue 30, as an operator runs it: `flowhost serve` behind Debian's nginx with the
// documented configuration (docs/nginx/flowhost.conf) and FLOWHOST_TRUST_PROXY naming
// nginx. Clients connect to nginx from distinct loopback addresses (127.0.0.2, 127.0.0.3),
// so what depends on the client's address is tested as a real proxy delivers it.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';
import { startNginx, type RunningNginx } from '../support/nginx-proxy.js';
import { chunkedUpload } from '../support/chunked-upload.js';

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** One request to nginx from the given loopback address. */
function from(
  nginx: RunningNginx,
  address: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(
      {
        host: '127.0.0.1',
        port: nginx.port,
        localAddress: address,
        method,
        path,
        headers: { ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers },
        agent: false,
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

const test = suite<{ host: RunningHost; nginx: RunningNginx; auth: string; password: string; flowId: number; token: string }>(
  'e2e: behind nginx with the documented configuration',
);

test.before(async (ctx) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-nginx-host-'));
  ctx.host = await startHostProcess(dataDir, { FLOWHOST_TRUST_PROXY: '127.0.0.1', FLOWHOST_LOGIN_MAX_FAILURES: '5' });
  ctx.nginx = await startNginx(new URL(ctx.host.url));
  ctx.password = readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim();
  ctx.auth = basicAuth('admin', ctx.password);
  const admin = { Authorization: ctx.auth };
  const api = '/api/automation/v1';
  const pipeline = JSON.parse(
    (
      await from(
        ctx.nginx,
        '127.0.0.3',
        'POST',
        `${api}/pipelines`,
        admin,
        JSON.stringify({ pipeline_name: 'Hooked', steps: [{ step_type: 'fetch' }] }),
      )
    ).body,
  ) as Body;
  const pipelineId = pipeline.data.pipeline_id as number;
  const flow = JSON.parse(
    (
      await from(
        ctx.nginx,
        '127.0.0.3',
        'POST',
        `${api}/flows`,
        admin,
        JSON.stringify({ pipeline_id: pipelineId, flow_name: 'Hooked flow' }),
      )
    ).body,
  ) as Body;
  ctx.flowId = flow.data.flow_id as number;
  const enabled = JSON.parse(
    (await from(ctx.nginx, '127.0.0.3', 'PUT', `${api}/flows/${ctx.flowId}/webhook`, admin, JSON.stringify({ mode: 'bearer' }))).body,
  ) as Body;
  ctx.token = enabled.data.token as string;
});
test.after(async ({ host, nginx }) => {
  await nginx?.stop();
  if (host && host.proc.exitCode === null) host.proc.kill('SIGTERM');
  if (host) await waitForExit(host.proc);
});

test("one client's failed webhook attempts do not refuse another client's delivery; remote_ip is the client's", async ({
  nginx,
  flowId,
  token,
  auth,
}) => {
  const statuses: number[] = [];
  for (let i = 0; i < 25; i++)
    statuses.push(
      (
        await from(
          nginx,
          '127.0.0.2',
          'POST',
          `/api/automation/v1/trigger/${i % 2 ? flowId : 99999}`,
          { Authorization: 'Bearer wrong' },
          '{}',
        )
      ).status,
    );
  assert.is(statuses[0], 401);
  assert.is(statuses.at(-1), 429, `the failing client is limited: ${statuses}`);
  const good = await from(
    nginx,
    '127.0.0.3',
    'POST',
    `/api/automation/v1/trigger/${flowId}`,
    { Authorization: `Bearer ${token}` },
    '{"n":1}',
  );
  assert.is(good.status, 200, good.body);
  const jobId = (JSON.parse(good.body) as Body).job_id as number;
  const job = JSON.parse((await from(nginx, '127.0.0.3', 'GET', `/api/automation/v1/jobs/${jobId}`, { Authorization: auth })).body) as Body;
  const trigger = JSON.stringify(job);
  assert.match(trigger, /"remote_ip":"127\.0\.0\.3"/, 'the job records the client, not nginx');
});

test('wrong passwords for admin from one client throttle that client only', async ({ nginx, auth }) => {
  const wrong = basicAuth('admin', 'not the password');
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++)
    statuses.push((await from(nginx, '127.0.0.2', 'GET', '/api/automation/v1/handlers', { Authorization: wrong })).status);
  assert.is(statuses.at(-1), 429, `${statuses}`);
  assert.is(
    (await from(nginx, '127.0.0.3', 'GET', '/api/automation/v1/handlers', { Authorization: auth })).status,
    200,
    'the administrator elsewhere signs in',
  );
});

test("a stranger naming another client in its own Forwarded header throttles only itself (a trial locked the admin's address out this way)", async ({
  nginx,
  password,
}) => {
  // The administrator signs in from 127.0.0.6; a stranger on 127.0.0.5 claims to be .6 in
  // RFC 7239's header, which nginx's documented config passes on untouched.
  const signIn = (address: string, pass: string, headers: Record<string, string> = {}) =>
    from(nginx, address, 'POST', '/api/automation/v1/session', headers, JSON.stringify({ login: 'admin', password: pass }));
  assert.is((await signIn('127.0.0.6', password)).status, 200);
  const statuses: number[] = [];
  for (let i = 0; i < 7; i++) statuses.push((await signIn('127.0.0.5', 'still not the password', { Forwarded: 'for=127.0.0.6' })).status);
  assert.is(statuses.at(-1), 429, `${statuses}`);
  assert.is((await signIn('127.0.0.6', password)).status, 200, "the administrator's own address is not the stranger's to lock");
  // Nor can the stranger step out of its own lockout by naming another address.
  assert.is((await signIn('127.0.0.5', password, { Forwarded: 'for=127.0.0.9' })).status, 429);
});

test("a client's X-Request-Id passes through nginx and is echoed; without one, nginx's id is", async ({ nginx }) => {
  const kept = await from(nginx, '127.0.0.3', 'GET', '/healthz', { 'X-Request-Id': 'client-chose-this-1' });
  const withoutOne = await from(nginx, '127.0.0.3', 'GET', '/api/automation/v1/handlers');
  assert.is(kept.status, 200);
  assert.is(withoutOne.headers['x-request-id']?.toString().length, 32, "nginx's $request_id: 32 hex digits");
  const answered = await from(
    nginx,
    '127.0.0.3',
    'POST',
    '/api/automation/v1/trigger/99999',
    { 'X-Request-Id': 'client-chose-this-2' },
    '{}',
  );
  assert.is(answered.headers['x-request-id'], 'client-chose-this-2');
});

test('the public URL in links is the one the client used through nginx', async ({ nginx }) => {
  const index = await from(nginx, '127.0.0.3', 'GET', '/api/openapi.json');
  assert.is(index.status, 200);
  const spec = JSON.parse(index.body) as Body;
  assert.ok(JSON.stringify(spec.servers ?? []).includes(`127.0.0.1:${nginx.port}`), `servers: ${JSON.stringify(spec.servers)}`);
});

test('an over-limit chunked upload through nginx is refused and the host keeps serving', async ({ nginx, host, auth }) => {
  const status = await chunkedUpload({
    port: nginx.port,
    localAddress: '127.0.0.4',
    path: '/api/wp/v2/media',
    headers: { Authorization: auth, 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="b.png"' },
    totalBytes: 70_000_000,
  });
  assert.is(status, 413);
  assert.is((await from(nginx, '127.0.0.3', 'GET', '/healthz')).status, 200);
  assert.is(host.proc.exitCode, null);
});

test.run();
