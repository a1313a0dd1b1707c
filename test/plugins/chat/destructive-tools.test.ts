// Chat tools that delete or reset, on both stores: off unless the site enables them, and
// then never run on the model's word (its own `confirm: true` included) — only when the
// user confirms the held call with POST /chat/continue {confirm_tool_call_id}.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

interface ToolCall {
  id: string;
  type: string;
  function: { name: string; arguments: string };
  result?: Record<string, unknown>;
  error?: string;
  awaiting_confirmation?: boolean;
  confirmed?: boolean;
}
interface ChatAnswer {
  session_id: string;
  tool_calls: ToolCall[];
  data: { pending_confirmation: (ToolCall & { turn: number }) | null; completed: boolean };
  code?: string;
}
interface SentMessage {
  role: string;
  content: string | null;
}

const offeredTools = (request: RecordedRequest) =>
  (request.json<{ tools?: Array<{ function: { name: string } }> }>().tools ?? []).map((t) => t.function.name);
const sentMessages = (request: RecordedRequest) => request.json<{ messages: SentMessage[] }>().messages;
const lastToolContent = (request: RecordedRequest) => [...sentMessages(request)].reverse().find((m) => m.role === 'tool')!.content ?? '';

async function docCount(t: TestHost): Promise<number> {
  return (await t.host.content.findPosts({ post_type: 'documentation', status: ['publish', 'draft'], per_page: 100 })).items.length;
}

async function hostWith(
  store: { config(): Record<string, unknown> },
  openai: FakeModelApi,
  chat: Record<string, unknown>,
): Promise<TestHost> {
  const t = await createTestHost({
    plugins: [],
    config: { ...store.config(), pluginSettings: { ...pluginSettingsFor([openai], { max_retries: 0 }), chat } },
  });
  assert.is((await t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: openai.validKey } } })).status, 200);
  for (const title of ['Install', 'Configure']) await t.host.content.createPost({ post_type: 'documentation', status: 'publish', title });
  return t;
}

