// Issue 30, as an operator runs it: `flowhost serve` behind Debian's nginx with the
// documented configuration (docs/nginx/flowhost.conf) and FLOWHOST_TRUST_PROXY naming
// nginx. Clients connect to nginx from distinct loopback addresses (127.0.0.2, 127.0.0.3),
// so what depends on the client's address is tested as a real proxy delivers it.
// Issue 52: the file serves https (a self-signed certificate made at test time), sends
// plain http there, refuses names it does not serve, and Flowhost adds HSTS and builds
// links from FLOWHOST_ALLOWED_HOSTS only.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';
import { SERVER_NAME, startNginx, type RunningNginx } from '../support/nginx-proxy.js';
import { chunkedUpload } from '../support/chunked-upload.js';

type Answer = { status: number; headers: IncomingHttpHeaders; body: string };
type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** How a request reaches nginx: over https (the default) or plain http, asking for which host (and TLS name). */
interface Reach {
  tls?: boolean;
  host?: string;
  servername?: string;
}

/** One request to nginx from the given loopback address, over https for SERVER_NAME unless `reach` says otherwise. */
function from(
  nginx: RunningNginx,
  address: string,
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string,
  reach: Reach = {},
): Promise<Answer> {
  const tls = reach.tls ?? true;
  return new Promise((resolve, reject) => {
    const req = (tls ? httpsRequest : httpRequest)(
      {
        host: '127.0.0.1',
        port: tls ? nginx.tlsPort : nginx.port,
        localAddress: address,
        method,
        path,
        headers: {
          Host: reach.host ?? SERVER_NAME,
          ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
          ...headers,
        },
        agent: false,
        ...(tls ? { ca: nginx.ca, servername: reach.servername ?? SERVER_NAME } : {}),
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

/** What a refused request ends with: nginx's 444 closes the connection, a refused handshake fails TLS. */
async function refusal(answer: Promise<Answer>): Promise<string> {
  try {
    const got = await answer;
    return `answered ${got.status}: ${got.body.slice(0, 200)}`;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message;
  }
}

const test = suite<{ host: RunningHost; nginx: RunningNginx; auth: string; password: string; flowId: number; token: string }>(
  'e2e: behind nginx with the documented configuration',
);

test.before(async (ctx) => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-nginx-host-'));
  // FLOWHOST_ALLOWED_HOSTS rather than FLOWHOST_PUBLIC_URL: links then come from the host a
  // client asked for, and that path is the one a forged Host would take.
  ctx.host = await startHostProcess(dataDir, {
    FLOWHOST_TRUST_PROXY: '127.0.0.1',
    FLOWHOST_ALLOWED_HOSTS: SERVER_NAME,
    FLOWHOST_LOGIN_MAX_FAILURES: '5',
  });
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

test('plain http is sent to https on the same host and path, without reaching Flowhost', async ({ nginx }) => {
  const answer = await from(nginx, '127.0.0.3', 'GET', '/api/automation/v1/handlers?page=2', {}, undefined, { tls: false });
  assert.is(answer.status, 301);
  assert.is(answer.headers.location, `https://${SERVER_NAME}/api/automation/v1/handlers?page=2`);
  assert.is(answer.headers['x-request-id'], undefined, 'nginx answered, not Flowhost');
  assert.is(answer.headers['strict-transport-security'], undefined, 'HSTS over plain http means nothing');
});

test('a name the file does not serve is refused without an answer (444), over http and https; an unknown TLS name gets no handshake', async ({
  nginx,
  host,
}) => {
  assert.is(await refusal(from(nginx, '127.0.0.3', 'GET', '/api/', {}, undefined, { tls: false, host: 'evil.example' })), 'ECONNRESET');
  assert.is(await refusal(from(nginx, '127.0.0.3', 'GET', '/api/', {}, undefined, { tls: false, host: '127.0.0.1' })), 'ECONNRESET');
  // Our certificate's name in the handshake, another in Host.
  assert.is(await refusal(from(nginx, '127.0.0.3', 'GET', '/api/', {}, undefined, { host: 'evil.example' })), 'ECONNRESET');
  const handshake = await refusal(
    from(nginx, '127.0.0.3', 'GET', '/api/', {}, undefined, { host: 'evil.example', servername: 'evil.example' }),
  );
  assert.match(handshake, /ERR_SSL|alert|EPROTO/i, handshake);
  assert.is(host.proc.exitCode, null);
});

test('answers over https carry HSTS and nosniff; pages refuse framing', async ({ nginx }) => {
  for (const path of ['/healthz', '/api/automation/v1/handlers', '/api/no/such/route', '/']) {
    const answer = await from(nginx, '127.0.0.3', 'GET', path);
    assert.is(answer.headers['strict-transport-security'], 'max-age=31536000', `${path} ${answer.status}`);
    assert.is(answer.headers['x-content-type-options'], 'nosniff', path);
  }
  const site = await from(nginx, '127.0.0.3', 'GET', '/');
  assert.match(String(site.headers['content-type']), /^text\/html/);
  assert.is(site.headers['x-frame-options'], 'DENY');
});

test("links use the allowed host the client asked for; a client's own X-Forwarded-Host: evil.example reaches none", async ({
  nginx,
  auth,
}) => {
  const forged = { 'X-Forwarded-Host': 'evil.example', Authorization: auth };
  const index = JSON.parse((await from(nginx, '127.0.0.3', 'GET', '/api/', forged)).body) as Body;
  assert.is(index.url, `https://${SERVER_NAME}`);
  const spec = await from(nginx, '127.0.0.3', 'GET', '/api/openapi.json', forged);
  assert.equal((JSON.parse(spec.body) as Body).servers, [{ url: `https://${SERVER_NAME}` }]);
  const status = JSON.parse(
    (await from(nginx, '127.0.0.3', 'GET', '/api/automation/v1/auth/spreadsheet-output/status', forged)).body,
  ) as Body;
  assert.is(status.data.oauth_url, `https://${SERVER_NAME}/flowhost-auth/spreadsheet-output/`);
  const site = await from(nginx, '127.0.0.3', 'GET', '/', forged);
  assert.match(String(site.headers.link), `<https://${SERVER_NAME}/api/>`);
  for (const text of [JSON.stringify(index), spec.body, JSON.stringify(status), site.body, String(site.headers.link)])
    assert.not.match(text, 'evil.example');
});

test("an OAuth callback's code and state reach neither nginx's access log nor Flowhost's request log", async ({ nginx, host, auth }) => {
  const callback = '/flowhost-auth/spreadsheet-output/?code=c0de-from-provider&state=st4te-from-us';
  const answer = await from(nginx, '127.0.0.3', 'GET', callback, { Authorization: auth, 'X-Request-Id': 'oauth-callback-1' });
  assert.is(answer.status, 200, answer.body);
  // Both write their line as the answer goes out, and reach their files or pipes a moment later.
  const nginxLine = () =>
    nginx
      .accessLog()
      .split('\n')
      .find((line) => line.includes('oauth-callback-1'));
  const hostLine = () =>
    host
      .output()
      .split('\n')
      .find((line) => line.includes('"req_id":"oauth-callback-1"') && line.includes('"msg":"request"'));
  const deadline = Date.now() + 5_000;
  while (!(nginxLine() && hostLine()) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.ok(nginxLine(), nginx.accessLog());
  assert.match(nginxLine()!, '"GET /flowhost-auth/spreadsheet-output/ HTTP/1.1" 200');
  assert.ok(hostLine(), host.output().slice(-2000));
  assert.match(hostLine()!, '?code=[redacted]&state=[redacted]');
  for (const secret of ['c0de-from-provider', 'st4te-from-us']) {
    assert.not.match(nginx.accessLog(), secret);
    assert.not.match(host.output(), secret);
  }
});

test('an over-limit chunked upload through nginx is refused and the host keeps serving', async ({ nginx, host, auth }) => {
  const status = await chunkedUpload({
    port: nginx.tlsPort,
    tls: { ca: nginx.ca, servername: SERVER_NAME },
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
