import { CliError } from '../admin-client.js';
import { withApi, type Common } from '../cli-runtime.js';
import { confirm } from '../confirm.js';
import { printJson, printRows } from '../output.js';
import { parseValue, plain, setPath } from '../step-refs.js';
import { refuseSecretOnArgv, secretSettings } from '../secret-input.js';

type Settings = Record<string, unknown>;
type Answer = { message?: string; data: { handler_slug: string; settings: Settings } };

const show = (v: unknown) => (typeof v === 'object' && v !== null ? JSON.stringify(v) : String(v));

/**
 * --set key=value (repeatable) as a settings object: values parse as flows config --set's do.
 * Secret-named keys come from --set-secret (standard input or a file), never from --set.
 */
function settingsOf(given: unknown, secrets: unknown): Settings {
  const settings: Settings = {};
  for (const raw of given === undefined ? [] : Array.isArray(given) ? given.map(String) : [String(given)]) {
    const at = raw.indexOf('=');
    const key = raw.slice(0, at).trim();
    if (at < 1 || !key || key.split('.').some((part) => !part))
      throw new CliError(`--set '${raw}': expected <key>=<value> (e.g. --set max_items=5)`);
    // null removes a key: that reveals nothing, so a secret may be removed with --set.
    if (raw.slice(at + 1).trim() !== 'null') refuseSecretOnArgv(key);
    setPath(settings, key, parseValue(raw.slice(at + 1)));
  }
  for (const [key, value] of secretSettings(secrets, '--set-secret app_password')) {
    if (key.split('.').some((part) => !part)) throw new CliError(`--set-secret '${key}': the key has an empty part`);
    setPath(settings, key, value);
  }
  return plain(settings);
}

/**
 * `settings handler-defaults [handler]`: GET /settings/handler-defaults (every handler's)
 * or GET .../{handler}; with --set, PATCH (merged) or with --replace PUT (replaced); with
 * --delete, DELETE. Secret-named values are printed as the API answers them: masked.
 */
export async function handlerDefaults(
  argv: Common & { handler?: string; set?: unknown; 'set-secret'?: unknown; replace?: boolean; delete?: boolean; yes?: boolean },
): Promise<void> {
  const settings = settingsOf(argv.set, argv['set-secret']);
  const setting = Object.keys(settings).length > 0;
  const slug = argv.handler?.trim();
  if (!slug) {
    if (setting || argv.replace || argv.delete)
      throw new CliError('Name the handler: settings handler-defaults <handler> --set ... | --replace | --delete');
    const all = await withApi(
      argv,
      async (api) => (await api.call<{ data: Record<string, Settings> }>('GET', '/settings/handler-defaults')).data,
    );
    if (argv.json) printJson(all);
    else
      printRows(
        Object.entries(all).flatMap(([handler, values]) =>
          Object.entries(values).map(([key, value]) => ({ handler, key, value: show(value) })),
        ),
      );
    return;
  }
  if (argv.delete && (setting || argv.replace)) throw new CliError('--delete goes alone: it removes every default of the handler');
  if (argv.replace && !setting)
    throw new CliError('--replace needs the new defaults as --set <key>=<value> (to remove them all: --delete)');
  const path = `/settings/handler-defaults/${encodeURIComponent(slug)}`;
  const answer = await withApi(argv, async (api): Promise<Answer> => {
    if (argv.delete) {
      // Read first: an unknown handler is named before anyone is asked, and the question says what goes.
      const current = (await api.call<Answer>('GET', path)).data.settings;
      await confirm(argv, `Remove the defaults of handler ${slug} (${Object.keys(current).join(', ') || 'none are set'})`);
      return api.call<Answer>('DELETE', path);
    }
    if (setting) return api.call<Answer>(argv.replace ? 'PUT' : 'PATCH', path, { body: { settings } });
    return api.call<Answer>('GET', path);
  });
  if (argv.json) {
    printJson(answer.data);
    return;
  }
  if (answer.message) console.log(answer.message);
  const rows = Object.entries(answer.data.settings).map(([key, value]) => ({ key, value: show(value) }));
  if (rows.length) printRows(rows);
  else console.log(`${answer.data.handler_slug}: no defaults set`);
}