for (const store of testStores('chat destructive tools')) {
  type Ctx = { openai: FakeModelApi; off: TestHost; on: TestHost };
  const test = suite<Ctx>(`chat destructive tools (${store.label})`);
  test.before(async (ctx) => {
    ctx.openai = await createFakeModelApi('openai');
    ctx.off = await hostWith(store, ctx.openai, {});
    ctx.on = await hostWith(store, ctx.openai, { destructive_tools: ['docsync_reset_docs'] });
  });
  test.after(async (ctx) => {
    await ctx.off.stop();
    await ctx.on.stop();
    await ctx.openai.server.close();
  });

  test('by default docsync_reset_docs is not offered, and a call to it (confirm: true) deletes nothing', async ({ off: t, openai }) => {
    const before = openai.chats().length;
    openai.script.push(toolCallReply('openai', 'wipe_1', 'docsync_reset_docs', { confirm: true }), textReply('openai', 'Could not.'));
    const res = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Summarise https://evil.test/page' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.not.ok(offeredTools(openai.chats()[before]!).includes('docsync_reset_docs'));
    assert.ok(offeredTools(openai.chats()[before]!).includes('docsync_search_docs'), 'the other docsync tools are offered');
    assert.is(res.body.tool_calls[0]!.function.name, 'docsync_reset_docs');
    assert.ok(res.body.tool_calls[0]!.error, JSON.stringify(res.body.tool_calls));
    assert.is(await docCount(t), 2);
    assert.is(res.body.data.pending_confirmation, null);
  });

  test('by default set_handler_defaults may merge but not replace (which clears defaults)', async ({ off: t, openai }) => {
    assert.is((await t.request('PUT', '/settings/handler-defaults/rss', { body: { settings: { max_items: 4 } } })).status, 200);
    openai.script.push(
      toolCallReply('openai', 'rep_1', 'set_handler_defaults', { handler_slug: 'rss', settings: {}, mode: 'replace' }),
      textReply('openai', 'Not allowed.'),
    );
    const res = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Clear the rss defaults' } });
    assert.match(res.body.tool_calls[0]!.error ?? '', /not enabled it for chat/);
    assert.match(lastToolContent(openai.chats().at(-1)!), /Not run/);
    const stored = await t.request<{ data: { settings: Record<string, unknown> } }>('GET', '/settings/handler-defaults/rss');
    assert.equal(stored.body.data.settings, { max_items: 4 });
    openai.script.push(
      toolCallReply('openai', 'mer_1', 'set_handler_defaults', { handler_slug: 'rss', settings: { max_items: 6 } }),
      textReply('openai', 'Done.'),
    );
    const merged = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Six items' } });
    assert.ok(merged.body.tool_calls[0]!.result, JSON.stringify(merged.body.tool_calls));
  });

  test('enabled: the call is held, the model is told it is not run, nothing is deleted', async ({ on: t, openai }) => {
    const before = openai.chats().length;
    openai.script.push(
      toolCallReply('openai', 'wipe_2', 'docsync_reset_docs', { confirm: true }),
      textReply('openai', 'This deletes all documentation. Confirm?'),
    );
    const res = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Reset the docs' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.ok(offeredTools(openai.chats()[before]!).includes('docsync_reset_docs'));
    const [call] = res.body.tool_calls;
    assert.equal([call!.function.name, call!.awaiting_confirmation, 'result' in call!], ['docsync_reset_docs', true, false]);
    assert.match(lastToolContent(openai.chats().at(-1)!), /Not run yet/);
    assert.is(await docCount(t), 2);
    const pending = res.body.data.pending_confirmation!;
    assert.equal(
      [pending.id, pending.function.name, JSON.parse(pending.function.arguments)],
      ['wipe_2', 'docsync_reset_docs', { confirm: true }],
    );

    // A wrong id confirms nothing.
    const wrong = await t.request<ChatAnswer>('POST', '/chat/continue', {
      body: { session_id: res.body.session_id, confirm_tool_call_id: 'other' },
    });
    assert.equal([wrong.status, wrong.body.code], [409, 'nothing_to_confirm']);
    assert.is(await docCount(t), 2);

    // The user confirms: the held call runs, the model hears the outcome and answers.
    openai.script.push(textReply('openai', 'Documentation reset.'));
    const done = await t.request<ChatAnswer>('POST', '/chat/continue', {
      body: { session_id: res.body.session_id, confirm_tool_call_id: 'wipe_2' },
    });
    assert.is(done.status, 200, JSON.stringify(done.body));
    assert.is(await docCount(t), 0);
    assert.equal(
      [done.body.tool_calls[0]!.id, done.body.tool_calls[0]!.confirmed, done.body.tool_calls[0]!.result?.documentation_posts_deleted],
      ['wipe_2', true, 2],
    );
    assert.match(sentMessages(openai.chats().at(-1)!).at(-1)!.content ?? '', /I confirm call wipe_2/);
    assert.is(done.body.data.pending_confirmation, null);
    // Confirmed once: a second confirmation finds nothing held.
    const again = await t.request<ChatAnswer>('POST', '/chat/continue', {
      body: { session_id: res.body.session_id, confirm_tool_call_id: 'wipe_2' },
    });
    assert.equal([again.status, again.body.code], [409, 'nothing_to_confirm']);
  });

  test('a new message drops the held call: it can no longer be confirmed', async ({ on: t, openai }) => {
    await t.host.content.createPost({ post_type: 'documentation', status: 'publish', title: 'Again' });
    openai.script.push(toolCallReply('openai', 'wipe_3', 'docsync_reset_docs', { confirm: true }), textReply('openai', 'Confirm?'));
    const held = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Reset the docs' } });
    assert.is(held.body.data.pending_confirmation?.id, 'wipe_3');
    openai.script.push(textReply('openai', 'OK, leaving them.'));
    const moved = await t.request<ChatAnswer>('POST', '/chat', { body: { message: 'Actually no', session_id: held.body.session_id } });
    assert.is(moved.body.data.pending_confirmation, null);
    const late = await t.request<ChatAnswer>('POST', '/chat/continue', {
      body: { session_id: held.body.session_id, confirm_tool_call_id: 'wipe_3' },
    });
    assert.equal([late.status, late.body.code], [409, 'nothing_to_confirm']);
    assert.is(await docCount(t), 1);
  });

  test.run();
}
