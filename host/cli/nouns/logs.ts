import type { Argv } from 'yargs';
import { jsonOption, sleep, withApi, type CliNoun } from '../cli-runtime.js';

/** `flowhost logs ...`: the stored log, through the API. */
export const logs: CliNoun = {
  noun: 'logs',
  command: 'logs <verb>',
  describe: 'Read the log',
  builder: (y: Argv) =>
    y
      .command(
        'tail',
        'The newest log entries; --follow keeps printing new ones',
        (c) =>
          c
            .option('level', { choices: ['debug', 'info', 'warning', 'error', 'critical'] as const, describe: 'Only this level' })
            .option('lines', { type: 'number', default: 20, describe: 'How many entries to show first' })
            .option('follow', { type: 'boolean', default: false, describe: 'Keep printing new entries (Ctrl-C to stop)' })
            .options(jsonOption),
        async (argv) => {
          await withApi(argv, async (api) => {
            type Entry = { id: number; level: string; message: string; created_at: string; context: Record<string, unknown> };
            const page = async (perPage: number) => (await api.call<{ items: Entry[] }>('GET', '/logs', { query: { level: argv.level, per_page: perPage, page: 1 } })).items;
            const print = (entries: Entry[]) => {
              for (const e of [...entries].reverse()) {
                if (argv.json) process.stdout.write(`${JSON.stringify(e)}\n`);
                else process.stdout.write(`${e.created_at}  ${e.level.padEnd(8)} ${e.message}${Object.keys(e.context ?? {}).length ? `  ${JSON.stringify(e.context)}` : ''}\n`);
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
      .demandCommand(1, 'Name a verb: tail')
      .strict(),
};
