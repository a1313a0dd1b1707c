import type { Argv } from 'yargs';
import { configFrom, jsonOption, type CliNoun } from '../cli-runtime.js';
import { printJson, printRows } from '../output.js';

/** `flowhost plugins ...`: what this build wires in, without a server or data. */
export const plugins: CliNoun = {
  noun: 'plugins',
  command: 'plugins <verb>',
  describe: 'Inspect plugins',
  builder: (y: Argv) =>
    y
      .command('list', 'Plugins of this build: id, version and the hooks each tapped', (c) => c.options(jsonOption), async (argv) => {
        // Wiring needs no server or data: load the build on a throwaway in-memory store.
        const config = { ...configFrom(argv), dataDir: ':memory:', logLevel: 'silent' as const };
        const { buildDefaultHost } = await import('../../default-build.js');
        const host = await buildDefaultHost(config);
        const rows = host.plugins.map((p) => ({ id: p.id, version: p.version, hooks: p.hooks.join(', ') }));
        await host.stop();
        if (argv.json) printJson(host.plugins);
        else printRows(rows);
      })
      .demandCommand(1, 'Name a verb: list')
      .strict(),
};
