// A repository sync as a reader of the posts sees it, on both stores, against the fake
// GitHub: links rewritten in prose and in reference definitions but never inside code, a
// folded YAML title read as YAML, and a forced sync that refetches every file yet reports
// the unchanged ones unchanged and leaves documents pushed with /sync/doc alone.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeGithub, type FakeGithub } from '../../support/fake-github.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
const TOKEN = 'ghp_docsyncResyncToken0123456789abcd';
const NS = { namespace: 'docsync/v1' };

const INDEX = [
  '---',
  'title: >',
  '  The Manual',
  '  of Acme',
  'tags: [a, b]',
  '---',
  '',
  'Intro with [the guide](guide.md), a [reference link][ref] and [pic].',
  '',
  '```md',
  'See [the guide](guide.md) here.',
  '```',
  '',
  '    [indented](guide.md)',
  '',
  'Inline `[code](guide.md)` stays.',
  '',
  '> Quoted [guide](guide.md "The guide").',
  '',
  '[ref]: guide.md#setup "Guide"',
  '[pic]: img/pic.png',
  '',
].join('\n');

const FILES: Record<string, string> = {
  'index.md': INDEX,
  'guide.md': '# Guide\n\n## Setup\n\nDo it.\n',
};

for (const store of testStores('docsync resync')) {
  const test = suite<{ t: TestHost; gh: FakeGithub; projectId: number; ids: Record<string, number> }>(`docsync resync (${store.label})`);
  test.before(async (ctx) => {
    ctx.gh = await startFakeGithub(TOKEN);
    ctx.gh.addRepo('acme', 'manual', FILES);
    ctx.t = await createTestHost({
      plugins: [],
      config: {
        ...store.config(),
        pluginSettings: { docsync: { github_base_url: ctx.gh.url, github_token: TOKEN, sync_wait_seconds: 30 } },
      },
    });
    const resolved = await ctx.t.request<Body>('POST', '/project/resolve', {
      ...NS,
      body: { path: ['manual'], create_missing: true, project_meta: { github_url: 'https://github.com/acme/manual' } },
    });
    ctx.projectId = resolved.body.leaf_term_id;
    ctx.ids = {};
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.gh.close();
  });

  test('links are rewritten in prose and reference definitions, never inside code; a folded title is one line', async ({
    t,
    gh,
    projectId,
    ids,
  }) => {
    const sync = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.equal([sync.status, sync.body.added, sync.body.errors], [200, 2, []], JSON.stringify(sync.body));
    const list = await t.request<Body>('GET', '/docs', { ...NS, query: { project: 'manual' } });
    const bySource = new Map<string, Body>(list.body.items.map((d: Body) => [d.meta.sync_source_file, d]));
    ids.index = bySource.get('index.md')!.id;
    ids.guide = bySource.get('guide.md')!.id;
    const index = await t.request<Body>('GET', `/docs/${ids.index}`, NS);
    assert.is(index.body.title, 'The Manual of Acme');
    assert.is(index.body.excerpt, 'Intro with the guide, a reference link and pic.');
    const guideLink = `${t.url}/?p=${ids.guide}`;
    const expected = INDEX.split('---\n\n')[1]!
      .replace('Intro with [the guide](guide.md)', `Intro with [the guide](${guideLink})`)
      .replace('Quoted [guide](guide.md "The guide")', `Quoted [guide](${guideLink} "The guide")`)
      .replace('[ref]: guide.md#setup', `[ref]: ${guideLink}#setup`)
      .replace('[pic]: img/pic.png', `[pic]: ${gh.url}/web/acme/manual/blob/main/img/pic.png`)
      .trim();
    assert.fixture(index.body.content, expected);
  });

  test('a forced sync fetches every file again, reports unchanged files unchanged, and keeps pushed documents', async ({
    t,
    gh,
    projectId,
  }) => {
    const pushed = await t.request<Body>('POST', '/sync/doc', {
      ...NS,
      body: {
        source_file: 'notes/pushed.md',
        title: 'Pushed',
        content: 'From a script.',
        project_term_id: projectId,
        filesize: 14,
        timestamp: '2026-01-02T03:04:05Z',
      },
    });
    assert.equal([pushed.status, pushed.body.action], [200, 'created']);
    gh.resetCounts();
    const forced = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: { force: true } });
    assert.equal(
      [forced.body.added, forced.body.updated, forced.body.removed, forced.body.unchanged, forced.body.errors],
      [0, 0, 0, 2, []],
      JSON.stringify(forced.body),
    );
    assert.is(gh.count('blob'), 2, 'force fetches every file');
    const kept = await t.request<Body>('GET', `/docs/${pushed.body.post_id}`, NS);
    assert.equal([kept.body.status, kept.body.content], ['publish', 'From a script.']);

    // A real change is still an update, and a changed tree still leaves the pushed document.
    gh.repos.get('acme/manual')!.files.set('guide.md', '# Guide\n\n## Setup\n\nDo it twice.\n');
    const edited = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: { force: true } });
    assert.equal(
      [edited.body.added, edited.body.updated, edited.body.removed, edited.body.unchanged],
      [0, 1, 0, 1],
      JSON.stringify(edited.body),
    );
    gh.repos.get('acme/manual')!.files.delete('guide.md');
    const removed = await t.request<Body>('POST', `/sync/term/${projectId}`, { ...NS, body: {} });
    assert.equal([removed.body.removed, removed.body.updated], [1, 0], JSON.stringify(removed.body));
    const status = await t.request<Body>('GET', '/sync/status', { ...NS, query: { project: 'manual' } });
    assert.equal(status.body.docs.map((d: Body) => d.source_file).sort(), ['index.md', 'notes/pushed.md']);
  });

  test.run();
}
