// POST /chat/continue, X-Request-ID idempotency, the per-session lease, the caps on what a
// session stores, and the manage_options gate, on every store, against a fake OpenAI API.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createTestHost, type FakeReply, type RecordedRequest, type TestHost } from '../../../sdk/testing/index.js';
import { definePlugin } from '../../../sdk/index.js';
import { chatTools, defineChatTool } from '../../../sdk/chat/index.js';
import { testStores } from '../../support/test-stores.js';
import {
  createFakeModelApi,
  errorReply,
  pluginSettingsFor,
  textReply,
  toolCallReply,
  type FakeModelApi,
  type Scripted,
} from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

/** A test tool whose result is far over the cap. */
const bigTool = definePlugin({
  id: 'chat-big-tool',
  version: '1.0.0',
  flowhost: '^1.0.0',
  deps: { tools: chatTools },
  setup({ tools }) {
    tools.add(
      defineChatTool({
        name: 'big_dump',
        description: 'Returns a lot',
        parameters: { type: 'object', properties: {}, additionalProperties: false },
        run: async () => ({ text: 'x'.repeat(100_000) }),
      }),
    );
  },
});

/** A scripted answer held back until `open()`: a request stays running meanwhile. */
function gated(reply: FakeReply): { scripted: Scripted; open: () => void; reached: Promise<void> } {
  let open!: () => void;
  let reach!: () => void;
  const gate = new Promise<void>((r) => (open = r));
  const reached = new Promise<void>((r) => (reach = r));
  const scripted = (async () => {
    reach();
    await gate;
    return reply;
  }) as unknown as Scripted;
  return { scripted, open, reached };
}

const messagesSent = (request: RecordedRequest) => request.json<Body>().messages as Body[];

