// Issue 52, local secrets: flowhost.db and its -wal were created 0644, so in a 0755 data
// directory any local user read password hashes, session nonces and all content. Every
// file the host writes in its data directory is now 0600 and the directory (and those
// below it) 0700, under a permissive umask too; an existing 0755 directory is narrowed at
// start, and the log says so. Embedded store only: with MongoDB the data directory holds
// no database.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { createHost } from '../../../host/create-host.js';
import { captureLogger } from '../../support/capture-logger.js';
import { runCli } from '../../support/host-process.js';

const modeOf = (path: string) => `0${(statSync(path).mode & 0o777).toString(8)}`;

/** Every file and directory under `dir` (itself included) with its mode, e.g. `flowhost.db 0600`. */
function modes(dir: string, under = ''): string[] {
  const out = under === '' ? [`. ${modeOf(dir)}`] : [];
  for (const entry of readdirSync(join(dir, under), { withFileTypes: true })) {
    const path = join(under, entry.name);
    out.push(`${path} ${modeOf(join(dir, path))}`);
    if (entry.isDirectory()) out.push(...modes(dir, path));
  }
  return out;
}

const test = suite<{ dir: string; umask: number; lines: string[] }>('host: data directory files are private (embedded)');

test.before((ctx) => {
  // A permissive umask, as most accounts have: nothing the host writes may depend on it.
  ctx.umask = process.umask(0o022);
  ctx.dir = mkdtempSync(join(tmpdir(), 'flowhost-modes-'));
  chmodSync(ctx.dir, 0o755);
  ctx.lines = [];
});
test.after((ctx) => {
  process.umask(ctx.umask);
  rmSync(ctx.dir, { recursive: true, force: true });
});

/** A host on the data directory that writes what a host writes: the database and its WAL, keys, an upload. */
async function useHost(dir: string, lines: string[], run: (t: TestHost) => Promise<void>): Promise<void> {
  const t = await createTestHost({ plugins: [], config: { dataDir: dir }, logger: captureLogger(lines) });
  try {
    const upload = await fetch(`${t.url}/api/wp/v2/media`, {
      method: 'POST',
      headers: {
        Authorization: `Basic ${Buffer.from(`${t.admin.login}:${t.admin.password}`).toString('base64')}`,
        'Content-Type': 'text/plain',
        'Content-Disposition': 'attachment; filename="notes.txt"',
      },
      body: 'private notes',
    });
    assert.is(upload.status, 201, await upload.text());
    await run(t);
  } finally {
    await t.stop();
  }
}

test('a 0755 data directory is narrowed to 0700 at start and the log says so; every file in it is 0600', async ({ dir, lines }) => {
  await useHost(dir, lines, async () => {
    const seen = modes(dir);
    for (const name of ['flowhost.db', 'flowhost.db-wal', 'secret.key', 'initial-admin-password', 'host.json', 'local-credential'])
      assert.ok(
        seen.some((line) => line.startsWith(`${name} `)),
        `${name} is written: ${seen.join(', ')}`,
      );
    assert.ok(
      seen.some((line) => line.startsWith('blobs')),
      seen.join(', '),
    );
    for (const line of seen) {
      const [path, mode] = line.split(' ');
      const isDir = statSync(join(dir, path!)).isDirectory();
      assert.is(mode, isDir ? '0700' : '0600', line);
    }
  });
  const warning = lines.find((l) => l.includes('0755') && l.includes('0700'));
  assert.ok(warning, lines.join('\n'));
  assert.match(warning!, dir);
});

test('a database an older version left 0644 is narrowed at the next start, and an already private directory is not logged', async ({
  dir,
  lines,
}) => {
  chmodSync(join(dir, 'flowhost.db'), 0o644);
  lines.length = 0;
  // A restart: no new administrator password, so the host itself rather than the test client.
  const host = await createHost({ plugins: [], coreApi: false, env: {}, logger: captureLogger(lines), config: { dataDir: dir, port: 0 } });
  try {
    await host.start();
    await host.users.findByLogin('admin');
    assert.is(modeOf(join(dir, 'flowhost.db')), '0600');
    assert.is(modeOf(join(dir, 'flowhost.db-wal')), '0600');
  } finally {
    await host.stop();
  }
  assert.not.ok(
    lines.some((l) => l.includes('now 0700')),
    'nothing to narrow',
  );
});

test('a CLI command that opens an old 0755 directory narrows it too, and says so on stderr (stdout keeps its JSON)', ({ dir }) => {
  chmodSync(dir, 0o755);
  const listed = runCli(['user', 'list', '--json', '--data-dir', dir]);
  assert.is(listed.status, 0, listed.stderr);
  assert.ok(Array.isArray(JSON.parse(listed.stdout)), listed.stdout);
  assert.match(listed.stderr, `${dir} was 0755; it is now 0700`);
  assert.is(modeOf(dir), '0700');
});

test.run();
