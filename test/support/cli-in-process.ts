// The `flowhost` command line run inside the test process (yargs with the built-in nouns),
// against a host this process started on the data directory: the CLI finds it by
// host.json and calls its API, as it would a running server. Spawning the CLI boots Node
// and often a whole host per command, too slow for suites with many commands; a few
// spawned runs (test/support/host-process.ts) still check exit codes and stdin.
import yargs from 'yargs';
import * as assert from 'uvu/assert';
import 'reflect-metadata';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allBuiltInNouns } from '../../host/cli/nouns/catalogue.js';
import { pluginNouns } from '../../host/cli/plugin-nouns.js';
import { errorLine } from '../../host/cli/api-error.js';
import { createHost } from '../../host/create-host.js';
import type { Host } from '../../host/host.js';
import type { HostConfig } from '../../host/config/schema.js';
import { defaultPlugins } from '../../plugins/index.js';
import { silentLogger } from '../../core/kernel/logger.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/** A started host on a fresh data directory (and the store config given, e.g. a fresh MongoDB database). */
export async function startCliHost(storeConfig: Partial<HostConfig>): Promise<{ host: Host; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-inproc-'));
  const host = await createHost({
    plugins: defaultPlugins,
    env: {},
    logger: silentLogger,
    config: {
      dataDir,
      port: 0,
      host: '127.0.0.1',
      logLevel: 'silent',
      allowPrivateUrls: true,
      schedulerProcessEvery: 100,
      schedulerLockLifetime: 2000,
      ...storeConfig,
    },
  });
  await host.start();
  return { host, dataDir };
}

/**
 * Runs one command line; errors end as main.ts ends them (errorLine: `flowhost: message (code)`) with status 1.
 * The default build's plugin nouns are always there (`project`, `docs`, `billing`...), as in the real CLI.
 */
export async function cliInProcess(args: string[]): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const write = { out: process.stdout.write, err: process.stderr.write };
  const saved = { mongo: process.env.MONGODB_URL, exitCode: process.exitCode };
  // The command reaches the host through host.json; MONGODB_URL would make it open the store itself.
  delete process.env.MONGODB_URL;
  process.exitCode = undefined;
  process.stdout.write = ((chunk: unknown) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  let status = 0;
  try {
    let cli = yargs(args).scriptName('flowhost').option('data-dir', { type: 'string' });
    for (const noun of await allBuiltInNouns()) cli = cli.command(noun.command, noun.describe, noun.builder, noun.handler);
    // The default build's plugin nouns too (`flowhost files`, `flowhost billing`), as run-cli.ts adds them.
    for (const noun of pluginNouns(defaultPlugins)) cli = cli.command(noun.command, noun.describe, noun.builder, noun.handler);
    await cli
      .demandCommand(1)
      .strict()
      .exitProcess(false)
      .fail((message, error) => {
        throw error ?? new Error(message);
      })
      .parseAsync();
    status = Number(process.exitCode ?? 0);
  } catch (error) {
    stderr += errorLine(error);
    status = 1;
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    if (saved.mongo !== undefined) process.env.MONGODB_URL = saved.mongo;
    process.exitCode = saved.exitCode;
  }
  return { status, stdout, stderr };
}

/** Where a suite's commands run: the data directory of the host `startCliHost` started (the suite's context). */
export interface CliPlace {
  dataDir: string;
}

/** One command line against the suite's host (`--data-dir` added). */
export function runCli(place: CliPlace, args: string[]): Promise<CliResult> {
  return cliInProcess([...args, '--data-dir', place.dataDir]);
}

/** One command line with `--json`: asserts that it succeeded and returns what it printed, parsed. */
export async function cliJson<T>(place: CliPlace, args: string[]): Promise<T> {
  const res = await runCli(place, [...args, '--json']);
  assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}
