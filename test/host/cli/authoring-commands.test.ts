// Authoring from the command line without copying step ids: pipelines create/list/show,
// flows create/show/config by position, type or id, --set parsing and errors naming the
// step. Export/import through the CLI: authoring-export.test.ts.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('cli: authoring')) {
  type Ctx = { feed: FeedServer; feedUrl: string; host: Host; dataDir: string; pipelineId: number; flowId: number };
  const test = suite<Ctx>(`cli: pipelines, flows create/config, export and import (${store.label})`);
  type Place = { host: Host; dataDir: string };
  const run = (at: Place, args: string[]) => cliInProcess([...args, '--data-dir', at.dataDir]);
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

  test('pipelines create prints the ids of its steps in order; list and show name them by position', async (ctx) => {
    const created = await json(ctx, ['pipelines', 'create', 'Feed to site', '--step', 'fetch', '--step', 'ai', '--step', 'publish']);
    assert.is(created.pipeline_name, 'Feed to site');
    assert.equal(
      created.steps.map((s: Body) => [s.position, s.type]),
      [
        [1, 'fetch'],
        [2, 'ai'],
        [3, 'publish'],
      ],
    );
    assert.ok(created.steps.every((s: Body) => s.id.startsWith(`${created.pipeline_id}_`)));
    ctx.pipelineId = created.pipeline_id;

    const table = await run(ctx, ['pipelines', 'show', String(ctx.pipelineId)]);
    assert.is(table.status, 0, table.stderr);
    assert.match(table.stdout, /POSITION\s+TYPE\s+LABEL\s+ID/);
    assert.match(table.stdout, new RegExp(`2\\s+ai\\s+AI Step\\s+${created.steps[1].id}`));
    const listTable = await run(ctx, ['pipelines', 'list']);
    assert.match(listTable.stdout, /Feed to site\s+fetch > ai > publish\s+0/);
  });

  test('flows create: steps by position, type and id; --set values parse as JSON, keys nest', async (ctx) => {
    const steps = (await json(ctx, ['pipelines', 'show', String(ctx.pipelineId)])).steps as Body[];
    const flow = await json(ctx, [
      'flows',
      'create',
      String(ctx.pipelineId),
      '--name',
      'Morning feed',
      '--handler',
      'fetch=rss',
      '--set',
      `1.feed_url=${ctx.feedUrl}`,
      '--set',
      'fetch.max_items=5',
      '--user-message',
      'ai=Summarise this',
      '--handler',
      `${steps[2]!.id}=cms`,
      '--set',
      'publish.post_status=publish',
      '--set',
      '3.include_source=false',
      '--set',
      '3.terms=news,tech',
      '--schedule',
      'hourly',
    ]);
    ctx.flowId = flow.flow_id;
    assert.is(flow.flow_name, 'Morning feed');
    assert.equal(flow.scheduling_config, { interval: 'hourly' });
    assert.equal(
      flow.steps.map((s: Body) => [s.position, s.type, s.handler]),
      [
        [1, 'fetch', 'rss'],
        [2, 'ai', null],
        [3, 'publish', 'cms'],
      ],
    );
    assert.equal(flow.steps[0].config, { feed_url: ctx.feedUrl, max_items: 5 }, 'the number 5, not "5"');
    assert.is(flow.steps[1].user_message, 'Summarise this');
    assert.is(flow.steps[2].config.include_source, false, 'the boolean false');
    assert.is(flow.steps[2].config.terms, 'news,tech', 'text that is not JSON stays text');

    const shown = await run(ctx, ['flows', 'show', String(ctx.flowId)]);
    assert.is(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /Schedule: hourly/);
    assert.match(shown.stdout, /Last run: Never/);
    assert.match(shown.stdout, /1\s+fetch\s+rss\s+\{"feed_url"/);
  });

  test('flows config changes settings by type or position; a refused nested key names the step and field', async (ctx) => {
    const changed = await json(ctx, [
      'flows',
      'config',
      String(ctx.flowId),
      '--set',
      'fetch.max_items=2',
      '--set',
      'publish.post_status=draft',
      '--schedule',
      'manual',
      '--name',
      'Renamed',
    ]);
    assert.is(changed.flow_name, 'Renamed');
    assert.equal(changed.scheduling_config, { interval: 'manual' });
    assert.is(changed.steps[0].config.max_items, 2);
    assert.is(changed.steps[0].config.feed_url, ctx.feedUrl, 'other settings are kept');
    assert.is(changed.steps[2].config.post_status, 'draft');
    // A nested, secret-looking key is refused by the rss schema (it takes no such field), naming the step and field.
    const nested = await run(ctx, [
      'flows',
      'config',
      String(ctx.flowId),
      '--set',
      '1.auth.endpoint=abc',
      '--set',
      'publish.post_status=publish',
    ]);
    assert.is(nested.status, 1);
    assert.match(nested.stderr, /step 1 \(fetch, handler rss\): auth is not an allowed property/);
  });

  test('bad step references and refused settings name the step and the key', async (ctx) => {
    // The parsing and naming rules are unit-tested in step-refs.test.ts; these go end to end.
    const cases: Array<[string[], RegExp]> = [
      [
        ['flows', 'create', String(ctx.pipelineId), '--handler', '4=rss'],
        /No step at position 4 in pipeline \d+ \(its steps: 1 fetch, 2 ai, 3 publish\)/,
      ],
      [['flows', 'create', String(ctx.pipelineId), '--handler', 'publish=rss'], /step 3 \(publish\): 'rss' is a fetch handler/],
      [
        ['flows', 'create', String(ctx.pipelineId), '--handler', 'fetch=rss', '--set', 'fetch.max_items=500'],
        /step 1 \(fetch, handler rss\): .*max_items must be <= 50/,
      ],
      [['flows', 'config', String(ctx.flowId), '--set', '2.model=x'], /step 2 \(ai\): the step has no handler yet/],
    ];
    const before = (await json(ctx, ['flows', 'list'])).length;
    for (const [args, message] of cases) {
      const res = await run(ctx, args);
      assert.is(res.status, 1, `${args.join(' ')}: ${res.stdout}`);
      assert.match(res.stderr, message, `${args.join(' ')}: ${res.stderr}`);
    }
    assert.is((await json(ctx, ['flows', 'list'])).length, before, 'no flow was created by a refused command');

    // A type that two steps have is ambiguous: the position must be used.
    const two = await json(ctx, ['pipelines', 'create', 'Two publishers', '--step', 'fetch', '--step', 'publish', '--step', 'publish']);
    const ambiguous = await run(ctx, ['flows', 'create', String(two.pipeline_id), '--handler', 'publish=cms']);
    assert.is(ambiguous.status, 1);
    assert.match(
      ambiguous.stderr,
      /Step 'publish' is ambiguous: pipeline \d+ has 2 publish steps \(positions 2, 3\); name one by its position/,
    );
  });

  test.run();
}
