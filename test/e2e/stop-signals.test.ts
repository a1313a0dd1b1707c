// How a real `flowhost serve` stops: `kill <npm's pid>` after `npm start` stops the server
// too (npm runs the script through `sh -c`, which does not pass the signal on); SIGTERM
// lets a request in flight finish while new connections are refused; a run that will not
// end holds the stop no longer than FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS, and the next start
// reports it failed as interrupted.
// test-runner: waits (stop grace periods and a run that will not end: about 7 s, 2.3 s of CPU)
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, cleanEnv, repoRoot, startHostProcess, waitForExit } from '../support/host-process.js';

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(what: string, check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const adminAuth = (dataDir: string) => basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());

const test = suite('e2e: stopping on signals');

test('kill <npm pid> after `npm start`: the server stops gracefully too (host.json removed)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-npm-start-'));
  const npm = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: cleanEnv({ FLOWHOST_DATA_DIR: dataDir, PORT: '0' }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  npm.stdout!.on('data', (d) => (out += d));
  npm.stderr!.on('data', (d) => (out += d));
  const hostFile = join(dataDir, 'host.json');
  let serverPid = 0;
  try {
    await until('host.json', () => existsSync(hostFile) && npm.exitCode === null, 60_000).catch((error: Error) => {
      throw new Error(`${error.message}\n${out}`);
    });
    serverPid = (JSON.parse(readFileSync(hostFile, 'utf8')) as { pid: number }).pid;
    assert.is.not(serverPid, npm.pid, 'npm is not the server: the script runs under a shell');
    npm.kill('SIGTERM');
    await waitForExit(npm);
    await until('the server process to end', () => !alive(serverPid), 20_000).catch((error: Error) => {
      throw new Error(`${error.message}: server pid ${serverPid} outlived npm\n${out}`);
    });
    assert.not.ok(existsSync(hostFile), `a graceful stop removes host.json\n${out}`);
  } finally {
    if (npm.exitCode === null) npm.kill('SIGKILL');
    if (serverPid && alive(serverPid)) process.kill(serverPid, 'SIGKILL');
  }
});

test('SIGTERM: a request in flight is answered, new connections are refused, exit 0', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-drain-'));
  const host = await startHostProcess(dataDir);
  try {
    const url = new URL(host.url);
    const body = JSON.stringify({ pipeline_name: 'Sent while stopping', steps: [{ step_type: 'fetch' }] });
    const half = Math.floor(body.length / 2);
    let answered!: (value: { status: number; text: string }) => void;
    const answer = new Promise<{ status: number; text: string }>((r) => (answered = r));
    const req = httpRequest(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: '/api/automation/v1/pipelines',
        agent: false,
        // 100-continue: the server's "go on" proves it has the request before the signal.
        headers: {
          Authorization: adminAuth(dataDir),
          'Content-Type': 'application/json',
          'Content-Length': String(Buffer.byteLength(body)),
          Expect: '100-continue',
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d: string) => (text += d));
        res.on('end', () => answered({ status: res.statusCode ?? 0, text }));
      },
    );
    req.on('error', (error) => answered({ status: 0, text: String(error) }));
    await new Promise<void>((r) => req.once('continue', () => r()));
    req.write(body.slice(0, half));

    host.proc.kill('SIGTERM');
    await until('the host to say it is stopping', () => /"msg":"Stopping"/.test(host.output()), 10_000);
    const refused = await fetch(`${host.url}/healthz`).then(
      (res) => `answered ${res.status}`,
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    );
    assert.is(refused, 'ECONNREFUSED', 'no new connection once stopping');
    assert.is(host.proc.exitCode, null, 'still up while the request is in flight');

    req.end(body.slice(half));
    const res = await answer;
    assert.is(res.status, 200, res.text);
    assert.is(await waitForExit(host.proc), 0, host.output());
    assert.not.ok(existsSync(join(dataDir, 'host.json')));
  } finally {
    if (host.proc.exitCode === null) host.proc.kill('SIGKILL');
  }
});

test('a run that will not end holds SIGTERM no longer than the bound; the next start fails it as interrupted', async () => {
  // A feed that accepts the request and never answers.
  const hung: Server = createServer(() => undefined);
  await new Promise<void>((r) => hung.listen(0, '127.0.0.1', () => r()));
  const feedUrl = `http://127.0.0.1:${(hung.address() as AddressInfo).port}/feed.xml`;
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-bound-'));
  const env = { FLOWHOST_ALLOW_PRIVATE_URLS: '1', FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS: '1' };
  const first = await startHostProcess(dataDir, env);
  try {
    const auth = adminAuth(dataDir);
    const api = async (base: string, method: string, path: string, payload?: unknown) =>
      (await (
        await fetch(`${base}/api/automation/v1${path}`, {
          method,
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: payload === undefined ? undefined : JSON.stringify(payload),
        })
      ).json()) as {
        data: Record<string, unknown>;
      };
    const started = await api(first.url, 'POST', '/execute', {
      workflow: { steps: [{ type: 'fetch', handler_slug: 'rss', handler_config: { feed_url: feedUrl } }] },
    });
    const jobId = started.data.job_id as number;
    await until(
      'the run to be processing',
      async () => (await api(first.url, 'GET', `/jobs/${jobId}`)).data.status === 'processing',
      10_000,
    );

    const signalled = Date.now();
    first.proc.kill('SIGTERM');
    assert.is(await waitForExit(first.proc), 0, first.output());
    const took = Date.now() - signalled;
    assert.ok(took < 6000, `stopped ${took} ms after SIGTERM with a 1 s bound`);
    assert.match(first.output(), /1 run\(s\) still running after the 1 s shutdown bound/);

    const second = await startHostProcess(dataDir, env);
    try {
      const job = (await api(second.url, 'GET', `/jobs/${jobId}`)).data;
      assert.is(job.status, 'failed');
      assert.match(String(job.error), /Interrupted/);
    } finally {
      second.proc.kill('SIGTERM');
      await waitForExit(second.proc);
    }
  } finally {
    if (first.proc.exitCode === null) first.proc.kill('SIGKILL');
    hung.closeAllConnections();
    hung.close();
  }
});

test.run();
