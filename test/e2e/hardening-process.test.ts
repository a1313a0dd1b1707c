// The hardening issue's process-level findings, against a real `flowhost serve`: requests
// that used to kill the process, a busy port, and a CLI left with a stale host.json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';

type Raw = { status: number; body: string };

/** A request exactly as given: node:http sends the method and path without normalising them. */
function raw(base: string, method: string, path: string): Promise<Raw> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method, path, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (d: string) => (body += d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const test = suite<{ host: RunningHost; dataDir: string }>('e2e: requests that used to crash the host');
test.before(async (ctx) => {
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'flowhost-hardening-'));
  ctx.host = await startHostProcess(ctx.dataDir);
});
test.after(async ({ host }) => {
  if (host.proc.exitCode === null) host.proc.kill('SIGTERM');
  await waitForExit(host.proc);
});

test('unknown methods and bad percent-escapes get one error body each and the host keeps serving', async ({ host }) => {
  const cases: Array<[string, string, number, string]> = [
    ['TRACE', '/api/automation/v1/users', 404, 'rest_no_route'],
    ['PROPFIND', '/api/automation/v1/users', 404, 'rest_no_route'],
    ['GET', '/api/automation/v1/users/%ff', 400, 'rest_invalid_url'],
    ['GET', '/api/automation/v1/users/%E0%A4%A', 400, 'rest_invalid_url'],
    ['GET', '/api/automation/v1/users/%C0%AF', 400, 'rest_invalid_url'],
    ['POST', '/api/automation/v1/trigger/1?__proto__=x', 401, 'rest_unauthorized'],
    ['POST', '/api/automation/v1/trigger/1?constructor=x', 401, 'rest_unauthorized'],
  ];
  for (const [method, path, status, code] of cases) {
    const res = await raw(host.url, method, path);
    assert.is(res.status, status, `${method} ${path}: ${res.body}`);
    const body = JSON.parse(res.body) as { code: string; message: string; data: { status: number } };
    assert.is(body.code, code, `${method} ${path}`);
    assert.is(body.data.status, status);
    assert.ok(body.message);
  }
  // A crash came from a callback after the answer: the host runs those callbacks before it
  // reads the next request, so a health check answered afterwards proves they did not throw.
  const health = await raw(host.url, 'GET', '/healthz');
  assert.is(health.status, 200);
  assert.is(host.proc.exitCode, null, host.output());
  assert.not.match(host.output(), /ERR_HTTP_HEADERS_SENT|uncaughtException/);
});

/** Bytes exactly as given, on a socket: what Node's HTTP parser refuses before any route. */
function rawBytes(base: string, request: Buffer): Promise<string> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.write(request));
    let text = '';
    socket.on('data', (d) => (text += d.toString('latin1')));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
}

test('what the HTTP parser refuses is answered with the JSON error body too', async ({ host }) => {
  const rawByte = await rawBytes(
    host.url,
    Buffer.concat([Buffer.from('GET /api/automation/v1/jobs/'), Buffer.from([0xc3, 0xbc]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]),
  );
  assert.match(rawByte, /^HTTP\/1\.1 400 /);
  assert.match(rawByte, /X-Request-Id: [0-9a-f-]{36}/);
  const body = JSON.parse(rawByte.slice(rawByte.indexOf('\r\n\r\n') + 4)) as { code: string; data: { status: number } };
  assert.equal([body.code, body.data.status], ['rest_bad_request', 400]);
  // The same refusal of a HEAD carries no body: the client would read it as garbage.
  const head = await rawBytes(
    host.url,
    Buffer.concat([
      Buffer.from('HEAD /api/automation/v1/jobs/'),
      Buffer.from([0xc3, 0xbc]),
      Buffer.from(' HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}'),
    ]),
  );
  assert.match(head, /^HTTP\/1\.1 400 /);
  assert.ok(head.endsWith('\r\n\r\n'), `no body after the headers: ${JSON.stringify(head)}`);
  const huge = await rawBytes(host.url, Buffer.from(`GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`));
  assert.match(huge, /^HTTP\/1\.1 431 /);
  assert.match(huge, /"code":"rest_headers_too_large"/);
  assert.is((await raw(host.url, 'GET', '/healthz')).status, 200);
});

test('a Host header that is no host name is answered 400 once, and the host keeps serving', async ({ host }) => {
  // restify routes the path of `http://{Host}{url}`: `Host: a b` threw inside its router,
  // outside any handler, and the process exited; `Host: x/api` moved the routed path.
  for (const value of ['a b', '[', 'x/api', '1.2.3.999']) {
    const answer = await rawBytes(
      host.url,
      Buffer.from(`GET /automation/v1/users HTTP/1.1\r\nHost: ${value}\r\nConnection: close\r\n\r\n`),
    );
    assert.match(answer, /^HTTP\/1\.1 400 /, `Host: ${value}`);
    assert.match(answer, /X-Request-Id: [0-9a-f-]{36}/);
    const body = JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)) as { code: string; data: { status: number } };
    assert.equal([body.code, body.data.status], ['rest_bad_request', 400], `Host: ${value}`);
  }
  const fine = await rawBytes(host.url, Buffer.from('GET /healthz HTTP/1.1\r\nHost: example.com:8080\r\nConnection: close\r\n\r\n'));
  assert.match(fine, /^HTTP\/1\.1 200 /);
  assert.is(host.proc.exitCode, null, host.output());
  assert.not.match(host.output(), /Invalid URL|uncaughtException/);
});

