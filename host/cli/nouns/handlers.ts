import type { Argv } from 'yargs';
import { jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

type HandlerView = { type: string; label: string; requires_auth: boolean; is_authenticated?: boolean; auth_fields?: string[] };
type SettingsField = { type: unknown; label: string; default: unknown; current_value: unknown };

/** `flowhost handlers ...`: which handlers this build has, for `flows create --handler` and `auth set`. */
export const handlers: CliNoun = {
  ...nounHeader('handlers'),
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Handlers by slug, with step type and whether credentials are set',
        (c) =>
          c
            .option('type', { type: 'string', choices: ['fetch', 'publish', 'update'], describe: 'Only this step type' })
            .options(jsonOption),
        async (argv) => {
          const data = await withApi(
            argv,
            async (api) =>
              (await api.call<{ data: Record<string, HandlerView> }>('GET', '/handlers', { query: { step_type: argv.type } })).data,
          );
          if (argv.json) printJson(data);
          else
            printRows(
              Object.entries(data).map(([slug, h]) => ({
                slug,
                type: h.type,
                label: h.label,
                credentials: h.requires_auth ? (h.is_authenticated ? 'connected' : 'not connected') : '-',
              })),
            );
        },
      )
      .command(
        'show <slug>',
        'One handler: its settings fields with defaults (names for --set)',
        (c) => c.positional('slug', { type: 'string', demandOption: true }).options(jsonOption),
        async (argv) => {
          const data = await withApi(
            argv,
            async (api) =>
              (
                await api.call<{ data: HandlerView & { slug: string; settings: Record<string, SettingsField> } }>(
                  'GET',
                  `/handlers/${encodeURIComponent(argv.slug)}`,
                )
              ).data,
          );
          if (argv.json) {
            printJson(data);
            return;
          }
          console.log(
            `${data.slug}: ${data.label} (${data.type})${data.requires_auth ? `; credentials: ${(data.auth_fields ?? []).join(', ')} (flowhost auth set)` : ''}`,
          );
          printRows(
            Object.entries(data.settings).map(([key, f]) => ({
              setting: key,
              type: String(f.type),
              default: JSON.stringify(f.default) ?? '',
              label: f.label,
            })),
          );
        },
      )
      .command(
        'step-types',
        'Step types, the handler type each picks, and the settings of those that have their own (approval)',
        (c) => c.options(jsonOption),
        async (argv) => {
          type StepTypeView = { label: string; handler_type: string | null; settings: Record<string, SettingsField> };
          const data = await withApi(
            argv,
            async (api) => (await api.call<{ data: Record<string, StepTypeView> }>('GET', '/step-types')).data,
          );
          if (argv.json) {
            printJson(data);
            return;
          }
          printRows(
            Object.entries(data).flatMap(([type, t]) => {
              const settings = Object.entries(t.settings);
              const base = { type, handler: t.handler_type ?? '-' };
              if (!settings.length) return [{ ...base, setting: '-', default: '' }];
              return settings.map(([key, f]) => ({ ...base, setting: key, default: JSON.stringify(f.default) ?? '' }));
            }),
          );
        },
      )
      .demandCommand(1, 'Name a verb: list, show or step-types')
      .strict(),
};
