// The README walkthrough through the CLI, then carried to another host: pipelines create,
// flows create, export to a file, import into a fresh data directory (twice: two copies),
// run the imported flow and find the feed's items as posts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import { cleanEnv, cliPath, repoRoot } from '../../support/host-process.js';
import { cliInProcess, startCliHost, type CliInput } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** The CLI as a child process, without blocking this process (the feed server answers meanwhile). */
function spawnCli(
  args: string[],
  env: Record<string, string>,
  input?: string,
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const proc = spawn(process.execPath, [cliPath, ...args], {
      cwd: repoRoot,
      env: cleanEnv({ FLOWHOST_LOG_LEVEL: 'warn', ...env }),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    proc.stdout.on('data', (d) => (stdout += d));
    proc.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => proc.kill('SIGKILL'), 60_000);
    proc.on('error', reject);
    proc.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    proc.stdin.end(input ?? '');
  });
}

for (const store of testStores('cli: export and import')) {
  type Ctx = { feed: FeedServer; feedUrl: string; host: Host; dataDir: string };
  const test = suite<Ctx>(`cli: export, import into a fresh data directory, run (${store.label})`);
  type Place = { host: Host; dataDir: string };
  const run = (at: Place, args: string[], input?: CliInput) => cliInProcess([...args, '--data-dir', at.dataDir], input);
  const json = async (ctx: Place, args: string[]) => {
    const res = await run(ctx, [...args, '--json']);
    assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as Body;
  };

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([
      { guid: 'urn:1', title: 'First story' },
      { guid: 'urn:2', title: 'Second story' },
    ]);
    ctx.feedUrl = ctx.feed.url;
    Object.assign(ctx, await startCliHost(store.config()));
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    await ctx.feed.close();
  });

  test('export to a file, import into a fresh data directory (twice: two copies), run it: posts are created', async (ctx) => {
    // The README walkthrough: new RSS items become posts.
    const pipeline = await json(ctx, ['pipelines', 'create', 'RSS to posts', '--step', 'fetch', '--step', 'publish']);
    const made = await json(ctx, [
      'flows',
      'create',
      String(pipeline.pipeline_id),
      '--name',
      'News',
      '--handler',
      'fetch=rss',
      '--set',
      `fetch.feed_url=${ctx.feedUrl}`,
      '--set',
      'fetch.max_items=10',
      '--handler',
      'publish=cms',
      '--set',
      'publish.post_status=publish',
      '--schedule',
      'hourly',
    ]);
    const exported = await run(ctx, ['export', String(made.flow_id)]);
    assert.is(exported.status, 0, exported.stderr);
    const doc = JSON.parse(exported.stdout) as Body;
    assert.is(doc.flowhost_export, 1);
    assert.not.ok(exported.stdout.includes(`${pipeline.pipeline_id}_`), 'no step ids in the document');
    const pipelineDoc = JSON.parse((await run(ctx, ['export', String(pipeline.pipeline_id), '--pipeline'])).stdout) as Body;
    assert.equal(
      pipelineDoc.pipeline.steps.map((s: Body) => s.type),
      ['fetch', 'publish'],
    );
    assert.equal(pipelineDoc.flows, doc.flows);

    const fresh = await startCliHost(store.config());
    try {
      const file = join(fresh.dataDir, 'flow.json');
      writeFileSync(file, exported.stdout);
      const first = await json(fresh, ['import', file]);
      assert.is(first.pipeline_name, 'RSS to posts');
      assert.is(first.flow_ids.length, 1);
      // The real command, reading stdin (it reaches the host through host.json, as any CLI would).
      const second = await spawnCli(['import', '-', '--data-dir', fresh.dataDir], {}, exported.stdout);
      assert.is(second.status, 0, second.stderr);
      assert.match(second.stdout, /Imported pipeline \d+ "RSS to posts \(2\)" with 1 flow\(s\)/);
      // The refusal needs no real process: the same command in process, the document as its stdin.
      const bad = await run(fresh, ['import', '-'], { stdin: JSON.stringify({ ...doc, flowhost_export: 9 }) });
      assert.is(bad.status, 1);
      assert.match(bad.stderr, /flowhost_export: version 9 is not supported \(supported versions: 1\)/);
      writeFileSync(file, 'nope');
      const notJson = await run(fresh, ['import', file]);
      assert.is(notJson.status, 1);
      assert.match(notJson.stderr, /flow\.json is not JSON/);
      assert.is((await json(fresh, ['pipelines', 'list'])).length, 2);

      const job = await json(fresh, ['flows', 'run', String(first.flow_ids[0])]);
      assert.is(job.status, 'completed', JSON.stringify(job));
      const shown = await json(fresh, ['flows', 'show', String(first.flow_ids[0])]);
      assert.is(shown.last_run_status, 'completed');
      const posts = (await fresh.host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;
      assert.equal(posts.map((p) => [p.title, p.status]).sort(), [
        ['First story', 'publish'],
        ['Second story', 'publish'],
      ]);
    } finally {
      await fresh.host.stop();
    }
  });

  test.run();
}
