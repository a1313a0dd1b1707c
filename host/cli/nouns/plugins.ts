import type { Argv } from 'yargs';
import type { LoadedPlugin } from '../../../core/kernel/loader.js';
import type { MigrationStatus } from '../../migrations/migration-record.js';
import { resolve } from 'node:path';
import { findBuild } from '../../build/build-declaration.js';
import { configFrom, jsonOption, withApi, type CliNoun, type Common } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';
import { pluginSettingsCommand, pluginSettingsOptions } from './plugin-settings.js';
import { pluginInstallVerbs } from './plugin-install-verbs.js';

/** `flows.handlers (2), surfaces (1)`: what a plugin added, by list, counted (the keys are in --json). */
export function contributionSummary(contributions: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(contributions)
    .map(([list, keys]) => `${list} (${keys.length})`)
    .join(', ');
}

/**
 * One table row per plugin: the extension points it owns, what it contributed (lists it
 * added to), apart from the hooks it tapped (events).
 */
export function pluginRows(plugins: readonly LoadedPlugin[]): Array<Record<string, string>> {
  return plugins.map((p) => ({
    id: p.id,
    version: p.version,
    owns: p.extensionPoints.join(', '),
    contributes: contributionSummary(p.contributions),
    hooks: p.hooks.join(', '),
  }));
}

/** One row per plugin with migrations: how many steps ran, which are left, a failure or a lock holder. */
export function migrationRows(statuses: readonly MigrationStatus[]): Array<Record<string, string>> {
  return statuses.map((s) => ({
    plugin: s.plugin,
    applied: String(s.applied.length),
    last: s.last ?? '-',
    pending: s.pending.map((p) => p.id).join(', ') || '-',
    state: s.failed ? `failed at '${s.failed.step}': ${s.failed.message}` : s.locked_by ? `running on ${s.locked_by}` : 'ok',
  }));
}

/**
 * What the host running on the data directory runs (GET /plugins); with none running, the
 * build this command is given (--build, FLOWHOST_BUILD, ./flowhost.build.json, or the stock
 * build), loaded on a throwaway in-memory store, and stderr says which it is.
 */
async function pluginsOfBuild(argv: Common): Promise<readonly LoadedPlugin[]> {
  const config = configFrom(argv);
  const { runningHostSession } = await import('../api-session.js');
  const session = runningHostSession(config);
  if (session) return (await session.call<{ data: LoadedPlugin[] }>('GET', '/plugins')).data;
  const [{ hostOfBuild }, { resolveBuild }] = await Promise.all([import('../../default-build.js'), import('../../build/build-plugins.js')]);
  // The data directory's installed plugins too, loaded on a throwaway in-memory store.
  const build = await resolveBuild({ ...config, logLevel: 'silent' }, findBuild(argv.build));
  process.stderr.write(`flowhost: no host runs on ${resolve(config.dataDir)}; listing ${build.describe}\n`);
  const host = await hostOfBuild({ ...build, config: { ...build.config, dataDir: ':memory:' } });
  await host.stop();
  return host.plugins;
}

/** `flowhost plugins ...`: what this build wires in, without a server or data. */
export const plugins: CliNoun = {
  ...nounHeader('plugins'),
  builder: (y: Argv) =>
    pluginInstallVerbs(y)
      .command(
        'list',
        'Plugins of this build: id, version, the extension points each owns, what each contributes and the hooks each tapped',
        (c) => c.options(jsonOption),
        async (argv) => {
          const list = await pluginsOfBuild(argv);
          if (argv.json) printJson(list);
          else printRows(pluginRows(list));
        },
      )
      .command(
        'migrations',
        "Each plugin's data migrations on this store: applied and pending steps, a failed step, a host running them",
        (c) => c.options(jsonOption),
        async (argv) => {
          // Through the running host (the build it runs); with none, the build starts here
          // for the command and, as any start, runs pending steps first.
          const body = await withApi(argv, (api) => api.call<{ data: MigrationStatus[] }>('GET', '/plugins/migrations'));
          if (argv.json) printJson(body.data);
          else if (body.data.length === 0) process.stdout.write('No plugin of this build has migrations.\n');
          else printRows(migrationRows(body.data));
        },
      )
      .command(
        'settings [id]',
        "The plugins with settings; or one plugin's settings (writeOnly ones shown only as set or not), or change some: --set, --set-secret, --clear",
        pluginSettingsOptions,
        (argv) => pluginSettingsCommand(argv),
      )
      .demandCommand(1, 'Name a verb: list, migrations, settings, installed, install, update, enable, disable, remove')
      .strict(),
};