for (const store of testStores('chat continue')) {
  type Ctx = { t: TestHost; openai: FakeModelApi };
  const test = suite<Ctx>(`chat: continue, X-Request-ID, session lease, caps (${store.label})`);

  test.before(async (ctx) => {
    ctx.openai = await createFakeModelApi('openai');
    ctx.t = await createTestHost({
      plugins: [bigTool],
      config: { ...store.config(), pluginSettings: pluginSettingsFor([ctx.openai], { max_retries: 0 }) },
    });
    const put = await ctx.t.request('PUT', '/settings', { body: { ai_provider_keys: { openai: ctx.openai.validKey }, max_turns: 2 } });
    assert.is(put.status, 200);
  });
  test.after(async (ctx) => {
    await ctx.t.stop();
    await ctx.openai.server.close();
  });

  test('continue after the turn limit: one model call per request, new_messages, a fresh budget, then 409 nothing_to_continue', async ({
    t,
    openai,
  }) => {
    openai.script.push(
      toolCallReply('openai', 'c1', 'create_pipeline', { name: 'P1', steps: ['fetch'] }),
      toolCallReply('openai', 'c2', 'create_pipeline', { name: 'P2', steps: ['fetch'] }),
    );
    const first = await t.request<Body>('POST', '/chat', { body: { message: 'Make pipelines' } });
    assert.is(first.status, 200, JSON.stringify(first.body));
    assert.equal([first.body.data.completed, first.body.data.turn_number, first.body.data.max_turns_reached], [false, 2, true]);
    const id = first.body.session_id;

    const before = openai.chats().length;
    openai.script.push(toolCallReply('openai', 'c3', 'create_pipeline', { name: 'P3', steps: ['publish'] }));
    const one = await t.request<Body>('POST', '/chat/continue', { body: { session_id: id } });
    assert.is(one.status, 200, JSON.stringify(one.body));
    assert.is(openai.chats().length - before, 1, 'one model call per continue');
    // The model was sent the earlier call and its result (role tool, tool_call_id c2).
    const sent = messagesSent(openai.chats().at(-1)!);
    assert.ok(
      sent.some((m) => m.role === 'tool' && m.tool_call_id === 'c2'),
      JSON.stringify(sent),
    );
    assert.equal(
      one.body.data.new_messages.map((m: Body) => [m.role, m.metadata.type]),
      [
        ['assistant', 'tool_call'],
        ['tool', 'tool_result'],
      ],
    );
    assert.is(one.body.data.new_messages[1].metadata.tool_name, 'create_pipeline');
    assert.equal([one.body.data.completed, one.body.data.turn_number, one.body.data.max_turns_reached], [false, 1, false]);
    assert.is(one.body.session_id, id);
    assert.is(one.body.tool_calls[0].function.name, 'create_pipeline');
    assert.ok(one.body.tool_calls[0].result.pipeline_id >= 1);
    assert.is(one.body.conversation.length, one.body.metadata.message_count);

    openai.script.push(toolCallReply('openai', 'c4', 'create_pipeline', { name: 'P4', steps: ['publish'] }));
    const two = await t.request<Body>('POST', '/chat/continue', { body: { session_id: id } });
    assert.equal([two.body.data.completed, two.body.data.turn_number, two.body.data.max_turns_reached], [false, 2, true]);

    openai.script.push(textReply('openai', 'All four made.'));
    const done = await t.request<Body>('POST', '/chat/continue', { body: { session_id: id } });
    assert.is(done.status, 200, JSON.stringify(done.body));
    assert.equal([done.body.data.completed, done.body.data.turn_number, done.body.data.max_turns_reached], [true, 1, false]);
    assert.is(done.body.response, 'All four made.');
    assert.equal(
      done.body.data.new_messages.map((m: Body) => [m.role, m.content]),
      [['assistant', 'All four made.']],
    );

    const count = openai.chats().length;
    const nothing = await t.request<Body>('POST', '/chat/continue', { body: { session_id: id } });
    assert.is(nothing.status, 409);
    assert.is(nothing.body.code, 'nothing_to_continue');
    assert.match(nothing.body.message, /send a new message with POST \/chat/);
    assert.is(openai.chats().length, count, 'nothing was sent to the model');
    const saved = await t.request<Body>('GET', `/chat/${id}`);
    assert.is(saved.body.data.conversation.at(-1).content, 'All four made.');
    assert.is(saved.body.data.message_count, 1 + 4 * 2 + 1);
  });

  test('continue: 404 unknown, 403 another user, 400 for a bad body; a session stopped by a provider error can be continued', async ({
    t,
    openai,
  }) => {
    assert.is((await t.request<Body>('POST', '/chat/continue', { body: { session_id: 'abc-0' } })).body.code, 'session_not_found');
    assert.is((await t.request<Body>('POST', '/chat/continue', { body: {} })).status, 400);
    assert.is((await t.request<Body>('POST', '/chat/continue', { body: { session_id: 'NOT HEX' } })).status, 400);
    openai.script.push(errorReply('openai', 400, 'Bad day'));
    const failed = await t.request<Body>('POST', '/chat', { body: { message: 'try' } });
    assert.is(failed.status, 502);
    const id = failed.body.data.session_id;
    const other = await t.createUser('continue-other', 'administrator');
    const denied = await t.request<Body>('POST', '/chat/continue', { as: other, body: { session_id: id } });
    assert.is(denied.status, 403);
    assert.is(denied.body.code, 'session_access_denied');
    openai.script.push(textReply('openai', 'Better now.'));
    const resumed = await t.request<Body>('POST', '/chat/continue', { body: { session_id: id } });
    assert.is(resumed.status, 200, JSON.stringify(resumed.body));
    assert.is(resumed.body.data.completed, true);
    assert.equal(
      resumed.body.conversation.map((m: Body) => m.content),
      ['try', 'Better now.'],
    );
  });

  test('X-Request-ID: a retry gets the first answer without calling the model or a tool again', async ({ t, openai }) => {
    openai.script.push(
      toolCallReply('openai', 'i1', 'create_pipeline', { name: 'Once only', steps: ['fetch'] }),
      textReply('openai', 'Made it.'),
    );
    const headers = { 'X-Request-ID': 'req-0001-abc' };
    const first = await t.request<Body>('POST', '/chat', { headers, body: { message: 'Make one pipeline' } });
    assert.is(first.status, 200, JSON.stringify(first.body));
    const calls = openai.chats().length;
    const sessions = (await t.request<Body>('GET', '/chat/sessions')).body.data.total;
    const again = await t.request<Body>('POST', '/chat', { headers, body: { message: 'Make one pipeline' } });
    assert.is(again.status, 200, JSON.stringify(again.body));
    assert.equal(again.body, first.body);
    assert.is(again.headers.get('x-request-replayed'), 'true');
    assert.is(openai.chats().length, calls, 'the model was not called again');
    assert.is((await t.request<Body>('GET', '/chat/sessions')).body.data.total, sessions);
    const pipelines = (await t.request<Body>('GET', '/pipelines', { query: { per_page: 100 } })).body;
    assert.is(JSON.stringify(pipelines).match(/"Once only"/g)?.length, 1, 'the tool ran once');

    // The same id with another body, or on the other route: 422.
    const reused = await t.request<Body>('POST', '/chat', { headers, body: { message: 'Something else' } });
    assert.is(reused.status, 422);
    assert.is(reused.body.code, 'request_id_reused');
    assert.is(
      (await t.request<Body>('POST', '/chat/continue', { headers, body: { session_id: first.body.session_id } })).body.code,
      'request_id_reused',
    );
    // Malformed ids.
    for (const bad of ['has spaces in it', 'x'.repeat(129), 'quote"d']) {
      const res = await t.request<Body>('POST', '/chat', { headers: { 'X-Request-ID': bad }, body: { message: 'hi' } });
      assert.is(res.status, 400, bad);
      assert.is(res.body.code, 'invalid_request_id');
    }
    assert.is(openai.chats().length, calls);
    // Ids are per user: another user's same id runs.
    const other = await t.createUser('idem-other', 'administrator');
    openai.script.push(textReply('openai', 'Hello other.'));
    const theirs = await t.request<Body>('POST', '/chat', { as: other, headers, body: { message: 'Make one pipeline' } });
    assert.is(theirs.status, 200);
    assert.is(theirs.body.response, 'Hello other.');
    assert.is.not(theirs.body.session_id, first.body.session_id);
  });

  test('X-Request-ID: a retry while the first runs is 409 request_in_progress; a failed request frees its id; expired ids run again', async ({
    t,
    openai,
  }) => {
    const gate = gated(textReply('openai', 'Slow answer.'));
    openai.script.push(gate.scripted);
    const headers = { 'X-Request-ID': 'slow-1' };
    const running = t.request<Body>('POST', '/chat', { headers, body: { message: 'slow' } });
    await gate.reached;
    const busy = await t.request<Body>('POST', '/chat', { headers, body: { message: 'slow' } });
    assert.is(busy.status, 409);
    assert.is(busy.body.code, 'request_in_progress');
    gate.open();
    const first = await running;
    assert.is(first.status, 200);
    assert.equal((await t.request<Body>('POST', '/chat', { headers, body: { message: 'slow' } })).body, first.body);

    openai.script.push(errorReply('openai', 400, 'Nope'));
    const failHeaders = { 'X-Request-ID': 'fails-then-works' };
    const failed = await t.request<Body>('POST', '/chat', { headers: failHeaders, body: { message: 'retry me' } });
    assert.is(failed.status, 502);
    openai.script.push(textReply('openai', 'Worked.'));
    const retried = await t.request<Body>('POST', '/chat', { headers: failHeaders, body: { message: 'retry me' } });
    assert.is(retried.status, 200, JSON.stringify(retried.body));
    assert.is(retried.body.response, 'Worked.');

    // After 24 hours the id is forgotten: the same request runs again.
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    const calls = openai.chats().length;
    openai.script.push(textReply('openai', 'Fresh.'));
    const fresh = await t.request<Body>('POST', '/chat', { headers, body: { message: 'slow' } });
    assert.is(fresh.body.response, 'Fresh.');
    assert.is(openai.chats().length, calls + 1);
  });

  test('X-Request-ID on /chat/continue: the retry runs nothing', async ({ t, openai }) => {
    openai.script.push(
      toolCallReply('openai', 'k1', 'create_pipeline', { name: 'K1', steps: ['fetch'] }),
      toolCallReply('openai', 'k2', 'create_pipeline', { name: 'K2', steps: ['fetch'] }),
    );
    const id = (await t.request<Body>('POST', '/chat', { body: { message: 'two' } })).body.session_id;
    openai.script.push(textReply('openai', 'Done.'));
    const headers = { 'X-Request-ID': 'cont-1' };
    const first = await t.request<Body>('POST', '/chat/continue', { headers, body: { session_id: id } });
    assert.is(first.status, 200);
    const calls = openai.chats().length;
    const again = await t.request<Body>('POST', '/chat/continue', { headers, body: { session_id: id } });
    assert.is(again.status, 200, 'a replay, not 409 nothing_to_continue');
    assert.equal(again.body.data, first.body.data);
    assert.is(openai.chats().length, calls);
  });

  test('two requests on one session: the second is 409 session_busy; a lease left behind expires after 2 minutes', async ({
    t,
    openai,
  }) => {
    openai.script.push(textReply('openai', 'Ready.'));
    const id = (await t.request<Body>('POST', '/chat', { body: { message: 'start' } })).body.session_id;
    const gate = gated(textReply('openai', 'First done.'));
    openai.script.push(gate.scripted);
    const running = t.request<Body>('POST', '/chat', { body: { message: 'first', session_id: id } });
    await gate.reached;
    const calls = openai.chats().length;
    for (const [path, body] of [
      ['/chat', { message: 'second', session_id: id }],
      ['/chat/continue', { session_id: id }],
    ] as const) {
      const busy = await t.request<Body>('POST', path, { body });
      assert.is(busy.status, 409, JSON.stringify(busy.body));
      assert.is(busy.body.code, 'session_busy');
      assert.is(busy.body.data.session_id, id);
      assert.match(busy.body.message, /answering another request/);
    }
    assert.is(openai.chats().length, calls, 'the busy requests sent nothing');
    // Reading and listing are not blocked.
    assert.is((await t.request<Body>('GET', `/chat/${id}`)).status, 200);
    gate.open();
    assert.is((await running).status, 200);
    openai.script.push(textReply('openai', 'Second done.'));
    const after = await t.request<Body>('POST', '/chat', { body: { message: 'second', session_id: id } });
    assert.is(after.status, 200, 'the lease was released');
    assert.equal(
      after.body.conversation.map((m: Body) => m.content),
      ['start', 'Ready.', 'first', 'First done.', 'second', 'Second done.'],
    );

    // A host that crashed mid-request leaves its lease: it is taken over once expired.
    const sessions = t.host.store.collection('chat__sessions');
    await sessions.updateOne(
      { _id: id },
      { $set: { lease_owner: 'crashed-host', lease_until: new Date(t.clock.now().getTime() + 120_000) } },
    );
    assert.is((await t.request<Body>('POST', '/chat', { body: { message: 'blocked', session_id: id } })).body.code, 'session_busy');
    t.clock.advance(120_001);
    openai.script.push(textReply('openai', 'Recovered.'));
    const recovered = await t.request<Body>('POST', '/chat', { body: { message: 'again', session_id: id } });
    assert.is(recovered.status, 200, JSON.stringify(recovered.body));
    assert.is(recovered.body.response, 'Recovered.');
    const stored = await sessions.findOne({ _id: id });
    assert.is(stored!.lease_owner, undefined, 'released after the request');
  });

  test('a 500-message session is trimmed: at most 200 model messages sent and kept, no tool result without its call, 200 display messages', async ({
    t,
    openai,
  }) => {
    openai.script.push(textReply('openai', 'Seed.'));
    const id = (await t.request<Body>('POST', '/chat', { body: { message: 'seed' } })).body.session_id;
    const sessions = t.host.store.collection('chat__sessions');
    const messages: Body[] = [];
    const conversation: Body[] = [];
    for (let i = 0; messages.length < 500; i++) {
      messages.push({ role: 'user', content: `question ${i}` });
      messages.push({
        role: 'response',
        message: {
          role: 'assistant',
          content: [{ type: 'tool-call', toolCallId: `old_${i}`, toolName: 'create_pipeline', input: { name: `n${i}` } }],
        },
      });
      messages.push({ role: 'tool', toolCallId: `old_${i}`, toolName: 'create_pipeline', output: { success: false, error: 'old' } });
      messages.push({ role: 'response', message: { role: 'assistant', content: [{ type: 'text', text: `answer ${i}` }] } });
      conversation.push({ role: 'user', content: `question ${i}`, metadata: { type: 'text', timestamp: '2026-01-01T00:00:00.000Z' } });
      conversation.push({ role: 'assistant', content: `answer ${i}`, metadata: { type: 'text', timestamp: '2026-01-01T00:00:00.000Z' } });
    }
    while (conversation.length < 500)
      conversation.push({ role: 'assistant', content: 'filler', metadata: { type: 'text', timestamp: '2026-01-01T00:00:00.000Z' } });
    await sessions.updateOne({ _id: id }, { $set: { messages, conversation, message_count: 500 } });

    openai.script.push(textReply('openai', 'Trimmed.'));
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'latest', session_id: id } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const sent = messagesSent(openai.chats().at(-1)!).filter((m) => m.role !== 'system');
    assert.ok(sent.length <= 200, `sent ${sent.length}`);
    assert.ok(sent.length >= 150, `sent ${sent.length}: trimmed too much`);
    assert.is(sent[0].role, 'user');
    assert.is(sent.at(-1)!.content, 'latest');
    const callIds = new Set(sent.flatMap((m) => (m.tool_calls ?? []).map((c: Body) => c.id)));
    for (const m of sent.filter((x) => x.role === 'tool'))
      assert.ok(callIds.has(m.tool_call_id), `tool result ${m.tool_call_id} without its call`);
    assert.ok(!sent.some((m) => m.content === 'question 0'), 'the oldest are gone');
    const stored = await sessions.findOne({ _id: id });
    assert.ok((stored!.messages as Body[]).length <= 200);
    assert.is((stored!.conversation as Body[]).length, 200);
    assert.is(res.body.conversation.length, 200);
    assert.is(res.body.metadata.message_count, 200);
    assert.is(res.body.conversation.at(-1).content, 'Trimmed.');
  });

  test('the display conversation is also bounded in characters: 150 messages of 5,000 characters keep the newest 400,000', async ({
    t,
    openai,
  }) => {
    openai.script.push(textReply('openai', 'Seed.'));
    const id = (await t.request<Body>('POST', '/chat', { body: { message: 'seed' } })).body.session_id;
    const conversation = Array.from({ length: 150 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      content: `${i}:${'y'.repeat(5000)}`,
      metadata: { type: 'text', timestamp: '2026-01-01T00:00:00.000Z' },
    }));
    await t.host.store.collection('chat__sessions').updateOne({ _id: id }, { $set: { conversation } });
    openai.script.push(textReply('openai', 'Short.'));
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'latest', session_id: id } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    const kept = res.body.conversation as Body[];
    assert.ok(JSON.stringify(kept).length <= 400_000 + 2 * kept.length, `kept ${JSON.stringify(kept).length} characters`);
    assert.ok(kept.length >= 70 && kept.length < 152, `kept ${kept.length}`);
    assert.equal(
      kept.slice(-2).map((m) => m.content),
      ['latest', 'Short.'],
    );
    assert.ok(!kept.some((m) => m.content.startsWith('0:')), 'the oldest went first');
  });

  test('a huge tool result is cut to a preview before the model, the session or the answer see it', async ({ t, openai }) => {
    openai.script.push(toolCallReply('openai', 'b1', 'big_dump', {}), (request) => {
      const tool = messagesSent(request).findLast((m) => m.role === 'tool')!;
      assert.ok(tool.content.length < 17_000, `sent ${tool.content.length} characters`);
      const out = JSON.parse(tool.content);
      assert.is(out.result.truncated, true);
      assert.ok(out.result.original_chars > 100_000);
      return textReply('openai', 'Big.');
    });
    const res = await t.request<Body>('POST', '/chat', { body: { message: 'dump' } });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.is(res.body.tool_calls[0].result.truncated, true);
    assert.is(res.body.tool_calls[0].result.preview.length, 16_000);
    const stored = await t.host.store.collection('chat__sessions').findOne({ _id: res.body.session_id });
    assert.ok(JSON.stringify(stored).length < 60_000, `stored ${JSON.stringify(stored).length} characters`);
  });

  test('an editor gets 403 rest_forbidden from every chat route and nothing reaches the provider', async ({ t, openai }) => {
    openai.script.push(textReply('openai', 'Mine.'));
    const id = (await t.request<Body>('POST', '/chat', { body: { message: 'admin only' } })).body.session_id;
    const editor = await t.createUser('chat-ed', 'editor');
    const calls = openai.chats().length;
    const tries: Array<[string, string, unknown?]> = [
      ['POST', '/chat', { message: 'hi' }],
      ['POST', '/chat', { message: 'hi', session_id: id }],
      ['POST', '/chat/continue', { session_id: id }],
      ['GET', '/chat/sessions'],
      ['GET', `/chat/${id}`],
      ['DELETE', `/chat/${id}`],
    ];
    for (const [method, path, body] of tries) {
      const res = await t.request<Body>(method, path, { as: editor, ...(body ? { body } : {}) });
      assert.is(res.status, 403, `${method} ${path}`);
      assert.is(res.body.code, 'rest_forbidden', `${method} ${path}`);
    }
    assert.is(openai.chats().length, calls);
    assert.is((await t.request<Body>('GET', `/chat/${id}`)).status, 200, 'not deleted');
  });

  test.run();
}
