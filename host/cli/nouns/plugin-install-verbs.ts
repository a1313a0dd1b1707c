import type { Argv } from 'yargs';
import { resolve } from 'node:path';
import { findBuild } from '../../build/build-declaration.js';
import type { InstallContext } from '../../plugin-install/install-plugin.js';
import type { InstalledPlugin } from '../../plugin-install/plugins-folder.js';
import type { PurgePlan } from '../../plugin-install/purge.js';
import { CliError } from '../admin-client.js';
import { configFrom, jsonOption, type Common } from '../cli-runtime.js';
import { confirm, yesOption } from '../confirm.js';
import { printJson, printRows } from '../output.js';

/**
 * `flowhost plugins install|update|remove|enable|disable|installed`: they change the data
 * directory's plugins folder (and, on MongoDB, the store's record of the installed set)
 * directly, with or without a running host; a running host loads the change when it restarts.
 */
type Args = Common & { spec?: string; id?: string; to?: string; scripts?: boolean; yes?: boolean; purge?: boolean };

async function context(
  argv: Args,
): Promise<{ ctx: InstallContext; host: import('../api-session.js').ApiSession | null; mongodbUrl?: string }> {
  const config = configFrom(argv);
  const [{ resolveBuild }, { runningHostSession }] = await Promise.all([
    import('../../build/build-plugins.js'),
    import('../api-session.js'),
  ]);
  const build = await resolveBuild(config, findBuild(argv.build));
  const installed = new Set(build.installed);
  const available = new Map<string, string | null>();
  for (const entry of build.entries)
    if (!installed.has(entry.id)) available.set(entry.id, 'version' in entry && typeof entry.version === 'string' ? entry.version : null);
  // npm's lines while it works, on stderr: stdout stays the answer (--json).
  const progress = (line: string) => process.stderr.write(`npm: ${line}\n`);
  return {
    ctx: { dataDir: resolve(config.dataDir), available, progress, scripts: argv.scripts === true },
    host: runningHostSession(config),
    mongodbUrl: config.mongodbUrl,
  };
}

/** The store's record follows the folder on MongoDB (every host runs the same set). */
async function recordForDatabase(url: string | undefined, plugin: InstalledPlugin, removed = false): Promise<void> {
  if (!url) return;
  const [{ openMongoStore }, { recordInStore }] = await Promise.all([
    import('../../store/mongodb/index.js'),
    import('../../plugin-install/store-record.js'),
  ]);
  const store = await openMongoStore({ url });
  try {
    await recordInStore(store, plugin, removed);
  } finally {
    await store.close();
  }
}

async function run(
  argv: Args,
  change: (ctx: InstallContext) => Promise<InstalledPlugin>,
  done: string,
  removed = false,
  quiet = false,
): Promise<void> {
  const { ctx, host, mongodbUrl } = await context(argv);
  const { PluginInstallError } = await import('../../plugin-install/install-error.js');
  let plugin: InstalledPlugin;
  try {
    plugin = await change(ctx);
  } catch (error) {
    if (error instanceof PluginInstallError) throw new CliError(error.message, error.code, { problems: error.problems });
    throw error;
  }
  await recordForDatabase(mongodbUrl, plugin, removed);
  // The running host compares the folder with what it started with (none running: nothing to restart).
  const restartNeeded = host ? (await host.call<{ restart_needed: boolean }>('GET', '/installed-plugins')).restart_needed : false;
  const restart = restartNeeded ? ' The running host loads the change when it restarts.' : '';
  if (quiet) return;
  if (argv.json) printJson({ data: plugin, restart_needed: restartNeeded });
  else process.stdout.write(`${done.replace('{id}', plugin.id).replace('{version}', plugin.version)}.${restart}\n`);
}

const idArg = (c: Argv) => c.positional('id', { type: 'string', demandOption: true, describe: 'The installed plugin id' });
const scriptsOption = {
  scripts: { type: 'boolean', default: false, describe: "Run the packages' install scripts (skipped by default)" },
} as const;

/** yargs types argv by the builder's options; these verbs read them as Args. */
const act = (fn: (argv: Args) => Promise<void>) => (args: unknown) => fn(args as Args);

