// A sync the host was killed in the middle of, on both stores: the next boot closes it as
// interrupted (failed, with a message saying so) and gives its project lease back, so a new
// sync of that project runs at once instead of reporting docsync_sync_busy until the lease
// lapses. The killed host is what it leaves in the store: a `running` job and its lease.
// On MongoDB other hosts may be mid-sync, so only work started an hour before the boot
// counts as interrupted there (the engine's rule for its runs).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestHost, FakeClock } from '../../../sdk/testing/index.js';
import { createHost } from '../../../host/create-host.js';
import { defaultPlugins } from '../../../plugins/index.js';
import type { HostConfig } from '../../../host/config/schema.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeGithub } from '../../support/fake-github.js';

/** The parts of docsync's answers this suite reads. */
type Body = {
  leaf_term_id?: number;
  status?: string;
  error?: string | null;
  finished_at?: string | null;
  complete?: boolean;
  errors?: unknown[];
  added?: number;
};
const TOKEN = 'ghp_docsyncTestToken0123456789abcdef';
const NS = { namespace: 'docsync/v1' };
/** Both hosts read the same sealed secrets. */
const SECRET = 'c'.repeat(64);

/**
 * The same store booted again. createTestHost wants a first start (it signs in with the
 * administrator password that start issues), so the restart signs in as an editor-admin
 * made for it.
 */
async function restart(config: Partial<HostConfig>, clock: FakeClock) {
  const host = await createHost({
    plugins: defaultPlugins,
    env: {},
    clock,
    config: {
      dataDir: ':memory:',
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      allowPrivateUrls: true,
      schedulerProcessEvery: 100,
      schedulerLockLifetime: 2000,
      checkResponses: true,
      ...config,
    },
  });
  const url = await host.start();
  const user = await host.users.create({ login: `again-${Date.now()}`, role: 'administrator' });
  const { password } = await host.users.createAppPassword(user.user_id, 'test');
  const auth = `Basic ${Buffer.from(`${user.login}:${password}`).toString('base64')}`;
  return {
    async request(method: string, path: string, body?: unknown): Promise<{ status: number; body: Body }> {
      const res = await fetch(`${url}/api/docsync/v1${path}`, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as Body };
    },
    stop: () => host.stop(),
  };
}

for (const store of testStores('docsync interrupted')) {
  const test = suite(`docsync: a sync interrupted by a killed host (${store.label})`);

  test('the next boot fails it as interrupted and frees its project for a new sync', async () => {
    const gh = await startFakeGithub(TOKEN);
    gh.addRepo('acme', 'docs', { 'README.md': '# Acme\n\nHello.\n' });
    // One store for both hosts: a data directory, or one MongoDB database.
    const config = {
      ...store.config(),
      secretKey: SECRET,
      ...(store.label === 'embedded' ? { dataDir: mkdtempSync(join(tmpdir(), 'flowhost-docsync-')) } : {}),
      pluginSettings: { docsync: { github_base_url: gh.url, github_token: TOKEN, sync_wait_seconds: 30 } },
    };
    const clock = new FakeClock(Date.now());
    const first = await createTestHost({ plugins: [], clock, config });
    const resolved = await first.request<Body>('POST', '/project/resolve', {
      ...NS,
      body: { path: ['acme'], create_missing: true, project_meta: { github_url: 'https://github.com/acme/docs' } },
    });
    assert.is(resolved.status, 200, JSON.stringify(resolved.body));
    const projectId = resolved.body.leaf_term_id!;
    // What a host killed mid-sync leaves: the job `running`, the project's lease held by it.
    const startedAt = clock.now();
    const jobId = 'sync-900';
    await first.host.store.collection('docsync__sync_jobs').insertOne({
      _id: jobId,
      term_ids: [projectId],
      force: false,
      status: 'running',
      progress: { files_done: 0, files_total: 1, repository: 'acme/docs', repos_done: 0, repos_total: 1 },
      result: null,
      error: null,
      created_at: startedAt,
      started_at: startedAt,
      finished_at: null,
    });
    await first.host.store
      .collection('docsync__leases')
      .insertOne({ _id: `project:${projectId}`, holder: jobId, expires_at: new Date(startedAt.getTime() + 120_000) });
    await first.stop();

    // The restart: at once on the embedded store (this process is the only one), an hour
    // later on MongoDB; either way the dead job's lease has not lapsed on its own.
    if (store.label === 'mongodb') clock.advance(3600_000 + 1000);
    const again = await restart(config, clock);
    try {
      const old = await again.request('GET', `/sync/jobs/${jobId}`);
      assert.is(old.status, 200, JSON.stringify(old.body));
      assert.is(old.body.status, 'failed');
      assert.match(String(old.body.error), /Interrupted: the host stopped while the sync was running/);
      assert.ok(old.body.finished_at, 'it has an end');

      const fresh = await again.request('POST', `/sync/term/${projectId}`, {});
      assert.is(fresh.status, 200, JSON.stringify(fresh.body));
      assert.equal([fresh.body.complete, fresh.body.errors, fresh.body.added], [true, [], 1]);
    } finally {
      await again.stop();
      await gh.close();
    }
  });

  test('on MongoDB, a sync started within the hour may be another host’s: it is left running', async () => {
    if (store.label !== 'mongodb') return;
    const config = { ...store.config(), secretKey: SECRET };
    const clock = new FakeClock(Date.now());
    const first = await createTestHost({ plugins: [], clock, config });
    const startedAt = clock.now();
    await first.host.store.collection('docsync__sync_jobs').insertOne({
      _id: 'sync-901',
      term_ids: null,
      force: false,
      status: 'running',
      progress: { files_done: 0, files_total: 0, repository: '', repos_done: 0, repos_total: 0 },
      result: null,
      error: null,
      created_at: startedAt,
      started_at: startedAt,
      finished_at: null,
    });
    await first.stop();
    clock.advance(60_000);
    const second = await restart(config, clock);
    try {
      const job = await second.request('GET', '/sync/jobs/sync-901');
      assert.is(job.body.status, 'running');
    } finally {
      await second.stop();
    }
  });

  test.run();
}