test('answers given before any route also carry X-Request-Id', async ({ host }) => {
  const url = new URL(host.url);
  const id = await new Promise<string | undefined>((resolve, reject) => {
    const req = httpRequest({ host: url.hostname, port: url.port, method: 'TRACE', path: '/x', agent: false }, (res) => {
      res.resume();
      resolve(res.headers['x-request-id'] as string | undefined);
    });
    req.on('error', reject);
    req.end();
  });
  assert.match(id ?? '', /^[0-9a-f-]{36}$/);
});

test('HEAD answers wherever GET does, without a body', async ({ host }) => {
  const head = await raw(host.url, 'HEAD', '/healthz');
  assert.is(head.status, 200);
  assert.is(head.body, '');
  const openapi = await raw(host.url, 'HEAD', '/api/openapi.json');
  assert.is(openapi.status, 200);
  const unknown = await raw(host.url, 'HEAD', '/nothing-here');
  assert.is(unknown.status, 404);
});

test('a second host on the busy port says so in one line and exits non-zero', async ({ host }) => {
  const port = new URL(host.url).port;
  const other = mkdtempSync(join(tmpdir(), 'flowhost-busy-'));
  const res = runCli(['serve', '--data-dir', other, '--port', port]);
  assert.is(res.status, 1, res.stdout + res.stderr);
  assert.match(res.stderr, new RegExp(`^flowhost: Port ${port} on 127\\.0\\.0\\.1 is already in use; .*--port\\)\\.\\n$`));
  assert.not.match(res.stderr, /at .*\(node:|EADDRINUSE/);
});

test.run();

const stale = suite('e2e: a CLI after the host was killed with -9');

stale('a stale host.json is noticed: the CLI says so and works on the data directory', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-stale-'));
  const host = await startHostProcess(dataDir);
  host.proc.kill('SIGKILL');
  await waitForExit(host.proc);
  assert.ok(existsSync(join(dataDir, 'host.json')), 'kill -9 leaves host.json behind');
  const res = runCli(['flows', 'list', '--json', '--data-dir', dataDir]);
  assert.is(res.status, 0, res.stderr);
  assert.match(res.stderr, /host\.json \(pid \d+\) is not running; opening the data directory directly/);
  assert.equal(JSON.parse(res.stdout), []);
  assert.not.ok(existsSync(join(dataDir, 'host.json')), 'the stale file is removed');
  // A host.json naming a pid that never existed is treated the same way.
  writeFileSync(
    join(dataDir, 'host.json'),
    JSON.stringify({
      pid: 2 ** 22 + 12345,
      url: 'http://127.0.0.1:9',
      api_base: 'http://127.0.0.1:9/api/automation/v1',
      started_at: new Date().toISOString(),
    }),
  );
  writeFileSync(join(dataDir, 'local-credential'), 'x\n');
  const again = runCli(['jobs', 'list', '--json', '--data-dir', dataDir]);
  assert.is(again.status, 0, again.stderr);
  assert.not.match(again.stderr, /fetch failed/);
});

stale.run();