/** Adds the install verbs to `flowhost plugins`. */
export function pluginInstallVerbs(y: Argv): Argv {
  const ops = () => import('../../plugin-install/install-plugin.js');
  return y
    .command(
      'installed',
      'Plugins installed in the data directory: id, package, version, enabled, what was installed',
      (c: Argv): Argv => c.options(jsonOption),
      act(async (argv) => {
        const { readInstalled } = await import('../../plugin-install/plugins-folder.js');
        const { plugins } = readInstalled(resolve(configFrom(argv).dataDir));
        if (argv.json) printJson(plugins);
        else
          printRows(plugins.map((p) => ({ id: p.id, package: p.package, version: p.version, enabled: String(p.enabled), spec: p.spec })));
      }),
    )
    .command(
      'install <spec>',
      'Install a plugin into the data directory: a package name[@range], a tarball (path or URL) or a git URL',
      (c: Argv): Argv => c.positional('spec', { type: 'string', demandOption: true }).options({ ...jsonOption, ...scriptsOption }),
      act((argv) => run(argv, async (ctx) => (await ops()).installPlugin(ctx, argv.spec!), 'Installed {id} {version}')),
    )
    .command(
      'update <id> [to]',
      'Update an installed plugin: to a version or range of its package, another tarball or git URL, or (without) the latest',
      (c: Argv): Argv =>
        idArg(c)
          .positional('to', { type: 'string' })
          .options({ ...jsonOption, ...scriptsOption }),
      act((argv) => run(argv, async (ctx) => (await ops()).updatePlugin(ctx, argv.id!, argv.to), 'Updated {id} to {version}')),
    )
    .command(
      'enable <id>',
      'Enable an installed plugin (loaded from the next start)',
      (c: Argv): Argv => idArg(c).options(jsonOption),
      act((argv) => run(argv, async (ctx) => (await ops()).setPluginEnabled(ctx.dataDir, argv.id!, true), 'Enabled {id}')),
    )
    .command(
      'disable <id>',
      'Disable an installed plugin: it stays installed, is not loaded from the next start, and its flows show as orphaned',
      (c: Argv): Argv => idArg(c).options(jsonOption),
      act((argv) => run(argv, async (ctx) => (await ops()).setPluginEnabled(ctx.dataDir, argv.id!, false), 'Disabled {id}')),
    )
    .command(
      'remove <id>',
      'Uninstall a plugin (asks first); its data stays unless --purge, which shows what goes (collections, jobs, settings, migration record) first',
      (c: Argv): Argv =>
        idArg(c).options({
          ...jsonOption,
          ...yesOption,
          purge: { type: 'boolean', default: false, describe: 'Also remove its data from the store, after showing what' },
        }),
      act((argv) => (argv.purge ? removePurging(argv) : run(argv, async (ctx) => removeAsked(ctx, argv), 'Removed {id} {version}', true))),
    );
}

async function removeAsked(ctx: InstallContext, argv: Args): Promise<InstalledPlugin> {
  const { findInstalled, removePlugin } = await import('../../plugin-install/install-plugin.js');
  const plugin = findInstalled(ctx.dataDir, argv.id!);
  await confirm(argv, `Remove plugin ${plugin.id} ${plugin.version} (package ${plugin.package}); its data stays`);
  return removePlugin(ctx, plugin.id);
}

/**
 * `remove --purge`: through the running host when one holds the data directory (the
 * embedded store is its alone), else on the store opened here. The plan is shown before the
 * question, and the answer lists what went.
 */
async function removePurging(argv: Args): Promise<void> {
  const config = configFrom(argv);
  const [{ runningHostSession }, purge] = await Promise.all([import('../api-session.js'), import('../../plugin-install/purge.js')]);
  const session = runningHostSession(config);
  if (session) {
    const id = encodeURIComponent(argv.id!);
    const plan = (await session.call<{ data: PurgePlan }>('GET', `/installed-plugins/${id}/purge`)).data;
    process.stderr.write(`Purging plugin ${plan.plugin} removes from the store:\n${purge.describePlan(plan)}\n`);
    await confirm(argv, `Remove plugin ${plan.plugin} and its data`);
    const body = await session.call<Record<string, unknown>>('DELETE', `/installed-plugins/${id}`, { query: { purge: true } });
    if (argv.json) printJson({ data: body.data, purged: body.purged, restart_needed: body.restart_needed });
    else process.stdout.write(`${String(body.message)}\n`);
    return;
  }
  const { openStore } = await import('../../store/open-store.js');
  const dataDir = resolve(config.dataDir);
  const store = await openStore(config, dataDir);
  try {
    const { findInstalled } = await import('../../plugin-install/install-plugin.js');
    const plan = await purge.purgePlan(store, findInstalled(dataDir, argv.id!).id);
    process.stderr.write(`Purging plugin ${plan.plugin} removes from the store:\n${purge.describePlan(plan)}\n`);
    let removed: InstalledPlugin | undefined;
    await run(
      { ...argv, json: false },
      async (ctx) => {
        await confirm(argv, `Remove plugin ${plan.plugin} and its data`);
        removed = await (await import('../../plugin-install/install-plugin.js')).removePlugin(ctx, plan.plugin);
        await purge.purgePlugin(store, plan);
        return removed;
      },
      'Removed {id} {version} and its data',
      true,
      argv.json,
    );
    if (argv.json) printJson({ data: removed, purged: plan, restart_needed: false });
  } finally {
    await store.close();
  }
}
