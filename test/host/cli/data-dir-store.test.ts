// Issue 52: the CLI in a directory with no store (a checkout without FLOWHOST_DATA_DIR
// while the host runs elsewhere) created a second store there, with its own administrator,
// and answered "0 posts"; right after a host's start it said "Stop it, or use the CLI".
// Now only `serve` and `--init` create a store, and a command waits for a starting host.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { cleanEnv, cliPath, repoRoot, waitForExit } from '../../support/host-process.js';
import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { publishHost, readHostFile, unpublishHost } from '../../../host/runtime/data-dir-files.js';
import { waitForStartingHost } from '../../../host/cli/data-dir-store.js';
import type { Host } from '../../../host/host.js';

const test = suite('cli: a data directory with no store, and a host that is starting');
const ctx = {} as { host: Host; dataDir: string };

test.before(async () => {
  Object.assign(ctx, await startCliHost({}));
});
test.after(async () => {
  await ctx.host?.stop();
});

const emptyDir = () => mkdtempSync(join(tmpdir(), 'flowhost-cli-nostore-'));

test('posts list --json in a directory with no store refuses, names it and what to do, and leaves it empty', async () => {
  const dir = emptyDir();
  const res = await cliInProcess(['posts', 'list', '--json', '--data-dir', dir]);
  assert.is(res.status, 1);
  assert.is(res.stdout, '', 'no "0 posts" (nor an empty JSON list) for a store that is not there');
  // Under --json the refusal is one JSON line on stderr.
  const { error } = JSON.parse(res.stderr) as { error: { message: string; code: string } };
  assert.is(error.code, 'no_store');
  assert.ok(error.message.includes(`No Flowhost store in ${dir}`), error.message);
  assert.match(error.message, /FLOWHOST_DATA_DIR or --data-dir/);
  assert.match(error.message, /`npm start`/);
  assert.match(error.message, /--init/);
  assert.equal(readdirSync(dir), []);
});

test('user commands (the store opened directly) refuse the same way; a missing directory is not created', async () => {
  const dir = join(emptyDir(), 'data');
  const res = await cliInProcess(['user', 'create', 'alice', '--role', 'editor', '--data-dir', dir]);
  assert.is(res.status, 1);
  assert.match(res.stderr, /No Flowhost store in .*\(no_store\)/);
  assert.not.ok(existsSync(dir));
});

test('--init creates the store; later commands use it without the flag', async () => {
  const dir = emptyDir();
  const created = await cliInProcess(['user', 'create', 'alice', '--role', 'editor', '--init', '--json', '--data-dir', dir]);
  assert.is(created.status, 0, created.stderr);
  assert.ok(existsSync(join(dir, 'flowhost.db')));
  const listed = await cliInProcess(['user', 'list', '--json', '--data-dir', dir]);
  assert.is(listed.status, 0, listed.stderr);
  assert.ok((JSON.parse(listed.stdout) as Array<{ login: string }>).some((u) => u.login === 'alice'));
});

test('a directory a running host holds needs no --init', async () => {
  const res = await cliInProcess(['flows', 'list', '--json', '--data-dir', ctx.dataDir]);
  assert.is(res.status, 0, res.stderr);
});

test('a host that is starting (store held, no address yet): the command says so, waits, then goes through it', async () => {
  // The store held as a starting host holds it, before host.json is written.
  const dir = emptyDir();
  const held = await openEmbeddedStore({ file: join(dir, 'flowhost.db'), exclusive: true });
  try {
    for (const args of [
      ['flows', 'list', '--json'],
      ['user', 'list', '--json'],
    ]) {
      const child = spawn(process.execPath, [cliPath, ...args, '--data-dir', dir], { cwd: repoRoot, env: cleanEnv(), stdio: 'pipe' });
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      const waiting = new Promise<void>((resolve) =>
        child.stderr.on('data', (d: Buffer) => {
          stderr += d.toString();
          if (stderr.includes('is starting')) resolve();
        }),
      );
      const exited = waitForExit(child);
      await Promise.race([waiting, exited]);
      assert.ok(stderr.includes(`a host is starting on ${dir}; waiting`), stderr);
      assert.not.match(stderr, /Stop it|use the CLI/);
      // The host "finishes starting": its address appears (this suite's host stands in for it).
      const running = readHostFile(ctx.dataDir)!;
      publishHost(dir, running.url, running.api_base, running.token);
      assert.is(await exited, 0, stderr);
      assert.ok(Array.isArray(JSON.parse(stdout)), stdout);
      assert.equal(
        readdirSync(dir).filter((name) => name === 'secret.key' || name === 'initial-admin-password'),
        [],
        'the command went through the host, not the store',
      );
      // Back to "starting" for the next command.
      unpublishHost(dir);
    }
  } finally {
    await held.close();
  }
});

test('a holder that never publishes an address: after the wait, a message that says to retry', async () => {
  const dir = emptyDir();
  const write = process.stderr.write;
  process.stderr.write = (() => true) as typeof process.stderr.write;
  try {
    const error = await waitForStartingHost(dir, 200).then(
      () => null,
      (e: unknown) => e as Error & { code?: string },
    );
    assert.ok(error);
    assert.is(error.code, 'host_starting');
    assert.match(error.message, /still starting \(retry in a moment\)/);
    assert.not.match(error.message, /Stop it|use the CLI/);
  } finally {
    process.stderr.write = write;
  }
});

test.run();
