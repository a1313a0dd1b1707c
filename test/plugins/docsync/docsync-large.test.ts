// A large repository on both stores: the first sync creates every post, a second sync of the
// unchanged repository fetches the tree and no blob, and a sync cut short (the service
// failing blobs midway) leaves every post whole and is resumed by the next sync, which fetches
// only the files not yet written. Prints the timings; docs/docsync.md records them for
// DOCSYNC_FILES=1000. The suite's default is 300 files: every behaviour above shows at that
// size (several pages of the tree's folders, hundreds of posts cut midway), and 1,000 cost
// the whole test run 20 s of CPU for no assertion more.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeGithub, type FakeGithub } from '../../support/fake-github.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const TOKEN = 'ghp_large0123456789';
const NS = { namespace: 'docsync/v1' };
const FILES = Number(process.env.DOCSYNC_FILES ?? 300);
// The service fails blobs after this many, midway through the first sync.
const BUDGET = Math.round(FILES * 0.4);

function repository(prefix: string): Record<string, string> {
  const files: Record<string, string> = {};
  for (let i = 0; i < FILES; i++) {
    const folder = `section-${i % 10}/part-${i % 7}`;
    files[`${folder}/page-${i}.md`] =
      `# ${prefix} page ${i}\n\nThe first paragraph of page ${i}, with a [link](../../section-0/part-0/page-0.md).\n\n${'Lorem ipsum dolor sit amet. '.repeat(40)}\n`;
  }
  return files;
}

for (const store of testStores('docsync large')) {
  const test = suite<{ t: TestHost; gh: FakeGithub }>(`docsync large (${store.label})`);
  test.before(async (ctx) => {
    ctx.gh = await startFakeGithub(TOKEN);
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
        pluginSettings: { docsync: { github_base_url: ctx.gh.url, github_token: TOKEN, sync_wait_seconds: 300 } },
      },
    });
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.gh.close();
  });

  const project = async (t: TestHost, slug: string, repo: string) =>
    (
      await t.request<Body>('POST', '/project/resolve', {
        ...NS,
        body: { path: [slug], create_missing: true, project_meta: { github_url: `https://github.com/acme/${repo}` } },
      })
    ).body.leaf_term_id as number;

  test(`${FILES} files: the first sync creates them all, the second fetches no blob`, async ({ t, gh }) => {
    gh.addRepo('acme', 'big', repository('Big'));
    const id = await project(t, 'big', 'big');
    let started = performance.now();
    const first = await t.request<Body>('POST', `/sync/term/${id}`, { ...NS, body: {} });
    const firstMs = performance.now() - started;
    assert.is(first.status, 200, JSON.stringify(first.body).slice(0, 400));
    assert.equal([first.body.complete, first.body.added, first.body.errors], [true, FILES, []]);
    assert.is(gh.count('blob'), FILES);
    gh.resetCounts();
    started = performance.now();
    const second = await t.request<Body>('POST', `/sync/term/${id}`, { ...NS, body: {} });
    const secondMs = performance.now() - started;
    assert.equal([second.body.added, second.body.updated, second.body.removed, second.body.unchanged], [0, 0, 0, FILES]);
    assert.equal([gh.count('repo'), gh.count('tree'), gh.count('blob')], [1, 1, 0], 'only the repository and its tree');
    const list = await t.request<Body>('GET', '/docs', { ...NS, as: 'anonymous', query: { project: 'big', per_page: 1 } });
    assert.is(list.body.total, FILES);
    console.log(
      `docsync timing (${store.label}): first sync of ${FILES} files ${(firstMs / 1000).toFixed(1)} s, second sync ${(secondMs / 1000).toFixed(2)} s`,
    );
  });

  test('a sync cut short leaves whole posts and the next one resumes, fetching only what is left', async ({ t, gh }) => {
    gh.addRepo('acme', 'cut', repository('Cut'));
    const id = await project(t, 'cut', 'cut');
    gh.resetCounts();
    gh.blobBudget = BUDGET;
    const cut = await t.request<Body>('POST', `/sync/term/${id}`, { ...NS, body: {} });
    assert.is(cut.body.errors[0].code, 'docsync_upstream', JSON.stringify(cut.body).slice(0, 400));
    const written = cut.body.added as number;
    assert.ok(written > 0 && written <= BUDGET, String(written));
    const posts = (await t.host.store.collection('posts').find({ post_type: 'documentation', 'meta.sync_project': id })) as Body[];
    assert.is(posts.length, written);
    assert.ok(
      posts.every(
        (p) =>
          p.status === 'publish' &&
          p.title.startsWith('Cut page') &&
          /^[0-9a-f]{64}$/.test(p.meta.sync_hash) &&
          /^[0-9a-f]{40}$/.test(p.meta.sync_blob_sha),
      ),
      'every post is whole',
    );
    gh.blobBudget = null;
    gh.resetCounts();
    const resumed = await t.request<Body>('POST', `/sync/term/${id}`, { ...NS, body: {} });
    assert.equal([resumed.body.added, resumed.body.errors], [FILES - written, []]);
    assert.is(gh.count('blob'), FILES - written, 'only the files not yet written');
  });

  test.run();
}
