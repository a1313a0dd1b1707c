import type { Argv } from 'yargs';
import { CliError } from '../admin-client.js';
import { jsonOption, readKeyFromStdin, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson } from '../output.js';
import { nounHeader } from './catalogue.js';

type WebSearch = { configured: boolean; base_url: string; api_key: string };

/** `flowhost tools ...`: the assistant's tools that need configuring (GET/PUT /tools/web-search, the global-tools plugin). */
export const tools: CliNoun = {
  ...nounHeader('tools'),
  builder: (y: Argv) =>
    y
      .command(
        'web-search [action]',
        'The web_search tool: show whether it is configured (key masked), or set its API key read from standard input (set --clear removes it)',
        (c) =>
          c
            .positional('action', { choices: ['show', 'set'] as const, default: 'show' as const, describe: 'show (the default) or set' })
            .option('clear', { type: 'boolean', default: false, describe: 'With set: remove the saved key instead' })
            .options(jsonOption),
        async (argv) => {
          if (argv.clear && argv.action !== 'set') throw new CliError('--clear goes with set: flowhost tools web-search set --clear');
          // The key comes from stdin, never argv: it would sit in the shell history and `ps`.
          const key =
            argv.action === 'set' && !argv.clear ? readKeyFromStdin('printenv BRAVE_API_KEY | flowhost tools web-search set') : undefined;
          const res = await withApi(argv, (api) =>
            argv.action === 'set'
              ? api.call<{ message: string; data: WebSearch }>('PUT', '/tools/web-search', { body: { api_key: key ?? '' } })
              : api.call<{ message?: string; data: WebSearch }>('GET', '/tools/web-search'),
          );
          const d = res.data;
          if (argv.json) {
            printJson(d);
            return;
          }
          if (argv.action === 'set')
            console.log(
              argv.clear
                ? `Removed the web search key${d.configured ? ` (the key from the configuration, ${d.api_key}, is still used)` : ''}`
                : `Saved the web search key (${d.api_key})`,
            );
          else
            console.log(
              d.configured
                ? `web_search: configured (key ${d.api_key}; ${d.base_url})`
                : 'web_search: not configured (flowhost tools web-search set < key.txt)',
            );
        },
      )
      .demandCommand(1, 'Name a verb: web-search')
      .strict(),
};
