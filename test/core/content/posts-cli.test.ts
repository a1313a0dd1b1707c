// `flowhost posts list|get|delete` through the wp/v2 API, against a running host on the
// embedded store (posts-cli-mongo.test.ts: on MongoDB, the CLI starting the build itself).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { basicAuth, runCli, startHostProcess, waitForExit } from '../../support/host-process.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- CLI JSON read freely

const test = suite('cli: flowhost posts');

/** Seeds 3 published posts and a draft through `post`; checks every command. */
async function exercise(cli: (...args: string[]) => ReturnType<typeof runCli>, post: (body: Body) => Promise<Body>) {
  const ids: number[] = [];
  for (const n of [1, 2, 3]) ids.push((await post({ title: `CLI post ${n}`, content: `Body ${n}`, status: 'publish' })).id);
  const draft = (await post({ title: 'CLI draft', content: 'Not yet' })).id;

  const listed = cli('posts', 'list', '--json', '--per-page', '2');
  assert.is(listed.status, 0, listed.stderr);
  const page = JSON.parse(listed.stdout) as Body;
  assert.equal([page.total, page.total_pages, page.page, page.per_page], [4, 2, 1, 2], 'status any: drafts too');
  assert.is(page.posts.length, 2);
  assert.is(page.posts[0].title.raw, 'CLI draft');

  const drafts = JSON.parse(cli('posts', 'list', '--status', 'draft', '--search', 'CLI', '--json').stdout) as Body;
  assert.equal(
    drafts.posts.map((p: Body) => p.id),
    [draft],
  );

  const table = cli('posts', 'list');
  assert.is(table.status, 0, table.stderr);
  assert.match(table.stdout, /^ID\s+STATUS\s+DATE\s+SLUG\s+TITLE/m);
  assert.match(
    table.stdout,
    new RegExp(`^${ids[0]}\\s+publish\\s+\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d\\s+cli-post-1\\s+CLI post 1$`, 'm'),
  );
  assert.match(table.stdout, /Page 1 of 1 \(4 posts\)/);

  const got = cli('posts', 'get', String(ids[0]), '--json');
  assert.is(got.status, 0, got.stderr);
  const one = JSON.parse(got.stdout) as Body;
  assert.equal([one.id, one.content.raw, one.categories], [ids[0], 'Body 1', []]);
  const shown = cli('posts', 'get', String(ids[0]));
  assert.match(shown.stdout, /^title\s+CLI post 1$/m);
  assert.match(shown.stdout, /^categories\s*$/m);
  assert.match(shown.stdout, /\nBody 1\n$/);

  const missing = cli('posts', 'get', '999999');
  assert.is.not(missing.status, 0);
  assert.match(missing.stderr, /Invalid post ID/);
  const badType = cli('posts', 'list', '--type', 'nope');
  assert.is.not(badType.status, 0);
  assert.match(badType.stderr, /Unknown post type 'nope'/);

  const trashed = cli('posts', 'delete', String(ids[2]), '--json');
  assert.is(trashed.status, 0, trashed.stderr);
  assert.is((JSON.parse(trashed.stdout) as Body).status, 'trash');
  const again = cli('posts', 'delete', String(ids[2]));
  assert.is.not(again.status, 0);
  assert.match(again.stderr, /already been deleted/);
  assert.match(cli('posts', 'delete', String(ids[2]), '--force').stderr, /not confirmed/, 'deleting for good asks first');
  const forced = cli('posts', 'delete', String(ids[2]), '--force', '--yes');
  assert.is(forced.status, 0, forced.stderr);
  assert.match(forced.stdout, new RegExp(`Post ${ids[2]} deleted`));
  return { ids, draft };
}

test('list, get, delete through a running host (embedded store)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-posts-'));
  const host = await startHostProcess(dataDir);
  try {
    const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
    const post = async (body: Body) =>
      (await (
        await fetch(`${host.url}/api/wp/v2/posts`, {
          method: 'POST',
          headers: { Authorization: auth, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        })
      ).json()) as Body;
    await exercise((...args) => runCli([...args, '--data-dir', dataDir]), post);
    const left = (await (
      await fetch(`${host.url}/api/wp/v2/posts?status=any&context=edit`, { headers: { Authorization: auth } })
    ).json()) as Body[];
    assert.equal(
      left.map((p) => p.title.raw),
      ['CLI draft', 'CLI post 2', 'CLI post 1'],
    );
  } finally {
    host.proc.kill('SIGTERM');
    await waitForExit(host.proc);
  }
});

test.run();
