// Issue 30's hostile and slow clients, against a real `flowhost serve` with short limits:
// an over-limit chunked upload must not kill the process, slow headers and bodies are cut
// off, connections are capped per address, and a client's X-Request-Id is kept.
// test-runner: waits (the server's header, idle and body timeouts must really pass: about 9 s, 1.4 s of CPU)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { connect, type Socket } from 'node:net';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chunkedUpload } from '../support/chunked-upload.js';
import { basicAuth, startHostProcess, waitForExit, type RunningHost } from '../support/host-process.js';

const test = suite<{ host: RunningHost; dataDir: string; auth: string }>('e2e: hostile and slow clients');

const LIMITS = {
  FLOWHOST_HEADERS_TIMEOUT_MS: '1500',
  FLOWHOST_BODY_IDLE_TIMEOUT_MS: '1000',
  FLOWHOST_BODY_TIMEOUT_MS: '3000',
  FLOWHOST_MAX_CONNECTIONS_PER_ADDRESS: '20',
};

test.before(async (ctx) => {
  ctx.dataDir = mkdtempSync(join(tmpdir(), 'flowhost-hostile-'));
  ctx.host = await startHostProcess(ctx.dataDir, LIMITS);
  ctx.auth = basicAuth('admin', readFileSync(join(ctx.dataDir, 'initial-admin-password'), 'utf8').trim());
});
test.after(async ({ host }) => {
  if (host.proc.exitCode === null) host.proc.kill('SIGTERM');
  await waitForExit(host.proc);
});

function open(base: string): Promise<Socket> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect({ host: url.hostname, port: Number(url.port) }, () => resolve(socket));
    socket.once('error', reject);
  });
}

/** Everything the server sends until it closes the socket, and how long that took. */
function untilClosed(socket: Socket, limitMs: number): Promise<{ text: string; ms: number; closedByServer: boolean }> {
  const started = Date.now();
  let text = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (text += d));
  socket.on('error', () => undefined);
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, ms: Date.now() - started, closedByServer: false });
    }, limitMs);
    socket.once('close', () => {
      clearTimeout(timer);
      resolve({ text, ms: Date.now() - started, closedByServer: true });
    });
  });
}

const alive = async (base: string) => (await fetch(`${base}/healthz`)).status;

test('an over-limit chunked media upload is answered 413 and the process survives', async ({ host, auth }) => {
  // About 70 MB against the 64 MiB media limit, as `head -c 70000000 /dev/zero | curl ...` sends it.
  const status = await chunkedUpload({
    port: Number(new URL(host.url).port),
    path: '/api/wp/v2/media',
    headers: { Authorization: auth, 'Content-Type': 'image/png', 'Content-Disposition': 'attachment; filename="b.png"' },
    totalBytes: 70_000_000,
  });
  assert.is(status, 413);
  assert.is(await alive(host.url), 200, 'the host still answers after the 413');
  assert.is(host.proc.exitCode, null, 'the process did not exit');
  assert.not.match(host.output(), /Cannot read properties of null/);
});

test('headers sent one byte at a time are cut off with 408 within the header timeout', async ({ host }) => {
  const socket = await open(host.url);
  const request = `GET /healthz HTTP/1.1\r\nHost: x\r\nX-Slow: ${'a'.repeat(200)}\r\n\r\n`;
  let i = 0;
  const drip = setInterval(() => {
    if (i < request.length && !socket.destroyed) socket.write(request[i++]!);
  }, 100);
  const result = await untilClosed(socket, 10_000);
  clearInterval(drip);
  assert.ok(result.closedByServer, 'the server closed the connection');
  assert.ok(result.ms < 4_000, `closed after ${result.ms} ms (header timeout 1.5 s, checked every second)`);
  assert.match(result.text, /^HTTP\/1\.1 408/);
  assert.match(result.text, /rest_request_timeout/);
});

test('a body that stops arriving is answered 408 and the connection closed', async ({ host }) => {
  const socket = await open(host.url);
  socket.write('POST /api/automation/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"a":');
  const result = await untilClosed(socket, 10_000);
  assert.ok(result.closedByServer);
  assert.ok(result.ms < 4_000, `closed after ${result.ms} ms (idle timeout 1 s)`);
  assert.match(result.text, /^HTTP\/1\.1 408/, result.text);
  assert.match(result.text, /too slowly/);
});

