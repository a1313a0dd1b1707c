import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, statSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, runCli, startHostProcess, waitForExit, cliPath, repoRoot, cleanEnv } from '../support/host-process.js';
import { spawnSync } from 'node:child_process';

const test = suite('e2e: the real server process');

test('first start: admin password file (0600), README curl works, second host refused, kill -9 then restart keeps data', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-e2e-'));
  const first = await startHostProcess(dataDir);
  try {
    const passwordFile = join(dataDir, 'initial-admin-password');
    assert.ok(existsSync(passwordFile), 'initial-admin-password written');
    assert.is(statSync(passwordFile).mode & 0o777, 0o600);
    assert.is(statSync(join(dataDir, 'local-credential')).mode & 0o777, 0o600);
    assert.match(first.output(), /initial-admin-password/, 'the log says where the password is');
    const password = readFileSync(passwordFile, 'utf8').trim();
    assert.not.match(first.output(), new RegExp(password.replace(/ /g, ' ?')), 'the password itself is never logged');

    const handlers = await fetch(`${first.url}/api/automation/v1/handlers`, { headers: { Authorization: basicAuth('admin', password) } });
    assert.is(handlers.status, 200);
    assert.is(((await handlers.json()) as { success: boolean }).success, true);
    assert.is((await fetch(`${first.url}/healthz`)).status, 200);

    // A second host on the same directory is refused with a clear message.
    const second = spawnSync(process.execPath, [cliPath, 'serve', '--data-dir', dataDir, '--port', '0'], {
      cwd: repoRoot,
      env: cleanEnv(),
      encoding: 'utf8',
      timeout: 20_000,
    });
    assert.is.not(second.status, 0);
    assert.match(second.stderr, /in use by another Flowhost process/);

    // The CLI goes through the running host: the new user can log in at once.
    const created = runCli(['user', 'create', 'writer', '--role', 'editor', '--json', '--data-dir', dataDir]);
    assert.is(created.status, 0, created.stderr);
    const writer = JSON.parse(created.stdout) as { user: { login: string }; application_password: { password: string } };
    const asWriter = await fetch(`${first.url}/api/automation/v1/handlers`, {
      headers: { Authorization: basicAuth('writer', writer.application_password.password) },
    });
    assert.is(asWriter.status, 403, 'an editor is authenticated but lacks manage_options');

    first.proc.kill('SIGKILL');
    await waitForExit(first.proc);

    // The lock died with the process: the next start is not blocked, and the data is there.
    const again = await startHostProcess(dataDir);
    try {
      assert.not.match(again.output(), /Administrator 'admin' has an application password/, 'no second initial password');
      const list = await fetch(`${again.url}/api/automation/v1/users`, { headers: { Authorization: basicAuth('admin', password) } });
      assert.is(list.status, 200);
      const users = ((await list.json()) as { data: Array<{ login: string }> }).data.map((u) => u.login);
      assert.equal(users.sort(), ['admin', 'writer']);
    } finally {
      again.proc.kill('SIGTERM');
      assert.is(await waitForExit(again.proc), 0, 'SIGTERM stops gracefully with exit 0');
      assert.not.ok(existsSync(join(dataDir, 'host.json')), 'a graceful stop removes host.json');
    }
  } finally {
    if (first.proc.exitCode === null) first.proc.kill('SIGKILL');
  }
});

test('an invalid configuration stops start-up naming the key', () => {
  const res = spawnSync(process.execPath, [cliPath, 'serve', '--port', '0'], {
    cwd: repoRoot,
    env: cleanEnv({ FLOWHOST_API_PREFIX: 'nope', FLOWHOST_DATA_DIR: mkdtempSync(join(tmpdir(), 'flowhost-bad-')) }),
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.is.not(res.status, 0);
  assert.match(res.stderr, /apiPrefix/);
  assert.match(res.stderr, /FLOWHOST_API_PREFIX/);
});

test('a wrong secret key stops start-up with a clear message', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-key-'));
  const key1 = 'a'.repeat(64);
  const host = await startHostProcess(dataDir, { FLOWHOST_SECRET_KEY: key1 });
  host.proc.kill('SIGTERM');
  await waitForExit(host.proc);
  const res = spawnSync(process.execPath, [cliPath, 'serve', '--data-dir', dataDir, '--port', '0'], {
    cwd: repoRoot,
    env: cleanEnv({ FLOWHOST_SECRET_KEY: 'b'.repeat(64) }),
    encoding: 'utf8',
    timeout: 20_000,
  });
  assert.is.not(res.status, 0);
  assert.match(res.stderr, /cannot decrypt/);
  assert.not.match(res.stderr, /bbbbbbbb/);
});

test.run();
