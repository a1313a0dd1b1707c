// docsync on both stores, against a fake GitHub on 127.0.0.1: a project with a repository
// address, a sync creating posts under folder terms, an edit updating exactly one post, a
// deletion trashing one, an unchanged repository fetching no blob, per-repository errors
// (404, SAML SSO, rate limit) that never stop the others, and the token and repository tests.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeGithub, type FakeGithub } from '../../support/fake-github.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const TOKEN = 'ghp_docsyncTestToken0123456789abcdef';
const NS = { namespace: 'docsync/v1' };

const FILES: Record<string, string> = {
  'README.md':
    '---\ntitle: Acme Docs\nexcerpt: Everything about Acme.\n---\n\nWelcome. See [install](guides/install.md) and ![logo](img/logo.png).\n',
  'guides/install.md': '# Installing Acme\n\nRun the installer, then read [usage](../usage.md#start).\n\nMore text.\n',
  'guides/advanced/tuning.md': '# Tuning\n\nTurn the knobs.\n',
  'usage.md': '# Usage\n\nUse it daily. Back to the [readme](README.md).\n',
  'img/logo.png': 'not markdown',
};

for (const store of testStores('docsync sync')) {
  const test = suite<{ t: TestHost; gh: FakeGithub; projectId: number }>(`docsync sync (${store.label})`);
  test.before(async (ctx) => {
    ctx.gh = await startFakeGithub(TOKEN);
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: { docsync: { github_base_url: ctx.gh.url, sync_wait_seconds: 30 } } },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.gh.close();
  });

  test('the token is saved sealed and shown masked; test-token reports login, scopes and rate limit', async ({ t }) => {
    const missing = await t.request<Body>('GET', '/sync/test-token', NS);
    assert.is(missing.status, 400);
    assert.is(missing.body.code, 'docsync_token_missing');
    const saved = await t.request<Body>('PUT', '/sync/token', { ...NS, body: { token: TOKEN } });
    assert.is(saved.status, 200, JSON.stringify(saved.body));
    assert.is(saved.body.configured, true);
    assert.not.match(JSON.stringify(saved.body), /docsyncTestToken/);
    const stored = await t.host.store.collection('docsync__settings').findOne({ _id: 'github_token' });
    assert.match(String(stored?.token), /^fhv1:/, 'sealed at rest');
    const res = await t.request<Body>('GET', '/sync/test-token', NS);
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(
      [res.body.valid, res.body.login, res.body.scopes, res.body.rate_limit.limit, res.body.rate_limit.remaining],
      [true, 'docs-bot', ['repo', 'read:org'], 5000, 4990],
    );
    assert.not.match(JSON.stringify(res.body), /docsyncTestToken/);
    const editor = await t.createUser('ed-token', 'editor');
    assert.is((await t.request('GET', '/sync/test-token', { ...NS, as: editor })).status, 403);
  });

  test('project ensure through resolve + PUT: a top-level project with its repository address', async (ctx) => {
    const { t, gh } = ctx;
    gh.addRepo('acme', 'docs', FILES);
    const resolved = await t.request<Body>('POST', '/project/resolve', {
      ...NS,
      body: { path: ['acme'], create_missing: true, project_meta: { github_url: 'https://github.com/acme/docs' } },
    });
    assert.is(resolved.status, 200, JSON.stringify(resolved.body));
    assert.equal(resolved.body.created, ['acme']);
    ctx.projectId = resolved.body.leaf_term_id;
    const term = await t.request<Body>('GET', `/project/${ctx.projectId}`, { ...NS, as: 'anonymous' });
    assert.equal([term.body.project_type, term.body.is_project, term.body.is_top_level, term.body.parent], ['project', true, true, 0]);
    const repo = await t.request<Body>('POST', '/sync/test-repo', { ...NS, body: { repo_url: 'https://github.com/acme/docs' } });
    assert.is(repo.status, 200, JSON.stringify(repo.body));
    assert.equal([repo.body.default_branch, repo.body.markdown_files, repo.body.full_name], ['main', 4, 'acme/docs']);
  });

  test('the first sync creates a post per markdown file under folder terms, with rewritten links', async ({ t, gh, projectId }) => {
    gh.resetCounts();
    const res = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal([res.body.complete, res.body.added, res.body.updated, res.body.removed, res.body.errors], [true, 4, 0, 0, []]);
    assert.is(gh.count('blob'), 4);
    const list = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: 'acme', per_page: 10 } });
    assert.is(list.status, 200);
    assert.equal([list.body.total, list.body.pages, list.body.current_page], [4, 1, 1]);
    assert.ok(
      list.body.items.every((d: Body) => !('content' in d)),
      'lists omit content',
    );
    const bySource = new Map<string, Body>(list.body.items.map((d: Body) => [d.meta.sync_source_file, d]));
    const readme = bySource.get('README.md')!;
    assert.equal(
      [readme.title, readme.excerpt, readme.project.hierarchy_path, readme.project.project.slug, readme.project.category],
      ['Acme Docs', 'Everything about Acme.', 'acme', 'acme', null],
    );
    const tuning = bySource.get('guides/advanced/tuning.md')!;
    assert.equal(
      [tuning.title, tuning.project.hierarchy_path, tuning.project.assigned_term.name, tuning.project.project.id],
      ['Tuning', 'acme/guides/advanced', 'advanced', projectId],
    );
    const install = bySource.get('guides/install.md')!;
    assert.is(install.excerpt, 'Run the installer, then read usage.');
    assert.match(install.meta.sync_hash, /^[0-9a-f]{64}$/);
    const full = await t.request<Body>('GET', `/docs/${readme.id}`, NS);
    const installLink = `${t.url}/?p=${install.id}`;
    assert.ok(full.body.content.includes(`[install](${installLink})`), full.body.content);
    assert.ok(full.body.content.includes(`![logo](${gh.url}/web/acme/docs/raw/main/img/logo.png)`), full.body.content);
    const installFull = await t.request<Body>('GET', `/docs/${install.id}`, NS);
    assert.ok(installFull.body.content.includes(`[usage](${t.url}/?p=${bySource.get('usage.md')!.id}#start)`), installFull.body.content);
    assert.not.match(installFull.body.content, /^# Installing/, 'the heading became the title');
    const tree = await t.request<Body[]>('GET', '/project/tree', { ...NS, as: 'anonymous' });
    const acme = tree.body.find((n) => n.slug === 'acme')!;
    assert.equal(
      acme.children.map((c: Body) => c.name),
      ['guides'],
    );
    assert.equal(
      acme.children[0].children.map((c: Body) => [c.name, c.project_type, c.count]),
      [['advanced', 'section', 1]],
    );
    const wp = await t.request<Body[]>('GET', '/documentation', { namespace: 'wp/v2', as: 'anonymous' });
    assert.is(wp.status, 200);
    assert.is(wp.body.length, 4, 'also under wp/v2');
    const wpTerms = await t.request<Body[]>('GET', '/project', { namespace: 'wp/v2', as: 'anonymous', query: { per_page: 100 } });
    assert.ok(wpTerms.body.some((term) => term.slug === 'acme'));
  });

  test('a second sync of the unchanged repository fetches no blob; one edit updates exactly one post; a deletion trashes one', async ({
    t,
    gh,
    projectId,
  }) => {
    gh.resetCounts();
    const again = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.equal([again.body.added, again.body.updated, again.body.removed, again.body.unchanged], [0, 0, 0, 4]);
    assert.equal([gh.count('tree'), gh.count('blob')], [1, 0]);

    const repo = gh.repos.get('acme/docs')!;
    repo.files.set('usage.md', '# Usage\n\nUse it twice a day.\n');
    repo.files.delete('guides/advanced/tuning.md');
    gh.resetCounts();
    const edited = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.equal([edited.body.added, edited.body.updated, edited.body.removed], [0, 1, 1], JSON.stringify(edited.body));
    assert.is(gh.count('blob'), 1, 'only the changed blob');
    const list = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: 'acme' } });
    assert.is(list.body.total, 3);
    const trash = await t.request<Body>('GET', '/docs', { ...NS, query: { status: 'trash' } });
    assert.equal(
      trash.body.items.map((d: Body) => d.meta.sync_source_file),
      ['guides/advanced/tuning.md'],
    );
    const usage = list.body.items.find((d: Body) => d.meta.sync_source_file === 'usage.md');
    assert.is(usage.excerpt, 'Use it twice a day.');

    gh.resetCounts();
    const forced = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: { force: true } });
    assert.equal([forced.body.updated, forced.body.added, forced.body.unchanged], [0, 0, 3], 'force reads every file again; none changed');
    assert.is(gh.count('blob'), 3);
    const status = await t.request<Body>('GET', '/sync/status', { ...NS, query: { project: 'acme' } });
    assert.equal([status.body.total_docs, status.body.synced_docs, status.body.project_term], [3, 3, projectId]);
    assert.ok(status.body.docs.every((d: Body) => d.status === 'synced' && /^\d+$/.test(d.sync_filesize)));
  });

  test('/sync/all: repository errors (404, SSO with its address, rate limit) are reported per repository and never stop the others', async ({
    t,
    gh,
  }) => {
    gh.addRepo('acme', 'extra', { 'a.md': '# A\n\nOne.\n' });
    gh.addRepo('sso-org', 'private', { 'x.md': '# X' }).fail = 'sso';
    gh.addRepo('busy', 'repo', { 'y.md': '# Y' }).fail = 'rate_limit';
    for (const [slug, url] of [
      ['extra', 'acme/extra'],
      ['ssoproj', 'https://github.com/sso-org/private'],
      ['limited', 'https://github.com/busy/repo.git'],
      ['gone', 'https://github.com/acme/missing'],
    ]) {
      const r = await t.request<Body>('POST', '/project/resolve', {
        ...NS,
        body: { path: [slug], create_missing: true, project_meta: { github_url: url } },
      });
      assert.is(r.status, 200, JSON.stringify(r.body));
    }
    const all = await t.request<Body>('POST', '/sync/all', { ...NS, body: {} });
    assert.is(all.status, 200, JSON.stringify(all.body));
    assert.equal([all.body.complete, all.body.repos_synced, all.body.total_added], [true, 2, 1]);
    const codes = Object.fromEntries(all.body.errors.map((e: Body) => [`${e.owner}/${e.repo}`, e]));
    assert.is(codes['sso-org/private'].code, 'docsync_sso_required');
    assert.is(codes['sso-org/private'].sso_url, 'https://github.com/orgs/sso-org/sso?authorization_request=AbC123');
    assert.is(codes['busy/repo'].code, 'docsync_rate_limited');
    assert.ok(codes['busy/repo'].rate_limit_reset);
    assert.is(codes['acme/missing'].code, 'docsync_not_found');
    const sso = await t.request<Body>('POST', '/sync/test-repo', { ...NS, body: { repo_url: 'https://github.com/sso-org/private' } });
    assert.equal(
      [sso.status, sso.body.code, sso.body.data.owner, sso.body.data.repo, sso.body.data.sso_url],
      [403, 'docsync_sso_required', 'sso-org', 'private', 'https://github.com/orgs/sso-org/sso?authorization_request=AbC123'],
    );
    const missing = await t.request<Body>('POST', '/sync/test-repo', { ...NS, body: { repo_url: 'acme/missing' } });
    assert.equal([missing.status, missing.body.code, missing.body.data.owner], [404, 'docsync_not_found', 'acme']);
    const bad = await t.request<Body>('POST', '/sync/test-repo', { ...NS, body: { repo_url: 'not a url' } });
    assert.equal([bad.status, bad.body.code], [400, 'docsync_invalid_repo_url']);
    const limited = await t.request<Body>('POST', '/sync/test-repo', { ...NS, body: { repo_url: 'busy/repo' } });
    assert.equal([limited.status, limited.body.code], [400, 'docsync_rate_limited']);
  });

  test('a wrong token is refused by the service and reported; wait 0 answers with a job id to follow', async ({ t, projectId }) => {
    await t.request('PUT', '/sync/token', { ...NS, body: { token: 'ghp_wrong' } });
    const res = await t.request<Body>('GET', '/sync/test-token', NS);
    assert.equal([res.status, res.body.code], [400, 'docsync_unauthorized']);
    const sync = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.is(sync.body.errors[0].code, 'docsync_unauthorized');
    await t.request('PUT', '/sync/token', { ...NS, body: { token: TOKEN } });
    const started = await t.request<Body>('POST', '/sync/all', { ...NS, body: { wait: 0 } });
    assert.is(started.status, 200);
    assert.match(started.body.job_id, /^sync-\d+$/);
    for (let i = 0; i < 200; i++) {
      const job = await t.request<Body>('GET', `/sync/jobs/${started.body.job_id}`, NS);
      assert.is(job.status, 200, JSON.stringify(job.body));
      if (job.body.status === 'completed') {
        assert.is(job.body.result.repos_synced, 2);
        return;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    assert.unreachable('the job never completed');
  });

  test('sync routes: permissions, unknown term 404, a term without repository 400, unknown job 404', async ({ t }) => {
    const editor = await t.createUser('ed-sync', 'editor');
    assert.is((await t.request('POST', '/sync/all', { ...NS, as: editor, body: {} })).status, 403);
    assert.is((await t.request('POST', '/sync/all', { ...NS, as: 'anonymous', body: {} })).status, 401);
    const missing = await t.request<Body>('POST', '/sync/term/999999', { ...NS, body: {} });
    assert.equal([missing.status, missing.body.code], [404, 'not_found']);
    const plain = await t.request<Body>('POST', '/project/resolve', { ...NS, body: { path: ['norepo'], create_missing: true } });
    const none = await t.request<Body>('POST', `/sync/term/${plain.body.leaf_term_id}`, { ...NS, body: {} });
    assert.equal([none.status, none.body.code], [400, 'docsync_no_repository']);
    assert.is((await t.request('GET', '/sync/jobs/sync-999999', NS)).status, 404);
  });

  test('two jobs on one project: the lease lets one through, the other reports docsync_sync_busy', async ({ t, projectId }) => {
    const leases = t.host.store.collection('docsync__leases');
    await leases.insertOne({ _id: `project:${projectId}`, holder: 'sync-other', expires_at: new Date(t.clock.now().getTime() + 60_000) });
    const busy = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.is(busy.body.errors[0].code, 'docsync_sync_busy');
    t.clock.advance(120_000);
    const after = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.equal(after.body.errors, [], 'a lapsed lease is taken over');
  });

  test.run();
}
