// `flowhost serve --workers N` (host/cli/cluster.ts), as a user runs it: refused on the
// embedded store with a message saying why; on MongoDB, two workers behind one port, the
// CLI's local credential accepted by both, a killed worker replaced, SIGTERM stops all.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawn, execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cliPath, runCli, waitForExit } from '../support/host-process.js';
import { freshDatabaseUrl, requireMongo } from '../support/mongo-env.js';

const children = (pid: number): number[] => {
  try {
    return execFileSync('ps', ['--ppid', String(pid), '-o', 'pid='], { encoding: 'utf8' })
      .split('\n')
      .map((s) => Number(s.trim()))
      .filter(Boolean);
  } catch {
    return [];
  }
};
const until = async (check: () => boolean | Promise<boolean>, ms: number, what: string) => {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((done) => setTimeout(done, 100));
  }
};

const embedded = suite('serve --workers: the embedded store');
embedded('more than one worker on the embedded store is refused, saying why and what to do', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-workers-'));
  try {
    const result = runCli(['serve', '--workers', '2', '--port', '0', '--data-dir', dir]);
    assert.is(result.status, 1);
    assert.match(result.stderr, /--workers 2 needs MongoDB \(set MONGODB_URL\)/);
    assert.not.ok(existsSync(join(dir, 'host.json')), 'nothing was started');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
embedded.run();

const url = requireMongo('serve --workers (mongodb)');
if (url) {
  const test = suite('serve --workers 2 on MongoDB');
  test('two workers on one port; the CLI works through either; a killed worker is replaced; SIGTERM stops them all', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'flowhost-workers-'));
    const env = cleanEnv({
      MONGODB_URL: freshDatabaseUrl(url),
      FLOWHOST_DATA_DIR: dir,
      FLOWHOST_SECRET_KEY: 'ab'.repeat(32),
      FLOWHOST_LOG_LEVEL: 'warn',
    });
    const primary = spawn(process.execPath, [cliPath, 'serve', '--workers', '2', '--port', '0'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    primary.stdout!.on('data', (c: Buffer) => (output += c.toString()));
    primary.stderr!.on('data', (c: Buffer) => (output += c.toString()));
    try {
      await until(() => existsSync(join(dir, 'host.json')), 60_000, `host.json (${output})`);
      const info = JSON.parse(readFileSync(join(dir, 'host.json'), 'utf8')) as { pid: number; url: string };
      assert.is(info.pid, primary.pid, 'the primary publishes the host file');
      await until(() => children(primary.pid!).length === 2, 30_000, 'two workers');
      // The banner follows the host file and reaches us through a pipe: wait for it rather
      // than read the output at the instant the file appeared.
      await until(() => /Flowhost: 2 workers on http:\/\/127\.0\.0\.1:\d+/.test(output), 10_000, `the banner (${output})`);

      // Connections are spread over the workers; every one accepts the published credential.
      // (No MONGODB_URL here: the CLI finds the running host through the data directory.)
      for (let i = 0; i < 8; i++) {
        const list = runCli(['pipelines', 'list', '--json', '--data-dir', dir]);
        assert.is(list.status, 0, list.stderr);
        assert.type(JSON.parse(list.stdout), 'object', list.stdout);
      }

      const [victim] = children(primary.pid!);
      process.kill(victim!, 'SIGKILL');
      const replaced = new RegExp(`worker pid ${victim} ended \\(SIGKILL\\); starting another`);
      // The primary's line may arrive through the pipe after ps already shows the new worker.
      await until(
        () => children(primary.pid!).length === 2 && !children(primary.pid!).includes(victim!) && replaced.test(output),
        30_000,
        `a replacement worker (${output})`,
      );
      await until(
        async () => (await fetch(`${info.url}/healthz`).catch(() => null))?.status === 200,
        30_000,
        'healthz after the replacement',
      );

      primary.kill('SIGTERM');
      assert.is(await waitForExit(primary), 0);
      assert.equal(children(primary.pid!), []);
      assert.not.ok(existsSync(join(dir, 'host.json')), 'the host file is removed');
    } finally {
      if (primary.exitCode === null) primary.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
  test.run();
}
