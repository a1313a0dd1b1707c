import type { Argv } from 'yargs';
import type { LoadedPlugin } from '../../../core/kernel/loader.js';
import type { MigrationStatus } from '../../migrations/migration-record.js';
import { configFrom, jsonOption, withApi, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';
import { nounHeader } from './catalogue.js';

/** `handlers (2), surfaces (1)`: what a plugin added, by list, counted (the keys are in --json). */
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

/** `flowhost plugins ...`: what this build wires in, without a server or data. */
export const plugins: CliNoun = {
  ...nounHeader('plugins'),
  builder: (y: Argv) =>
    y
      .command(
        'list',
        'Plugins of this build: id, version, the extension points each owns, what each contributes and the hooks each tapped',
        (c) => c.options(jsonOption),
        async (argv) => {
          // Wiring needs no server or data: load the build on a throwaway in-memory store.
          const config = { ...configFrom(argv), dataDir: ':memory:', logLevel: 'silent' as const };
          const { buildDefaultHost } = await import('../../default-build.js');
          const host = await buildDefaultHost(config);
          await host.stop();
          if (argv.json) printJson(host.plugins);
          else printRows(pluginRows(host.plugins));
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
      .demandCommand(1, 'Name a verb: list, migrations')
      .strict(),
};
