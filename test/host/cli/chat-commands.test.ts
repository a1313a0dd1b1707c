// `flowhost chat` on every store, in process against a host on the data directory and a
// fake OpenAI API: one message with --json or as text (tool calls listed with their
// outcome), --session, a stop at the turn limit and --continue, sessions / show / delete,
// and the prompt loop fed from a stream.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { PassThrough, Readable } from 'node:stream';
import { runCliAsync } from '../../support/host-process.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import type { Host } from '../../../host/host.js';
import { loadConfig } from '../../../host/config/load-config.js';
import { openApiSession } from '../../../host/cli/api-session.js';
import { chatRepl } from '../../../host/cli/chat-repl.js';
import { readHostFile } from '../../../host/runtime/data-dir-files.js';
import { testStores } from '../../support/test-stores.js';
import { createFakeModelApi, pluginSettingsFor, textReply, toolCallReply, type FakeModelApi } from '../../support/fake-model-apis.js';

(globalThis as { AI_SDK_LOG_WARNINGS?: boolean }).AI_SDK_LOG_WARNINGS = false;

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

for (const store of testStores('cli: chat')) {
  type Ctx = { host: Host; dataDir: string; openai: FakeModelApi; sessionId: string };
  const test = suite<Ctx>(`cli: flowhost chat (${store.label})`);
  const run = (ctx: Ctx, args: string[]) => cliInProcess([...args, '--data-dir', ctx.dataDir]);
  const json = async (ctx: Ctx, args: string[]) => {
    const res = await run(ctx, [...args, '--json']);
    assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
    return JSON.parse(res.stdout) as Body;
  };

  test.before(async (ctx) => {
    ctx.openai = await createFakeModelApi('openai');
    Object.assign(
      ctx,
      await startCliHost({
        ...store.config(),
        pluginSettings: pluginSettingsFor([ctx.openai], { max_retries: 0 }),
      }),
    );
    const info = readHostFile(ctx.dataDir)!;
    const res = await fetch(`${ctx.host.url}${ctx.host.config.apiPrefix}/${ctx.host.config.coreNamespace}/settings`, {
      method: 'PUT',
      headers: { Authorization: `Flowhost-Local ${info.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ ai_provider_keys: { openai: ctx.openai.validKey }, max_turns: 2 }),
    });
    assert.is(res.status, 200, await res.text());
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    await ctx.openai.server.close();
  });

  test('--message --json prints the POST /chat answer; the request is a cli one', async (ctx) => {
    ctx.openai.script.push(
      toolCallReply('openai', 'k1', 'create_pipeline', { name: 'From the CLI', steps: ['fetch'] }),
      textReply('openai', 'Pipeline made.'),
    );
    const answer = await json(ctx, ['chat', '--message', 'Make a pipeline called From the CLI']);
    assert.match(answer.session_id, /^[a-f0-9-]+$/);
    assert.is(answer.response, 'Pipeline made.');
    assert.is(answer.data.completed, true);
    assert.is(answer.tool_calls[0].function.name, 'create_pipeline');
    assert.ok(answer.tool_calls[0].result.pipeline_id >= 1);
    const sent = ctx.openai.chats().at(-1)!.json<Body>();
    assert.match(sent.messages[0].content, /command-line user/);
    ctx.sessionId = answer.session_id;
    const sessions = await json(ctx, ['chat', 'sessions']);
    const mine = sessions.sessions.find((s: Body) => s.session_id === ctx.sessionId);
    assert.equal([mine.agent_type, mine.title], ['cli', 'Make a pipeline called From the CLI']);
  });

  test('text output lists each tool call with its arguments and outcome; a stop at the limit says how to continue', async (ctx) => {
    ctx.openai.script.push(
      toolCallReply('openai', 'k2', 'run_flow', { flow_id: 999999 }),
      toolCallReply('openai', 'k3', 'create_pipeline', { name: 'Second', steps: ['publish'] }),
    );
    const res = await run(ctx, ['chat', '--session', ctx.sessionId, '--message', 'Run flow 999999 then make another']);
    assert.is(res.status, 0, res.stderr);
    assert.match(res.stdout, /\[turn 1\] run_flow \{"flow_id":999999\} -> error: .*999999/);
    assert.match(res.stdout, /\[turn 2\] create_pipeline \{"name":"Second","steps":\["publish"\]\} -> ok/);
    assert.match(res.stdout, new RegExp(`stopped at the turn limit after 2 turns: flowhost chat --session ${ctx.sessionId} --continue`));
    assert.match(res.stdout, new RegExp(`Session ${ctx.sessionId}`));

    ctx.openai.script.push(textReply('openai', 'Both done.'));
    const next = await json(ctx, ['chat', '--session', ctx.sessionId, '--continue']);
    assert.is(next.data.completed, true);
    assert.equal(
      next.data.new_messages.map((m: Body) => m.content),
      ['Both done.'],
    );
    const again = await run(ctx, ['chat', '--session', ctx.sessionId, '--continue']);
    assert.is(again.status, 1);
    assert.match(again.stderr, /ended with the assistant's answer/);
  });

  test('show prints the conversation; delete removes it; unknown ids are errors', async (ctx) => {
    const shown = await run(ctx, ['chat', 'show', ctx.sessionId]);
    assert.is(shown.status, 0, shown.stderr);
    assert.match(shown.stdout, /^Session [a-f0-9-]+ "Make a pipeline called From the CLI" \(openai [\w.-]+, \d+ messages\)/, shown.stdout);
    assert.match(shown.stdout, /user: Make a pipeline called From the CLI/);
    assert.match(shown.stdout, /tool: create_pipeline \{"name":"From the CLI","steps":\["fetch"\]\} -> ok/);
    assert.match(shown.stdout, /tool: run_flow \{"flow_id":999999\} -> error/);
    assert.match(shown.stdout, /assistant: Both done\./);
    const detail = await json(ctx, ['chat', 'show', ctx.sessionId]);
    assert.is(detail.conversation.at(-1).content, 'Both done.');
    const table = await run(ctx, ['chat', 'sessions']);
    assert.match(table.stdout, /SESSION_ID\s+UPDATED\s+MESSAGES\s+AGENT\s+TITLE/);
    assert.match(table.stdout, new RegExp(`${ctx.sessionId}\\s+\\S+ \\S+\\s+\\d+\\s+cli\\s+Make a pipeline`));
    assert.equal(await json(ctx, ['chat', 'delete', ctx.sessionId, '--yes']), { deleted: true, session_id: ctx.sessionId });
    const gone = await run(ctx, ['chat', 'show', ctx.sessionId]);
    assert.is(gone.status, 1);
    assert.match(gone.stderr, /No chat session/);
    const bad = await run(ctx, ['chat', '--continue']);
    assert.is(bad.status, 1);
    assert.match(bad.stderr, /--continue needs --session/);
  });

  test('the prompt loop: each line is a message in one session, tool calls shown after each turn, /continue, /exit', async (ctx) => {
    ctx.openai.script.push(
      toolCallReply('openai', 'r1', 'create_pipeline', { name: 'Loop one', steps: ['fetch'] }),
      textReply('openai', 'Made Loop one.'),
      toolCallReply('openai', 'r2', 'create_pipeline', { name: 'Loop two', steps: ['fetch'] }),
      toolCallReply('openai', 'r3', 'create_pipeline', { name: 'Loop three', steps: ['fetch'] }),
      textReply('openai', 'Finished.'),
    );
    const api = await openApiSession(loadConfig({ env: {}, overrides: { dataDir: ctx.dataDir, logLevel: 'warn' } }));
    const output = new PassThrough();
    let printed = '';
    output.on('data', (d: Buffer) => (printed += d.toString()));
    const input = Readable.from(['make loop one\n', '\n', 'make two and three\n', '/continue\n', '/exit\n', 'never sent\n']);
    const session = await chatRepl(api, {}, input, output);
    await api.close();
    assert.is(api.via, 'host', 'the loop talked to the running host');
    assert.match(printed, /\[turn 1\] create_pipeline \{"name":"Loop one","steps":\["fetch"\]\} -> ok\nMade Loop one\./);
    assert.match(printed, /stopped at the turn limit after 2 turns: type \/continue/, printed);
    assert.match(printed, /Finished\./);
    assert.not.match(printed, /never sent/);
    const detail = await json(ctx, ['chat', 'show', session!]);
    assert.equal(
      detail.conversation.filter((m: Body) => m.role === 'user').map((m: Body) => m.content),
      ['make loop one', 'make two and three'],
    );
    assert.is(detail.agent_type, 'cli');
    assert.is(ctx.openai.script.length, 0);
  });

  test.run();
}

// Spawned once (the real binary, the real stdin): a message piped in, the answer as JSON. The
// CLI reaches a host this process runs (by host.json), so the child boots no host of its own;
// the key and the empty-stdin refusal are in process.
const spawned = suite<{ openai: FakeModelApi; host: Host; dataDir: string }>('cli: flowhost chat, spawned, message on stdin');
spawned.before(async (ctx) => {
  ctx.openai = await createFakeModelApi('openai');
  Object.assign(ctx, await startCliHost({ pluginSettings: pluginSettingsFor([ctx.openai], { max_retries: 0 }) }));
});
spawned.after(async (ctx) => {
  await ctx.host.stop();
  await ctx.openai.server.close();
});
spawned('a message piped on stdin is sent once and --json prints the answer', async ({ openai, dataDir }) => {
  const key = await cliInProcess(['providers', 'set-key', 'openai', '--data-dir', dataDir], { stdin: `${openai.validKey}\n` });
  assert.is(key.status, 0, key.stderr);
  openai.script.push(textReply('openai', 'Piped answer.'));
  // Asynchronous: the host and the fake API answer from this process while the CLI runs.
  const res = await runCliAsync(['chat', '--json', '--data-dir', dataDir], { FLOWHOST_LOG_LEVEL: 'warn' }, 'What can you do?\n');
  assert.is(res.status, 0, res.stderr);
  const answer = JSON.parse(res.stdout) as Body;
  assert.is(answer.response, 'Piped answer.');
  assert.equal(
    answer.conversation.map((m: Body) => m.content),
    ['What can you do?', 'Piped answer.'],
  );
  assert.is(openai.chats().length, 1);
  const empty = await cliInProcess(['chat', '--data-dir', dataDir], { stdin: '' });
  assert.is(empty.status, 1);
  assert.match(empty.stderr, /No message: give one with --message/);
});
spawned.run();
