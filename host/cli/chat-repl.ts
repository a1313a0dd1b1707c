import { randomUUID } from 'node:crypto';
import { createInterface } from 'node:readline/promises';
import type { Readable, Writable } from 'node:stream';
import { CliError } from './admin-client.js';
import type { ApiSession } from './api-session.js';
import { answerLines, type ChatAnswer } from './chat-view.js';

export interface ChatTarget {
  session?: string;
  provider?: string;
  model?: string;
}

/**
 * One POST /chat (or /chat/continue) as the CLI sends it: agent type `cli`, and a fresh
 * X-Request-ID, so a retry of this very request could never run twice.
 */
export function sendChat(api: ApiSession, target: ChatTarget, message: string | null): Promise<ChatAnswer> {
  const headers = { 'X-Request-ID': randomUUID() };
  const choice = { ...(target.provider ? { provider: target.provider } : {}), ...(target.model ? { model: target.model } : {}) };
  if (message === null) {
    if (!target.session) throw new CliError('--continue needs --session <id>');
    return api.call<ChatAnswer>('POST', '/chat/continue', { headers, body: { session_id: target.session, ...choice } });
  }
  return api.call<ChatAnswer>('POST', '/chat', {
    headers,
    body: { message, agent_type: 'cli', ...(target.session ? { session_id: target.session } : {}), ...choice },
  });
}

/**
 * The interactive loop: a line is a message; `/continue` goes on after a stop at the turn
 * limit; `/exit` (or end of input) ends. After each answer its tool calls are printed, one
 * line each (name, arguments, ok or error), then the answer. An error (e.g. session_busy)
 * is printed and the loop goes on.
 */
export async function chatRepl(api: ApiSession, target: ChatTarget, input: Readable, output: Writable): Promise<string | undefined> {
  const rl = createInterface({ input, output, terminal: Boolean((input as { isTTY?: boolean }).isTTY) });
  const say = (line: string) => output.write(`${line}\n`);
  say(
    target.session
      ? `Resuming chat session ${target.session}. /exit to leave.`
      : 'Flowhost chat. /continue after a stop at the turn limit, /exit to leave.',
  );
  // Lines are read through the async iterator, which queues what arrives while a request
  // runs (rl.question would drop lines typed or piped ahead).
  rl.setPrompt('you> ');
  // Input may end (piped lines, Ctrl-D) while a request runs; the lines already read still
  // come through the iterator, but Node 22+ throws on prompting a closed interface.
  let closed = false;
  rl.once('close', () => (closed = true));
  const prompt = () => {
    if (!closed) rl.prompt();
  };
  prompt();
  try {
    for await (const raw of rl) {
      const line = raw.trim();
      if (line === '/exit' || line === '/quit') break;
      if (line) {
        try {
          const answer = await sendChat(api, target, line === '/continue' ? null : line);
          target.session = answer.session_id;
          for (const out of answerLines(answer, 'type /continue')) say(out);
        } catch (error) {
          say(`error: ${(error as Error).message}`);
        }
      }
      prompt();
    }
  } finally {
    rl.close();
  }
  if (target.session) say(`Session ${target.session}`);
  return target.session;
}
