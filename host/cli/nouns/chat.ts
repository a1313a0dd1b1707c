import type { Argv } from 'yargs';
import { readFileSync } from 'node:fs';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { CliError } from '../admin-client.js';
import { printJson, printRows } from '../output.js';
import { confirm, yesOption } from '../confirm.js';
import { chatRepl, sendChat } from '../chat-repl.js';
import { answerLines, conversationLines, type ChatMessageView } from '../chat-view.js';
import { nounHeader } from './catalogue.js';

interface SessionSummary {
  session_id: string;
  title: string;
  message_count: number;
  agent_type: string;
  updated_at: string;
}

/** `flowhost chat ...`: talk to the assistant (a prompt on a terminal, or one message) and manage sessions. */
export const chat: CliNoun = {
  ...nounHeader('chat'),
  builder: (y: Argv) =>
    y
      .command(
        '$0',
        'Talk to the assistant (a prompt loop on a terminal; one message with --message or piped on stdin)',
        (c) =>
          c
            .option('message', { alias: 'm', type: 'string', describe: 'Send this one message and exit' })
            .option('session', { type: 'string', describe: 'Resume this session' })
            .option('continue', {
              type: 'boolean',
              default: false,
              describe: 'Run the next turn of --session (after a stop at the turn limit) and exit',
            })
            .option('provider', { type: 'string', describe: 'Provider slug (default: the settings default)' })
            .option('model', { type: 'string', describe: 'Model (default: the settings default)' })
            .options(jsonOption),
        async (argv) => {
          const target = { session: argv.session, provider: argv.provider, model: argv.model };
          let message: string | null | undefined = argv.continue ? null : argv.message;
          if (message === undefined && !process.stdin.isTTY) {
            message = readFileSync(0, 'utf8').trim();
            if (!message) throw new CliError('No message: give one with --message "..." or on standard input');
          }
          if (message === undefined) {
            if (argv.json) throw new CliError('--json needs a message (--message or stdin) or --continue');
            await withApi(argv, (api) => chatRepl(api, target, process.stdin, process.stdout));
            return;
          }
          const answer = await withApi(argv, (api) => sendChat(api, target, message));
          if (argv.json) return printJson(answer);
          for (const line of answerLines(answer, `flowhost chat --session ${answer.session_id} --continue`)) console.log(line);
          console.log(`Session ${answer.session_id}`);
        },
      )
      .command(
        'sessions',
        'Your chat sessions, most recent first',
        (c) => c.option('limit', { type: 'number', default: 20, describe: 'How many (1-100)' }).options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) =>
            api.call<{ data: { sessions: SessionSummary[]; total: number } }>('GET', '/chat/sessions', { query: { limit: argv.limit } }),
          );
          if (argv.json) return printJson(body.data);
          printRows(
            body.data.sessions.map((s) => ({
              session_id: s.session_id,
              updated: s.updated_at.slice(0, 19).replace('T', ' '),
              messages: s.message_count,
              agent: s.agent_type,
              title: s.title,
            })),
          );
          console.log(`${body.data.total} session(s)`);
        },
      )
      .command(
        'show <id>',
        'A session with its conversation',
        (c) => c.positional('id', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) =>
            api.call<{ data: SessionSummary & { provider: string; model: string; conversation: ChatMessageView[] } }>(
              'GET',
              `/chat/${encodeURIComponent(argv.id)}`,
            ),
          );
          if (argv.json) return printJson(body.data);
          console.log(
            `Session ${body.data.session_id} "${body.data.title}" (${body.data.provider} ${body.data.model}, ${body.data.message_count} messages)`,
          );
          for (const line of conversationLines(body.data.conversation)) console.log(line);
        },
      )
      .command(
        'delete <id>',
        'Delete a session (asks first; --yes to skip)',
        (c) => c.positional('id', { type: 'string', demandOption: true }).options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          const body = await withApi(argv, async (api) => {
            // Read first: a missing session is named before anyone is asked.
            await api.call('GET', `/chat/${encodeURIComponent(argv.id)}`);
            await confirm(argv, `Delete chat session ${argv.id}`);
            return api.call<{ data: { deleted: boolean; session_id: string } }>('DELETE', `/chat/${encodeURIComponent(argv.id)}`);
          });
          if (argv.json) return printJson(body.data);
          console.log(`Deleted session ${body.data.session_id}`);
        },
      )
      .strict(),
};
