// The bundle users run (`flowhost serve` from dist/bundle/, scripts/bundle.mjs) with a
// third-party plugin loaded by path. The plugin imports `flowhost` from the package's
// unbundled modules, a second copy beside the bundle's: its routes, its declared error, the
// host's validation of its schema and its stored data must all work across the two copies.
// The console's files are found from the package root, not from the bundle's own URL.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, cliPath, repoRoot, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';

const test = suite('e2e: the bundled host with a plugin loaded by path');
const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-bundled-'));
let host: RunningHost;
let auth = '';

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${host.url}${path}`, {
    method,
    headers: { Authorization: auth, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

test.before(async () => {
  assert.ok(cliPath.endsWith('dist/bundle/main.js'), 'the suites spawn the bundle');
  host = await startHostProcess(dataDir, { FLOWHOST_PLUGINS: join(repoRoot, 'dist/examples/hello-plugin/index.js') });
  auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
});

test.after(async () => {
  host.proc.kill('SIGTERM');
  await waitForExit(host.proc);
  rmSync(dataDir, { recursive: true, force: true });
});

test("the plugin's routes answer, with its own error and the host's validation of its schema", async () => {
  const greeting = await call('GET', '/api/hello/v1/greeting?name=Ada');
  assert.is(greeting.status, 200, JSON.stringify(greeting.body));
  assert.match(String((greeting.body.data as { message: string }).message), /Ada/);

  const stored = await call('POST', '/api/hello/v1/greeting', { name: 'Grace' });
  assert.is(stored.status, 201, JSON.stringify(stored.body));
  assert.is((stored.body.data as { count: number }).count, 1);
  const listed = await call('GET', '/api/hello/v1/greetings');
  assert.is(listed.status, 200);
  assert.is((listed.body.data as Array<{ message: string }>).length, 1);

  // Thrown by the plugin's copy of the SDK, answered by the bundle's HTTP layer as declared.
  const nobody = await call('POST', '/api/hello/v1/greeting', { name: 'nobody' });
  assert.is(nobody.status, 400);
  assert.is(nobody.body.code, 'hello_nobody');
  const invalid = await call('POST', '/api/hello/v1/greeting', { name: '' });
  assert.is(invalid.status, 400);
  assert.is(invalid.body.code, 'rest_invalid_param');
});

test("the console's files are served from the package's dist/", async () => {
  for (const [name, type] of [
    ['console.css', 'text/css'],
    ['vendor-preact.js', 'text/javascript'],
    ['main.js', 'text/javascript'],
  ]) {
    const res = await fetch(`${host.url}/admin/assets/${name}`);
    assert.is(res.status, 200, name);
    assert.match(res.headers.get('content-type') ?? '', type);
    assert.ok((await res.text()).length > 100, `${name} has its content`);
  }
});

test.run();
