// A publish handler's textLimit, held by the host on every store: a third party's publish
// handler that declares 40 characters and shortens nothing receives each item already
// fitting (cut at a word, '…', the link kept whole), the job lists it as shortened, the
// text it posted and the item's own content reach the next step; an item that fits and a
// handler without a limit go through untouched; a link too long for the limit fails the
// item saying so. GET /handlers and GET /handlers/{slug} show text_limit.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { defineHandler, definePlugin, graphemeCount, packetText, services, type DataPacket } from '../../../sdk/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const LONG = '<p>Lakes freeze from the top down, because water is densest at four degrees &amp; sinks.</p>';
const LINK = 'https://example.com/lakes';

/** A feed of the items a test puts in `items`, a 40-character poster and one without a limit; what each was given. */
function limitPlugin(items: DataPacket[], seen: { short: string[]; open: string[]; next: DataPacket[] }) {
  const poster = (slug: string, into: string[], textLimit?: number) =>
    defineHandler({
      slug,
      type: 'publish',
      label: slug,
      description: 'Posts the text it is given, as is.',
      ...(textLimit ? { textLimit } : {}),
      publish: async (_ctx, _settings, packets) =>
        packets.map((packet) => {
          const { body, link } = packetText(packet);
          const text = link ? `${body} ${link}` : body;
          into.push(text);
          return { ...packet, metadata: { ...packet.metadata, published_id: `p${into.length}`, published_url: null } };
        }),
    });
  return definePlugin({
    id: 'limit-probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { handlers: services.handlers },
    setup({ handlers }) {
      handlers.add(
        defineHandler({
          slug: 'limit-feed',
          type: 'fetch',
          label: 'Limit feed',
          description: 'The test items.',
          settings: { type: 'object', properties: { max_items: { type: 'integer', minimum: 1, default: 10 } } },
          fetch: async () => items.splice(0),
        }),
      );
      handlers.add(poster('short-post', seen.short, 40));
      handlers.add(poster('open-post', seen.open));
      handlers.add(
        defineHandler({
          slug: 'limit-next',
          type: 'update',
          label: 'Next',
          description: 'Records what reaches the step after the publish.',
          update: async (_ctx, _settings, packets) => {
            seen.next.push(...packets);
            return packets;
          },
        }),
      );
    },
  });
}

for (const store of testStores('publish text limit')) {
  type Ctx = { t: TestHost; items: DataPacket[]; seen: { short: string[]; open: string[]; next: DataPacket[] } };
  const test = suite<Ctx>(`a publish handler's textLimit (${store.label})`);
  test.before(async (ctx) => {
    ctx.items = [];
    ctx.seen = { short: [], open: [], next: [] };
    ctx.t = await createTestHost({ plugins: [limitPlugin(ctx.items, ctx.seen)], config: store.config() });
  });
  test.after(async ({ t }) => {
    await t.stop();
  });

  const run = (t: TestHost, publisher: string) =>
    t.executeAndWait({
      workflow: {
        steps: [
          { type: 'fetch', handler_slug: 'limit-feed', handler_config: { max_items: 10 } },
          { type: 'publish', handler_slug: publisher, handler_config: {} },
          { type: 'update', handler_slug: 'limit-next', handler_config: {} },
        ],
      },
    });
  const item = (id: string, data: Record<string, unknown>): DataPacket => ({ type: 'item', data, metadata: { item_id: id } });

  test('a long item is shortened to the limit before the handler sees it; one that fits is not', async ({ t, items, seen }) => {
    items.push(item('long', { title: 'Lakes', content: LONG, link: LINK }), item('fits', { content: 'Ice is light.', link: LINK }));
    const job = (await run(t, 'short-post')) as Body;
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.equal(seen.short, [`Lakes freeze… ${LINK}`, `Ice is light. ${LINK}`]);
    for (const text of seen.short) assert.ok(graphemeCount(text) <= 40, text);
    const publish = (job.steps as Body[]).find((s) => s.step_type === 'publish')!;
    assert.equal(publish.published, [
      { id: 'p1', url: null, shortened: true },
      { id: 'p2', url: null, shortened: false },
    ]);
    // The next step sees the item as it came, and what was posted.
    assert.is(seen.next[0]!.data.content, LONG);
    assert.is(seen.next[0]!.data.published_text, `Lakes freeze… ${LINK}`);
    assert.is(seen.next[1]!.data.published_text, undefined);
  });

  test('a handler without a limit gets the item untouched', async ({ t, items, seen }) => {
    items.push(item('open', { content: LONG, link: LINK }));
    const job = (await run(t, 'open-post')) as Body;
    assert.is(job.status, 'completed', JSON.stringify(job));
    assert.is(seen.open.at(-1), `Lakes freeze from the top down, because water is densest at four degrees & sinks. ${LINK}`);
  });

  test('a link longer than the limit fails the item saying so', async ({ t, items }) => {
    items.push(item('huge-link', { content: 'Hi', link: `https://example.com/${'a'.repeat(60)}` }));
    const job = (await run(t, 'short-post')) as Body;
    assert.is(job.status, 'failed', JSON.stringify(job));
    assert.match(JSON.stringify(job), /link alone is longer than the short-post handler's limit of 40 characters/);
  });

  test('GET /handlers and GET /handlers/{slug} show text_limit, only for a handler with one', async ({ t }) => {
    const list = await t.request<Body>('GET', '/handlers', { query: { step_type: 'publish' } });
    assert.is(list.status, 200);
    assert.is(list.body.data['short-post'].text_limit, 40);
    assert.not.ok('text_limit' in list.body.data['open-post']);
    assert.is(list.body.data.microblog.text_limit, 280);
    assert.is(list.body.data.federated.text_limit, 300);
    assert.is(list.body.data.threaded.text_limit, 500);
    assert.not.ok('text_limit' in list.body.data.cms);
    const one = await t.request<Body>('GET', '/handlers/short-post');
    assert.is(one.body.data.text_limit, 40);
  });

  test.run();
}