test('an upload that stalls is answered 408, not kept open', async ({ host, auth }) => {
  const socket = await open(host.url);
  socket.write(
    `POST /api/wp/v2/media HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: image/png\r\nContent-Disposition: attachment; filename="a.png"\r\nContent-Length: 100000\r\n\r\n\x89PNG`,
  );
  const result = await untilClosed(socket, 10_000);
  assert.ok(result.closedByServer);
  assert.ok(result.ms < 4_000, `closed after ${result.ms} ms (idle timeout 1 s)`);
  assert.match(result.text, /^HTTP\/1\.1 408/, result.text);
  assert.is(await alive(host.url), 200);
});

test('a body dripped a byte at a time is cut off at the total body time', async ({ host }) => {
  const socket = await open(host.url);
  socket.write(
    'POST /api/automation/v1/session HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n',
  );
  // One byte every 300 ms keeps the idle timer (1 s) from firing; the total (3 s) does.
  const drip = setInterval(() => !socket.destroyed && socket.write('1\r\na\r\n'), 300);
  const result = await untilClosed(socket, 15_000);
  clearInterval(drip);
  assert.ok(result.closedByServer);
  assert.ok(result.ms >= 2_500 && result.ms < 7_000, `closed after ${result.ms} ms (total 3 s)`);
  assert.match(result.text, /^HTTP\/1\.1 408/, result.text);
  assert.match(result.text, /not complete after 3 s/);
});

test('a client that leaves mid-body, or breaks the chunk framing, is no server error: no 500, no error-level line', async ({
  host,
  auth,
}) => {
  const before = host.output().length;
  const gone = await open(host.url);
  // Signed in: the permission is checked before the body is read.
  gone.write(
    `POST /api/automation/v1/pipelines HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"pipeline_name":`,
  );
  await new Promise((resolve) => setTimeout(resolve, 100));
  gone.destroy();
  const broken = await open(host.url);
  broken.write(
    `POST /api/automation/v1/pipelines HTTP/1.1\r\nHost: x\r\nAuthorization: ${auth}\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nZZZ\r\n{}\r\n`,
  );
  const answer = await untilClosed(broken, 10_000);
  assert.match(answer.text, /^HTTP\/1\.1 400/, answer.text);
  assert.match(answer.text, /rest_bad_request/);
  // Both requests' log lines are written once they end: wait for two of them.
  let log = '';
  for (let i = 0; i < 100; i++) {
    log = host.output().slice(before);
    if ((log.match(/The client left before its body arrived/g) ?? []).length >= 2) break;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  assert.is((log.match(/The client left before its body arrived/g) ?? []).length, 2, log);
  assert.not.match(log, /"status":500/);
  assert.not.match(log, /"level":50/);
  assert.is(await alive(host.url), 200);
});

test('one address holds at most its connection cap; the next connection is told 503 and others are served', async ({ host }) => {
  const held: Socket[] = [];
  for (let i = 0; i < 20; i++) held.push(await open(host.url));
  try {
    const extra = await open(host.url);
    const refused = await untilClosed(extra, 5_000);
    assert.ok(refused.closedByServer);
    assert.match(refused.text, /^HTTP\/1\.1 503/);
    assert.match(refused.text, /rest_too_many_connections/);
  } finally {
    for (const socket of held) socket.destroy();
  }
  // Closing them frees the budget again (the server counts closes as they happen).
  let status = 0;
  for (let tries = 0; tries < 50 && status !== 200; tries++) {
    status = await alive(host.url).catch(() => 0);
    if (status !== 200) await new Promise((r) => setTimeout(r, 100));
  }
  assert.is(status, 200);
});

test('a safe X-Request-Id is kept and echoed; an unsafe one is replaced', async ({ host }) => {
  const kept = await fetch(`${host.url}/api/automation/v1/trigger/1`, {
    method: 'POST',
    headers: { 'X-Request-Id': 'abc-123.def:4' },
    body: '{}',
  });
  assert.is(kept.headers.get('x-request-id'), 'abc-123.def:4');
  const replaced = await fetch(`${host.url}/api/automation/v1/trigger/1`, {
    method: 'POST',
    headers: { 'X-Request-Id': 'a b"<script>' },
    body: '{}',
  });
  assert.match(replaced.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
  // The process logs asynchronously: wait for the line, bounded.
  for (let i = 0; i < 100 && !/"req_id":"abc-123\.def:4"/.test(host.output()); i++) await new Promise((r) => setTimeout(r, 50));
  assert.match(host.output(), /"req_id":"abc-123\.def:4"/, 'the request line carries the client id');
});

test.run();
