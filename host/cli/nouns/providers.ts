import type { Argv } from 'yargs';
import { jsonOption, readKeyFromStdin, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

interface ProviderView {
  label: string;
  configured: boolean;
  models: string[];
}

/** `flowhost providers ...`: AI providers, their keys and a key check, through the API. */
export const providers: CliNoun = {
  ...nounHeader('providers'),
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Providers, whether each has a key, and their models',
        (c) => c.options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) =>
            api.call<{ data: { providers: Record<string, ProviderView>; defaults: { provider: string; model: string } } }>(
              'GET',
              '/providers',
            ),
          );
          if (argv.json) return printJson(body.data);
          printRows(
            Object.entries(body.data.providers).map(([slug, p]) => ({
              slug,
              label: p.label,
              configured: p.configured ? 'yes' : 'no',
              models: p.models.length,
              first_models: p.models.slice(0, 3).join(', ') + (p.models.length > 3 ? ', ...' : ''),
            })),
          );
          console.log(`Default: ${body.data.defaults.provider || '-'} ${body.data.defaults.model || ''}`.trimEnd());
        },
      )
      .command(
        'set-key <slug>',
        "Save a provider's API key, read from standard input (sealed at rest); an empty key removes it with --clear",
        (c) =>
          c
            .positional('slug', { type: 'string', demandOption: true })
            .option('clear', { type: 'boolean', default: false, describe: 'Remove the key instead' })
            .options(jsonOption),
        async (argv) => {
          const key = argv.clear ? '' : readKeyFromStdin('printenv OPENAI_API_KEY | flowhost providers set-key openai');
          const body = await withApi(argv, (api) =>
            api.call<{ data: { settings: { ai_provider_keys: Record<string, string> } } }>('PUT', '/settings', {
              body: { ai_provider_keys: { [argv.slug]: key } },
            }),
          );
          const masked = body.data.settings.ai_provider_keys[argv.slug] ?? '';
          if (argv.json) printJson({ provider: argv.slug, key: masked });
          else console.log(argv.clear ? `Removed the ${argv.slug} key` : `Saved the ${argv.slug} key (${masked})`);
        },
      )
      .command(
        'test <slug>',
        "Check a provider's key with a cheap call; prints the provider's own message when it refuses (exit code 1)",
        (c) => c.positional('slug', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const body = await withApi(argv, (api) =>
            api.call<{ data: { provider: string; ok: boolean; code?: string; message: string } }>(
              'POST',
              `/providers/${encodeURIComponent(argv.slug)}/test`,
            ),
          );
          if (argv.json) printJson(body.data);
          else console.log(body.data.message);
          if (!body.data.ok) process.exitCode = 1;
        },
      )
      .demandCommand(1, 'Name a verb: list, set-key or test')
      .strict(),
};
