// Start-ups that must stop before they change anything, against the real `flowhost serve`:
// a busy port leaves the data directory as it found it (no directory, key, first admin
// password or database), and a data directory that cannot be written stops start-up with
// one line naming the path and the cause, exit 1, no stack trace.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv, cliPath, repoRoot } from '../support/host-process.js';

/** Root writes anywhere whatever the mode: the refused-write cases run as `nobody` then. */
const asRoot = process.getuid?.() === 0;
const NOBODY = 65534;

function serve(
  dataDir: string,
  port: string,
  options: Pick<SpawnSyncOptions, 'uid' | 'gid'> = {},
): { status: number | null; stderr: string } {
  const res = spawnSync(process.execPath, [cliPath, 'serve', '--data-dir', dataDir, '--port', port], {
    cwd: repoRoot,
    env: cleanEnv(),
    encoding: 'utf8',
    timeout: 30_000,
    ...options,
  });
  // A start that never ran (the unprivileged user cannot reach this Node binary or the
  // checkout) must say so, not pass as a null exit status.
  if (res.error)
    throw new Error(
      `could not start ${process.execPath} as uid ${options.uid ?? process.getuid?.()}: ${res.error.message} (every directory above the Node binary and the checkout must be enterable by that user)`,
    );
  return { status: res.status, stderr: res.stderr };
}

function occupy(): Promise<{ server: Server; port: number }> {
  const server = createServer();
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve({ server, port: (server.address() as { port: number }).port }));
  });
}

/** A scratch directory the unprivileged user may enter (mkdtemp makes it 0700). */
function scratch(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  return dir;
}

const unprivileged = asRoot ? { uid: NOBODY, gid: NOBODY } : {};
const noStack = (stderr: string) => assert.not.match(stderr, /\n\s+at /, `no stack trace:\n${stderr}`);

const test = suite('e2e: start-ups refused before they write');

test('a busy port: exit 1 naming the port, and the data directory is never created', async () => {
  const { server, port } = await occupy();
  try {
    const root = scratch('flowhost-busy-port-');
    const dataDir = join(root, 'data');
    const res = serve(dataDir, String(port));
    assert.is(res.status, 1, res.stderr);
    assert.match(res.stderr, new RegExp(`flowhost: Port ${port} on 127\\.0\\.0\\.1 is already in use`));
    noStack(res.stderr);
    assert.not.ok(existsSync(dataDir), `nothing was created: ${existsSync(dataDir) ? readdirSync(dataDir).join(', ') : ''}`);

    // An existing (empty) data directory stays empty: no key, password file or database.
    mkdirSync(dataDir);
    const again = serve(dataDir, String(port));
    assert.is(again.status, 1, again.stderr);
    assert.equal(readdirSync(dataDir), []);
  } finally {
    server.close();
  }
});

test('a data directory that cannot be written: its path and the cause, exit 1, no stack trace', () => {
  const root = scratch('flowhost-ro-dir-');
  const readOnly = join(root, 'data');
  mkdirSync(readOnly);
  chmodSync(readOnly, 0o555);
  const res = serve(readOnly, '0', unprivileged);
  assert.is(res.status, 1, res.stderr);
  assert.match(res.stderr, new RegExp(`^flowhost: The data directory ${readOnly} cannot be written: permission denied \\(EACCES\\)`));
  assert.match(res.stderr, /FLOWHOST_DATA_DIR or --data-dir/);
  assert.not.match(res.stderr, /disk I\/O error|unable to open database/);
  noStack(res.stderr);
  assert.equal(readdirSync(readOnly), []);
});

test('a data directory that cannot be created: the same, with the directory it could not make', () => {
  const root = scratch('flowhost-no-mkdir-');
  const parent = join(root, 'locked');
  mkdirSync(parent);
  chmodSync(parent, 0o555);
  const dataDir = join(parent, 'data');
  const res = serve(dataDir, '0', unprivileged);
  assert.is(res.status, 1, res.stderr);
  assert.match(res.stderr, new RegExp(`^flowhost: The data directory ${dataDir} cannot be created: permission denied \\(EACCES\\)`));
  noStack(res.stderr);

  // A path through a regular file: not a directory (ENOTDIR), whoever runs it.
  const file = join(root, 'a-file');
  writeFileSync(file, '');
  const through = serve(join(file, 'data'), '0');
  assert.is(through.status, 1, through.stderr);
  assert.match(through.stderr, new RegExp(`^flowhost: The data directory ${join(file, 'data')} cannot be created: .*\\(ENOTDIR\\)`));
  noStack(through.stderr);
});

test('a data directory where the file system will not make one (/proc): refused at once, serve and the CLI alike', () => {
  // Node's recursive mkdir spins forever at full CPU there (a trial's CLI ran 29 minutes):
  // status null would be the 30 s timeout's kill.
  const dataDir = `/proc/flowhost-test-${process.pid}`;
  const res = serve(dataDir, '0');
  assert.is(res.status, 1, `serve (null: killed at the timeout): ${res.stderr}`);
  assert.match(res.stderr, new RegExp(`^flowhost: The data directory ${dataDir} cannot be created: .*\\(ENOENT\\)`));
  noStack(res.stderr);
  const cli = spawnSync(process.execPath, [cliPath, '--data-dir', dataDir, '--init', 'pipelines', 'list', '--json'], {
    cwd: repoRoot,
    env: cleanEnv({}),
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.is(cli.status, 1, `cli: ${cli.signal ?? ''} ${cli.stderr}`);
  // --json: the refusal is one JSON line on stderr.
  assert.match(
    (JSON.parse(cli.stderr) as { error: { message: string } }).error.message,
    new RegExp(`^The data directory ${dataDir} cannot be created`),
  );
  assert.is(cli.stdout, '');
});

test.run();
