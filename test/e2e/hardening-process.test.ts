// The hardening issue's process-level findings, against a real `flowhost serve`: requests
// that used to kill the process, a busy port, and a CLI left with a stale host.json.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { request as httpRequest } from 'node:http';
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
  // Give a crash (it came from a callback after the answer) the time to happen.
  await new Promise((r) => setTimeout(r, 200));
  assert.is(host.proc.exitCode, null, host.output());
  const health = await raw(host.url, 'GET', '/healthz');
  assert.is(health.status, 200);
  assert.not.match(host.output(), /ERR_HTTP_HEADERS_SENT|uncaughtException/);
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
  writeFileSync(join(dataDir, 'host.json'), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:9', api_base: 'http://127.0.0.1:9/api/automation/v1', started_at: new Date().toISOString() }));
  writeFileSync(join(dataDir, 'local-credential'), 'x\n');
  const again = runCli(['jobs', 'list', '--json', '--data-dir', dataDir]);
  assert.is(again.status, 0, again.stderr);
  assert.not.match(again.stderr, /fetch failed/);
});

stale.run();
