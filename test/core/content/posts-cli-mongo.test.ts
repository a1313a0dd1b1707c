// `flowhost posts` on MongoDB (when set): no host holds the database, so each command
// starts the build itself. Each command starts a whole host: only the essentials here
// (posts-cli.test.ts covers the commands against a running host).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { runCli } from '../../support/host-process.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';
import { createTestHost } from '../../../sdk/testing/index.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- CLI JSON read freely

const test = suite('cli: flowhost posts (mongodb)');

const mongo = requireMongo('cli: flowhost posts (mongodb)');
if (mongo) {
  test('list, get, delete on MongoDB (the CLI starts the build itself)', async () => {
    const url = freshDatabaseUrl(mongo);
    // Every host on one database shares the vault key (its canary refuses another).
    const secretKey = randomBytes(32).toString('hex');
    // The stock build, as the CLI starts it: a database served by another build is refused (build_mismatch).
    const t = await createTestHost({ plugins: [], config: { mongodbUrl: url, secretKey } });
    try {
      const post = async (body: Body) => (await t.request<Body>('POST', '/posts', { namespace: 'wp/v2', body })).body;
      const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-posts-mongo-'));
      // Each command here starts a whole host, so only the essentials: list, get, delete.
      const cli = (...args: string[]) => runCli([...args, '--data-dir', dataDir], { MONGODB_URL: url, FLOWHOST_SECRET_KEY: secretKey });
      const first = (await post({ title: 'Mongo post', content: 'Body', status: 'publish' })).id as number;
      await post({ title: 'Mongo draft' });
      const listed = cli('posts', 'list', '--json');
      assert.is(listed.status, 0, listed.stderr);
      assert.equal(
        (JSON.parse(listed.stdout) as Body).posts.map((p: Body) => p.title.raw),
        ['Mongo draft', 'Mongo post'],
      );
      const got = cli('posts', 'get', String(first));
      assert.match(got.stdout, /^title\s+Mongo post$/m);
      const forced = cli('posts', 'delete', String(first), '--force', '--yes', '--json');
      assert.is(forced.status, 0, forced.stderr);
      assert.equal([(JSON.parse(forced.stdout) as Body).deleted, await t.host.content.getPost(first)], [true, null]);
    } finally {
      await t.stop();
    }
  });
}

test.run();
