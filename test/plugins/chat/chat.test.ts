// POST /chat on every store: a fake OpenAI-compatible API scripts the tool calls; one
// message builds an rss → cms flow and runs it; an identical repeat runs once and the
// loop stops at the turn limit with the session saved; invalid arguments and provider
// failures; sessions list/get/delete, 404 and 403; a tool refuses an editor.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import type { ActingUser } from '../../../sdk/index.js';
import { chatTools } from '../../../sdk/chat/index.js';
import { testStores } from '../../support/test-stores.js';
import { startFeedServer, type FeedServer } from '../../support/feed-server.js';
import {
  createFakeModelApi,
  errorReply,
  pluginSettingsFor,
  textReply,
  toolCallReply,
  type FakeModelApi,
} from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** The last tool message the model was sent, decoded. */
function lastToolOutput(request: RecordedRequest): Body {
  const messages = request.json<Body>().messages as Body[];
  const tool = [...messages].reverse().find((m) => m.role === 'tool');
  assert.ok(tool, `no tool message in ${JSON.stringify(messages)}`);
  return typeof tool!.content === 'string' ? JSON.parse(tool!.content) : tool!.content;
}

for (const store of testStores('chat plugin')) {
  type Ctx = { t: TestHost; openai: FakeModelApi; feed: FeedServer };
  const test = suite<Ctx>(`chat plugin (${store.label})`);

  test.before(async (ctx) => {
    ctx.feed = await startFeedServer([
      { guid: 'urn:a', title: 'First story' },
      { guid: 'urn:b', title: 'Second story' },
    ]);
    ctx.openai = await createFakeModelApi('openai');
    ctx.t = await createTestHost({
      plugins: [],
      config: { ...store.config(), pluginSettings: pluginSettingsFor([ctx.openai], { max_retries: 0 }) },
    });
    assert.is((await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: ctx.openai.validKey } } })).status, 200);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.feed.close();
    await ctx.openai.server.close();
  });

  test('one message builds an rss → cms flow and runs it; the model gets each tool result', async ({ t, openai, feed }) => {
    const before = openai.chats().length;
    openai.script.push(
      toolCallReply('openai', 'call_1', 'create_pipeline', { name: 'News', steps: ['fetch', 'publish'] }),
      (request) => {
        const out = lastToolOutput(request);
        assert.is(out.success, true, JSON.stringify(out));
        assert.equal(
          out.result.steps.map((s: Body) => s.step_type),
          ['fetch', 'publish'],
        );
        return toolCallReply('openai', 'call_2', 'create_flow', {
          pipeline_id: out.result.pipeline_id,
          name: 'News flow',
          handlers: [
            { slug: 'rss', settings: { feed_url: feed.url } },
            { slug: 'cms', settings: { post_status: 'publish' } },
          ],
        });
      },
      (request) => {
        const out = lastToolOutput(request);
        assert.is(out.success, true, JSON.stringify(out));
        assert.equal(
          out.result.steps.map((s: Body) => s.handler),
          ['rss', 'cms'],
        );
        return toolCallReply('openai', 'call_3', 'run_flow', { flow_id: out.result.flow_id });
      },
      (request) => {
        const out = lastToolOutput(request);
        assert.is(out.success, true, JSON.stringify(out));
        assert.ok(Number.isInteger(out.result.job_id));
        return textReply('openai', `Flow created and started as job ${out.result.job_id}.`);
      },
    );
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'Publish my feed to the site' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(openai.chats().length - before, 4);
    const body = res.body;
    assert.match(body.session_id, /^[a-f0-9-]+$/);
    assert.match(body.response, /^Flow created and started as job \d+\.$/);
    // The run's record says the chat assistant started it, for whom (issue 53's run record).
    const chatJobId = Number(/job (\d+)/.exec(body.response)![1]);
    const chatJob = await t.request<Body>('GET', `/jobs/${chatJobId}`);
    assert.is(chatJob.body.data.source, 'chat');
    assert.is(chatJob.body.data.trigger.kind, 'chat');
    assert.is(chatJob.body.data.trigger.user_login, 'admin');
    // The spec's tool call: {id, type: 'function', function: {name, arguments (encoded JSON)}}.
    assert.equal(
      body.tool_calls.map((c: Body) => [c.id, c.type, c.function.name, c.turn, 'result' in c]),
      [
        ['call_1', 'function', 'create_pipeline', 1, true],
        ['call_2', 'function', 'create_flow', 2, true],
        ['call_3', 'function', 'run_flow', 3, true],
      ],
    );
    assert.equal(JSON.parse(body.tool_calls[0].function.arguments), { name: 'News', steps: ['fetch', 'publish'] });
    assert.ok(
      body.tool_calls.every((c: Body) => !('tool' in c) && !('args' in c)),
      'no second spelling of name and arguments',
    );
    assert.is(body.data.session_id, body.session_id);
    assert.is(body.data.completed, true);
    assert.is(body.data.turn_number, 4);
    assert.is(body.data.max_turns_reached, false);
    assert.equal(
      body.conversation.map((m: Body) => m.role),
      ['user', 'assistant', 'tool', 'assistant', 'tool', 'assistant', 'tool', 'assistant'],
    );
    assert.is(body.conversation[1].tool_calls[0].function.name, 'create_pipeline');
    assert.is(body.metadata.message_count, 8);

    // The system prompt carries the inventory (empty at first) and the tools were offered.
    const first = openai.chats()[before]!.json<Body>();
    assert.match(first.messages[0].content, /Pipelines \(0\)/);
    const offered = first.tools.map((tool: Body) => tool.function.name);
    for (const name of ['create_flow', 'create_pipeline', 'run_flow']) assert.ok(offered.includes(name), `${name} offered`);

    const job = await t.waitForJob(body.tool_calls[2].result.job_id);
    assert.is(job.status, 'completed', JSON.stringify(job));
    const posts = (await t.host.content.findPosts({ post_type: 'post', orderby: 'post_id', order: 'asc' })).items;
    assert.ok(posts.length >= 1, 'the run published');
    assert.ok(
      posts.every((p) => ['First story', 'Second story'].includes(p.title)),
      JSON.stringify(posts.map((p) => p.title)),
    );

    // A next message in the session sees the new pipeline and flow in its inventory.
    openai.script.push(textReply('openai', 'You have one flow.'));
    const next = await t.request<Body>('POST', '/chat', { body: { message: 'What do I have?', session_id: body.session_id } });
    assert.is(next.status, 200, JSON.stringify(next.body));
    const sent = openai.chats().at(-1)!.json<Body>();
    assert.match(sent.messages[0].content, /pipeline \d+ "News": .*\(fetch\), .*\(publish\)/);
    assert.match(sent.messages[0].content, /flow \d+ "News flow" \(pipeline \d+\): handlers rss, cms/);
    assert.is(sent.messages.filter((m: Body) => m.role === 'tool').length, 3, 'the earlier turns are sent again');
    assert.is(next.body.metadata.message_count, 10);
  });

  test('an identical repeated call runs once; the loop stops at 8 turns with the session saved', async ({ t, openai }) => {
    const before = openai.chats().length;
    for (let i = 0; i < 9; i++)
      openai.script.push(toolCallReply('openai', `call_r${i}`, 'create_pipeline', { steps: ['fetch'], name: 'Looping' }));
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'Loop please' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(openai.chats().length - before, 8);
    openai.script.length = 0;
    const calls = res.body.tool_calls as Body[];
    assert.is(calls.length, 8);
    assert.ok('result' in calls[0]!);
    assert.ok(calls.slice(1).every((c) => c.skipped === true && /already made/.test(c.error)));
    // The model was told the repeat was not run.
    assert.match(JSON.stringify(lastToolOutput(openai.chats().at(-1)!)), /already made in this request/);
    assert.is(res.body.data.completed, false);
    assert.is(res.body.data.max_turns_reached, true);
    assert.is(res.body.data.turn_number, 8);
    const pipelines = (await t.request<Body>('GET', '/pipelines', { query: { per_page: 100 } })).body;
    assert.is(JSON.stringify(pipelines).match(/"Looping"/g)?.length, 1);
    const saved = await t.request<Body>('GET', `/chat/${res.body.session_id}`);
    assert.is(saved.status, 200);
    assert.is(saved.body.data.message_count, 17);
    assert.is(saved.body.data.conversation.length, 17);
  });

  test('one max_turns: the site setting (8 by default, as the spec says) is where chat stops', async ({ t, openai }) => {
    const settings = (await t.request<Body>('GET', '/settings')).body.data;
    assert.equal([settings.settings.max_turns, settings.defaults.max_turns], [8, 8]);
    assert.is((await t.request<Body>('PUT', '/settings', { body: { max_turns: 3 } })).status, 200);
    try {
      const before = openai.chats().length;
      for (let i = 0; i < 5; i++)
        openai.script.push(toolCallReply('openai', `call_s${i}`, 'create_pipeline', { steps: ['fetch'], name: `Turn ${i}` }));
      const res = await t.request<Body>('POST', '/chat', { body: { message: 'Keep listing' } });
      assert.is(res.status, 200, JSON.stringify(res.body));
      assert.equal([res.body.data.turn_number, res.body.data.max_turns_reached], [3, true]);
      assert.is(openai.chats().length - before, 3, 'three model calls, as the site setting says');
    } finally {
      openai.script.length = 0;
      await t.request('PUT', '/settings', { body: { max_turns: 8 } });
    }
  });

  test('pluginSettings.chat.max_turns stops start-up, naming the site setting that replaced it', async () => {
    const refused = await createTestHost({ plugins: [], config: { ...store.config(), pluginSettings: { chat: { max_turns: 4 } } } }).then(
      async (host) => {
        await host.stop();
        return null;
      },
      (error: unknown) => error as Error,
    );
    assert.ok(refused, 'the host started');
    assert.match(refused.message, /pluginSettings\.chat\.max_turns.*site setting max_turns/);
  });

  test('invalid arguments come back to the model as the tool error', async ({ t, openai }) => {
    openai.script.push(toolCallReply('openai', 'call_bad', 'create_pipeline', { name: 5, extra: true }), (request) => {
      const out = lastToolOutput(request);
      assert.is(out.success, false);
      assert.match(out.error, /Invalid arguments for create_pipeline/);
      assert.match(out.error, /steps/);
      return textReply('openai', 'Sorry.');
    });
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'make one' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.match(res.body.tool_calls[0].error, /Invalid arguments for create_pipeline: .*name must be string/);
    assert.is(res.body.response, 'Sorry.');
  });

  test("a provider failure is a 502 with the provider's message, after the session is saved", async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'Hello.'));
    const first = await t.request<Body>('POST', '/chat', { body: { message: 'hi' } });
    const id = first.body.session_id;
    openai.script.push(errorReply('openai', 400, 'Something is wrong with the request'));
    const failed = await t.request<Body>('POST', '/chat', { body: { message: 'again', session_id: id } });
    assert.is(failed.status, 502, JSON.stringify(failed.body));
    assert.is(failed.body.code, 'provider_error');
    assert.match(failed.body.message, /OpenAI refused the request \(HTTP 400\): Something is wrong with the request/);
    const saved = await t.request<Body>('GET', `/chat/${id}`);
    assert.equal(
      saved.body.conversation.map((m: Body) => m.content),
      ['hi', 'Hello.', 'again'],
    );
  });

  test('no key for the provider, or an unknown one: a 400 and no session, no call', async ({ t, openai }) => {
    const before = openai.chats().length;
    const total = (await t.request<Body>('GET', '/chat/sessions')).body.data.total;
    const none = await t.request<Body>('POST', '/chat', { body: { message: 'hi', provider: 'anthropic' } });
    assert.is(none.status, 400);
    assert.is(none.body.code, 'provider_not_configured');
    assert.match(none.body.message, /Anthropic has no API key/);
    const unknown = await t.request<Body>('POST', '/chat', { body: { message: 'hi', provider: 'nope' } });
    assert.is(unknown.status, 400);
    assert.is(unknown.body.code, 'provider_not_found');
    assert.is((await t.request<Body>('GET', '/chat/sessions')).body.data.total, total);
    assert.is(openai.chats().length, before);
  });

  test('sessions: list, get, delete; 404 for unknown; 403 for another user', async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'Hi there.'));
    t.clock.advance(60_000);
    const created = await t.request<Body>('POST', '/chat', { body: { message: 'A session to keep', agent_type: 'cli' } });
    assert.is(created.status, 200, JSON.stringify(created.body));
    const id = created.body.session_id;
    const list = await t.request<Body>('GET', '/chat/sessions', { query: { limit: 2 } });
    assert.is(list.status, 200, JSON.stringify(list.body));
    assert.is(list.body.data.sessions.length, 2);
    assert.ok(list.body.data.total >= 4);
    const mine = list.body.data.sessions.find((s: Body) => s.session_id === id);
    assert.ok(mine, 'the newest session is listed first');
    assert.equal(
      [mine.title, mine.first_message, mine.message_count, mine.agent_type],
      ['A session to keep', 'A session to keep', 2, 'cli'],
    );

    const other = await t.createUser('other-admin', 'administrator');
    const denied = await t.request<Body>('GET', `/chat/${id}`, { as: other });
    assert.is(denied.status, 403);
    assert.is(denied.body.code, 'session_access_denied');
    assert.is(
      (await t.request<Body>('POST', '/chat', { as: other, body: { message: 'x', session_id: id } })).body.code,
      'session_access_denied',
    );
    assert.is((await t.request<Body>('DELETE', `/chat/${id}`, { as: other })).status, 403);
    assert.is((await t.request<Body>('GET', '/chat/sessions', { as: other })).body.data.total, 0);

    const got = await t.request<Body>('GET', `/chat/${id}`);
    assert.equal(
      got.body.data.conversation.map((m: Body) => m.role),
      ['user', 'assistant'],
    );
    const deleted = await t.request<Body>('DELETE', `/chat/${id}`);
    assert.is(deleted.status, 200);
    assert.equal(deleted.body.data, { deleted: true, session_id: id });
    const gone = await t.request<Body>('GET', `/chat/${id}`);
    assert.is(gone.status, 404);
    assert.is(gone.body.code, 'session_not_found');
    assert.is((await t.request<Body>('POST', '/chat', { body: { message: 'x', session_id: 'abc-123' } })).body.code, 'session_not_found');
    const editor = await t.createUser('chat-editor', 'editor');
    assert.is((await t.request<Body>('POST', '/chat', { as: editor, body: { message: 'x' } })).status, 403);
  });

  test('the tools refuse a user without manage_options', async ({ t }) => {
    const editor: ActingUser = { userId: 99, login: 'ed', capabilities: ['edit_posts'], can: (c) => c === 'edit_posts' };
    const ctx = { user: editor, log: undefined as never, clock: t.clock, fetch: undefined as never };
    for (const name of ['create_pipeline', 'create_flow', 'run_flow']) {
      const tool = t.host.registries
        .extensionPoint(chatTools)
        .list()
        .find((x) => x.name === name)!;
      const args =
        name === 'create_pipeline' ? { name: 'X', steps: ['fetch'] } : name === 'create_flow' ? { pipeline_id: 1 } : { flow_id: 1 };
      try {
        await tool.run(args, ctx as never);
        assert.unreachable(`${name} ran for an editor`);
      } catch (error) {
        assert.match((error as Error).message, new RegExp(`${name} needs the manage_options capability, which user ed does not have`));
      }
    }
  });

  test.run();
}
