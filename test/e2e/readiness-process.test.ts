// GET /readyz of a real `flowhost serve` while it starts: the port answers 503 host_starting
// as soon as it is bound, for as long as the store takes to open (here: a MongoDB address
// that accepts connections and never answers), and 200 on a host that has started.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer as createTcpServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cliPath, repoRoot, startHostProcess, waitForExit } from '../support/host-process.js';

async function freePort(): Promise<number> {
  const probe = createTcpServer();
  await new Promise<void>((r) => probe.listen(0, '127.0.0.1', () => r()));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((r) => probe.close(() => r()));
  return port;
}

const test = suite('e2e: readiness of the real server process');

test('while the store is still opening, /readyz answers 503 host_starting', async () => {
  const sockets = new Set<Socket>();
  const silent = createTcpServer((socket) => void sockets.add(socket));
  await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
  const mongodbUrl = `mongodb://127.0.0.1:${(silent.address() as AddressInfo).port}/flowhost_never`;
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-starting-'));
  const proc = spawn(process.execPath, [cliPath, 'serve', '--data-dir', dataDir, '--port', String(port)], {
    cwd: repoRoot,
    env: cleanEnv({ MONGODB_URL: mongodbUrl }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  proc.stdout!.on('data', (d) => (out += d));
  proc.stderr!.on('data', (d) => (out += d));
  try {
    const deadline = Date.now() + 20_000;
    let answer: { status: number; body: Record<string, unknown>; retryAfter: string | null } | null = null;
    while (!answer) {
      if (Date.now() > deadline || proc.exitCode !== null) throw new Error(`no answer on port ${port} while starting:\n${out}`);
      answer = await fetch(`http://127.0.0.1:${port}/readyz`).then(
        async (res) => ({
          status: res.status,
          body: (await res.json()) as Record<string, unknown>,
          retryAfter: res.headers.get('retry-after'),
        }),
        () => null, // not bound yet
      );
      if (!answer) await new Promise((r) => setTimeout(r, 25));
    }
    assert.is(answer.status, 503, JSON.stringify(answer.body));
    assert.is(answer.body.code, 'host_starting');
    assert.is(answer.body.status, 'starting');
    assert.is(answer.retryAfter, '1');
    assert.is(proc.exitCode, null, 'still starting');
  } finally {
    proc.kill('SIGKILL');
    await waitForExit(proc);
    for (const socket of sockets) socket.destroy();
    silent.close();
  }
});

test('a started host answers /readyz 200 and /healthz 200', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-ready-'));
  const host = await startHostProcess(dataDir);
  try {
    const ready = await fetch(`${host.url}/readyz`);
    assert.is(ready.status, 200);
    assert.equal(await ready.json(), { success: true, status: 'ready', store: { kind: 'embedded', status: 'ok' } });
    assert.is((await fetch(`${host.url}/healthz`)).status, 200);
  } finally {
    host.proc.kill('SIGTERM');
    assert.is(await waitForExit(host.proc), 0);
  }
});

test.run();
