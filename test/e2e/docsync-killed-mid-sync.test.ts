// A documentation sync killed with its host (SIGKILL while it waits for a file from the
// source-hosting service), against the real `flowhost serve` on the embedded store: after
// the restart the job reads failed as interrupted, and a new sync of the same project runs
// at once (it used to stay `running` forever and hold the project's lease for 2 minutes).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, startHostProcess, waitForExit } from '../support/host-process.js';
import { startFakeGithub } from '../support/fake-github.js';

const TOKEN = 'ghp_docsyncTestToken0123456789abcdef';

interface SyncAnswer {
  job_id: string;
  status: string;
  complete?: boolean;
  errors?: Array<{ code: string }>;
  total_added?: number;
  error?: string | null;
  leaf_term_id?: number;
}

async function until(what: string, check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const test = suite('e2e: a docsync sync killed with its host');

test('after kill -9 mid-sync and a restart: the job is failed as interrupted and the project syncs again at once', async () => {
  const gh = await startFakeGithub(TOKEN);
  let openGate!: () => void;
  gh.blobGate = new Promise<void>((r) => (openGate = r));
  gh.addRepo('acme', 'docs', { 'README.md': '# Acme\n\nHello.\n', 'guide.md': '# Guide\n\nSteps.\n' });
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-docsync-kill-'));
  const configFile = join(dataDir, '..', `${dataDir.split('/').pop()}.config.json`);
  writeFileSync(configFile, JSON.stringify({ pluginSettings: { docsync: { github_base_url: gh.url, github_token: TOKEN } } }));
  const env = { FLOWHOST_CONFIG: configFile, FLOWHOST_ALLOW_PRIVATE_URLS: '1' };
  const first = await startHostProcess(dataDir, env);
  try {
    const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
    const api = async (base: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: SyncAnswer }> => {
      const res = await fetch(`${base}/api/docsync/v1${path}`, {
        method,
        headers: { Authorization: auth, 'Content-Type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: res.status, body: (await res.json()) as SyncAnswer };
    };
    const project = await api(first.url, 'POST', '/project/resolve', {
      path: ['acme'],
      create_missing: true,
      project_meta: { github_url: 'https://github.com/acme/docs' },
    });
    assert.is(project.status, 200, JSON.stringify(project.body));
    const termId = project.body.leaf_term_id!;
    const started = await api(first.url, 'POST', `/sync/term/${termId}`, { wait: 0 });
    assert.is(started.status, 200, JSON.stringify(started.body));
    const jobId = started.body.job_id;
    await until(
      'the sync to be running and waiting for a file',
      async () => gh.count('blob') > 0 && (await api(first.url, 'GET', `/sync/jobs/${jobId}`)).body.status === 'running',
      20_000,
    );

    first.proc.kill('SIGKILL');
    await waitForExit(first.proc);
    openGate();
    gh.blobGate = null;

    const second = await startHostProcess(dataDir, env);
    try {
      const old = await api(second.url, 'GET', `/sync/jobs/${jobId}`);
      assert.is(old.body.status, 'failed', JSON.stringify(old.body));
      assert.match(String(old.body.error), /Interrupted: the host stopped while the sync was running/);
      const again = await api(second.url, 'POST', `/sync/term/${termId}`, { wait: 30 });
      assert.is(again.status, 200, JSON.stringify(again.body));
      assert.is(again.body.complete, true, JSON.stringify(again.body));
      assert.equal(again.body.errors, [], 'no docsync_sync_busy: the dead job’s lease was given back');
    } finally {
      second.proc.kill('SIGTERM');
      await waitForExit(second.proc);
    }
  } finally {
    if (first.proc.exitCode === null) first.proc.kill('SIGKILL');
    openGate();
    await gh.close();
  }
});

test.run();
