// The docsync CLI as a new user meets it, on both stores, against a fake GitHub on 127.0.0.1:
// `flowhost project ensure` with a repository address, `flowhost docs sync --all` showing
// progress (plain lines when stderr is not a terminal) and creating the posts, an edit and a
// deletion synced again, `flowhost project tree`, and --json throughout.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import type { Host } from '../../../host/host.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import { startFakeGithub, type FakeGithub } from '../../support/fake-github.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads CLI JSON
const TOKEN = 'ghp_cliToken0123456789';

for (const store of testStores('docsync cli')) {
  const test = suite<{ host: Host; dataDir: string; gh: FakeGithub }>(`docsync cli (${store.label})`);
  const cli = (ctx: { dataDir: string }, ...args: string[]) => cliInProcess([...args, '--data-dir', ctx.dataDir]);
  test.before(async (ctx) => {
    ctx.gh = await startFakeGithub(TOKEN);
    ctx.gh.addRepo('acme', 'handbook', {
      'index.md': '# Handbook\n\nStart here.\n',
      'setup/install.md': '# Install\n\nSteps.\n',
      'setup/configure.md': '# Configure\n\nKnobs.\n',
    });
    const started = await startCliHost({
      ...store.config(),
      pluginSettings: { docsync: { github_base_url: ctx.gh.url, github_token: TOKEN } },
    });
    Object.assign(ctx, started);
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    await ctx.gh.close();
    rmSync(ctx.dataDir, { recursive: true, force: true });
  });

  test('project ensure creates the project with its repository address, then finds it', async (ctx) => {
    const made = await cli(
      ctx,
      'project',
      'ensure',
      'handbook',
      '--name',
      'The Handbook',
      '--github_url',
      'https://github.com/acme/handbook',
      '--wp_url',
      'https://example.com/handbook',
    );
    assert.is(made.status, 0, made.stderr);
    assert.match(
      made.stdout,
      /^Created project The Handbook \(handbook, id \d+\); repository https:\/\/github.com\/acme\/handbook; listing https:\/\/example.com\/handbook\n$/,
    );
    const again = await cli(ctx, 'project', 'ensure', 'handbook', '--json');
    assert.is(again.status, 0, again.stderr);
    const json = JSON.parse(again.stdout) as Body;
    assert.equal(
      [json.created, json.slug, json.meta.github_url, json.project_type],
      [false, 'handbook', 'https://github.com/acme/handbook', 'project'],
    );
    const bad = await cli(ctx, 'project', 'ensure', 'other', '--github_url', 'not a repository');
    assert.is(bad.status, 1);
    assert.match(bad.stderr, /not a repository address/);
  });

  test('docs sync --all shows progress and creates the posts; an edit updates one, a deletion trashes one', async (ctx) => {
    const first = await cli(ctx, 'docs', 'sync', '--all');
    assert.is(first.status, 0, first.stderr);
    assert.match(first.stderr, /acme\/handbook: 3\/3 files \(repository 1 of 1\)/);
    assert.match(first.stdout, /Synced 1 of 1 repository: 3 added, 0 updated, 0 removed, 0 unchanged\./);
    const posts = ctx.host.store.collection('posts');
    assert.is(await posts.count({ post_type: 'documentation', status: 'publish' }), 3);

    const repo = ctx.gh.repos.get('acme/handbook')!;
    repo.files.set('setup/install.md', '# Install\n\nNew steps.\n');
    repo.files.delete('setup/configure.md');
    ctx.gh.resetCounts();
    const second = await cli(ctx, 'docs', 'sync', '--all', '--json');
    assert.is(second.status, 0, second.stderr);
    const result = JSON.parse(second.stdout) as Body;
    assert.equal(
      [result.total_added, result.total_updated, result.total_removed, result.total_unchanged, result.blobs_fetched],
      [0, 1, 1, 1, 1],
    );
    assert.equal(result.removed, ['acme/handbook:setup/configure.md']);
    assert.is(second.stderr, '', '--json prints no progress');
    assert.is(await posts.count({ post_type: 'documentation', status: 'trash' }), 1);
    const term = (JSON.parse((await cli(ctx, 'project', 'ensure', 'handbook', '--json')).stdout) as Body).id as number;
    const one = await cli(ctx, 'docs', 'sync', String(term), '--force');
    assert.is(one.status, 0, one.stderr);
    // Forced: every file fetched again, but none changed, so none is reported updated.
    assert.match(one.stdout, /0 added, 0 updated, 0 removed, 2 unchanged/);
    const none = await cli(ctx, 'docs', 'sync');
    assert.is(none.status, 1);
    assert.match(none.stderr, /Name a project term id, or use --all/);
  });

  test('project tree prints the taxonomy (and --json the nodes)', async (ctx) => {
    const tree = await cli(ctx, 'project', 'tree');
    assert.is(tree.status, 0, tree.stderr);
    assert.match(tree.stdout, /^The Handbook \(handbook\) \[id \d+, project, 1 doc\]\n {2}setup \(setup\) \[id \d+, section, 1 doc\]\n$/);
    const shallow = JSON.parse((await cli(ctx, 'project', 'tree', '--depth', '1', '--json')).stdout) as Body[];
    assert.equal([shallow.length, shallow[0]!.children, shallow[0]!.children_truncated], [1, [], true]);
    const cut = await cli(ctx, 'project', 'tree', '--depth', '1');
    assert.match(
      cut.stdout,
      /^The Handbook \(handbook\) \[id (\d+), project, 1 doc\] … \(more below: --parent \1\)\n$/,
      'a cut branch says so',
    );
  });

  test.run();
}
