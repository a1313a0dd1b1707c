import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, sleep, withApi, type CliNoun } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson } from '../output.js';
import { nounHeader } from './catalogue.js';

type LogMetadata = { total_entries: number; oldest: string | null; newest: string | null };

/** --agent: the API's agent_id (0 or more); absent means every agent. */
const agentOption = (c: Argv, describe: string) => c.option('agent', { type: 'number', describe });

/** `flowhost logs ...`: the stored log, through the API. */
export const logs: CliNoun = {
  ...nounHeader('logs'),
  builder: (y: Argv) =>
    y
      .command(
        'tail',
        'The newest log entries, oldest first; --follow keeps printing new ones; --json prints one JSON object per line (JSON Lines)',
        (c) =>
          c
            .option('level', { choices: ['debug', 'info', 'warning', 'error', 'critical'] as const, describe: 'Only this level' })
            .option('lines', { type: 'number', default: 20, describe: 'How many entries to show first' })
            .option('follow', { type: 'boolean', default: false, describe: 'Keep printing new entries (Ctrl-C to stop)' })
            .options(jsonOption),
        async (argv) => {
          if (!Number.isSafeInteger(argv.lines) || argv.lines < 1) throw new CliError('--lines must be a whole number from 1 to 500');
          await withApi(argv, async (api) => {
            type Entry = { id: number; level: string; message: string; created_at: string; context: Record<string, unknown> };
            const page = async (perPage: number) =>
              (await api.call<{ items: Entry[] }>('GET', '/logs', { query: { level: argv.level, per_page: perPage, page: 1 } })).items;
            const print = (entries: Entry[]) => {
              for (const e of [...entries].reverse()) {
                if (argv.json) process.stdout.write(`${JSON.stringify(e)}\n`);
                else
                  process.stdout.write(
                    `${e.created_at}  ${e.level.padEnd(8)} ${e.message}${Object.keys(e.context ?? {}).length ? `  ${JSON.stringify(e.context)}` : ''}\n`,
                  );
              }
            };
            let entries = await page(Math.max(1, Math.min(500, argv.lines)));
            print(entries);
            let lastId = entries[0]?.id ?? 0;
            while (argv.follow) {
              await sleep(1000);
              entries = (await page(100)).filter((e) => e.id > lastId);
              print(entries);
              if (entries[0]) lastId = entries[0].id;
            }
          });
        },
      )
      .command(
        'metadata',
        'How many entries the log holds, and the oldest and newest time',
        (c) => agentOption(c, 'Only the entries of this agent (default: all)').options(jsonOption),
        async (argv) => {
          const meta = await withApi(
            argv,
            async (api) => (await api.call<{ data: LogMetadata }>('GET', '/logs/metadata', { query: { agent_id: argv.agent } })).data,
          );
          if (argv.json) printJson(meta);
          else
            console.log(
              `${meta.total_entries} log ${meta.total_entries === 1 ? 'entry' : 'entries'}${argv.agent !== undefined ? ` of agent ${argv.agent}` : ''}${meta.total_entries ? `, ${meta.oldest} to ${meta.newest} (UTC)` : ''}`,
            );
        },
      )
      .command(
        'clear',
        'Delete every log entry, or those of one --agent (asks first; --yes to skip)',
        (c) => agentOption(c, 'Only the entries of this agent').options({ ...yesOption, ...jsonOption }),
        async (argv) => {
          const result = await withApi(argv, async (api) => {
            // Counted first, so the question says how much goes (and a refused --agent is named before it).
            const meta = (await api.call<{ data: LogMetadata }>('GET', '/logs/metadata', { query: { agent_id: argv.agent } })).data;
            await confirm(
              argv,
              `Delete ${meta.total_entries} log ${meta.total_entries === 1 ? 'entry' : 'entries'} (${argv.agent === undefined ? 'all agents' : `agent ${argv.agent}`})`,
            );
            return api.call<{ message: string; data: { deleted_count: number } }>('DELETE', '/logs', { query: { agent_id: argv.agent } });
          });
          if (argv.json) printJson({ agent_id: argv.agent ?? null, deleted_count: result.data.deleted_count });
          else console.log(result.message);
        },
      )
      .demandCommand(1, 'Name a verb: tail, metadata or clear')
      .strict(),
};
