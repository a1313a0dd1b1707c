// The `flowhost` command line run inside the test process, as main.ts runs it (the same
// yargs from buildCli, the same nouns, FLOWHOST_PLUGINS read from the environment), against
// a host this process started on the data directory: the CLI finds it by host.json and
// calls its API, as it would a running server. Spawning the CLI boots Node and often a
// whole host per command, too slow for suites with many commands; a few spawned runs
// (test/support/host-process.ts) still check what only a real process shows: its exit,
// the real stdin, the CLI opening a store no host holds.
import * as assert from 'uvu/assert';
import 'reflect-metadata';
import fs, { mkdtempSync } from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { isatty } from 'node:tty';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCli, nounsFor } from '../../host/cli/run-cli.js';
import { errorLine, wantsJson } from '../../host/cli/api-error.js';
import { createHost } from '../../host/create-host.js';
import type { Host } from '../../host/host.js';
import type { HostConfig } from '../../host/config/schema.js';
import type { PluginDefinition } from '../../core/kernel/plugin.js';
import { defaultPlugins } from '../../plugins/index.js';
import { silentLogger } from '../../core/kernel/logger.js';

export interface CliResult {
  status: number;
  stdout: string;
  stderr: string;
}

/**
 * A started host on a fresh data directory (and the store config given, e.g. a fresh MongoDB
 * database, plugin settings). `extraPlugins` run beside the default build's, as
 * FLOWHOST_PLUGINS adds them to `flowhost serve`.
 */
export async function startCliHost(
  storeConfig: Partial<HostConfig>,
  extraPlugins: readonly PluginDefinition[] = [],
): Promise<{ host: Host; dataDir: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-inproc-'));
  const host = await createHost({
    plugins: [...defaultPlugins, ...extraPlugins],
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
      // Every answer checked against its route's schema, as in every test host and in the
      // spawned `flowhost serve` of host-process.ts (FLOWHOST_CHECK_RESPONSES=1).
      checkResponses: true,
      ...storeConfig,
    },
  });
  await host.start();
  return { host, dataDir };
}

/** What a spawned CLI would get besides its arguments. */
export interface CliInput {
  /**
   * Standard input, as spawnSync's `input`: what a command reads from fd 0. Not given, it is
   * empty, like a spawned CLI's closed pipe (never the test process's own stdin, which may be
   * a terminal and block).
   */
  stdin?: string;
  /** Environment variables for this command only (FLOWHOST_PLUGINS, FLOWHOST_CONFIG...). */
  env?: Record<string, string>;
}

/** process.exit called by the command line (buildCli's usage error): ends the run, not the test process. */
class ProcessExit extends Error {
  constructor(readonly code: number) {
    super(`process.exit(${code})`);
  }
}

/**
 * The commands read stdin with readFileSync(0) (their named import of node:fs): the
 * function is swapped on the fs module and syncBuiltinESMExports() carries the swap to
 * every module's named import, for this command only.
 */
function feedStdin(input: string): () => void {
  const real = fs.readFileSync;
  const fake = (path: fs.PathOrFileDescriptor, options?: unknown): string | Buffer => {
    if (path !== 0) return (real as (p: fs.PathOrFileDescriptor, o?: unknown) => string | Buffer)(path, options);
    const encoded = typeof options === 'string' || (typeof options === 'object' && options !== null && 'encoding' in options);
    return encoded ? input : Buffer.from(input);
  };
  fs.readFileSync = fake as typeof fs.readFileSync;
  syncBuiltinESMExports();
  // A piped stdin is no terminal: commands that prompt on a TTY (readKeyFromStdin, chat) must
  // take the piped path even when the suite itself runs in a terminal. isatty(0) first, so a
  // run without a terminal never creates process.stdin.
  const tty = isatty(0);
  if (tty) Object.defineProperty(process.stdin, 'isTTY', { value: false, configurable: true });
  return () => {
    fs.readFileSync = real;
    syncBuiltinESMExports();
    if (tty) Object.defineProperty(process.stdin, 'isTTY', { value: true, configurable: true });
  };
}

/**
 * Runs one command line as main.ts does: the nouns the arguments name are loaded (built-in,
 * default plugins' and FLOWHOST_PLUGINS' from `input.env`), a usage error prints yargs'
 * message with status 2, any other error ends as `flowhost: message (code)` with status 1
 * (under --json, as one JSON line).
 */
export async function cliInProcess(args: string[], input: CliInput = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const write = { out: process.stdout.write, err: process.stderr.write };
  const exit = process.exit;
  const savedExitCode = process.exitCode;
  // The command reaches the host through host.json; MONGODB_URL would make it open the store itself.
  const env: Record<string, string | undefined> = { MONGODB_URL: undefined, ...input.env };
  const savedEnv = Object.fromEntries(Object.keys(env).map((name) => [name, process.env[name]]));
  const setEnv = (values: Record<string, string | undefined>) => {
    for (const [name, value] of Object.entries(values)) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
  };
  setEnv(env);
  const restoreStdin = feedStdin(input.stdin ?? '');
  process.exitCode = undefined;
  process.exit = ((code?: number | string | null) => {
    throw new ProcessExit(Number(code ?? 0));
  }) as typeof process.exit;
  process.stdout.write = ((chunk: unknown) => ((stdout += String(chunk)), true)) as typeof process.stdout.write;
  process.stderr.write = ((chunk: unknown) => ((stderr += String(chunk)), true)) as typeof process.stderr.write;
  let status = 0;
  try {
    // exitProcess(false): --help and completions print and return instead of exiting.
    await buildCli(args, await nounsFor(args))
      .exitProcess(false)
      .parseAsync();
    status = Number(process.exitCode ?? 0);
  } catch (error) {
    if (error instanceof ProcessExit) status = error.code;
    else {
      stderr += errorLine(error, wantsJson(args));
      status = 1;
    }
  } finally {
    process.stdout.write = write.out;
    process.stderr.write = write.err;
    process.exit = exit;
    process.exitCode = savedExitCode;
    restoreStdin();
    setEnv(savedEnv);
  }
  return { status, stdout, stderr };
}

/** Where a suite's commands run: the data directory of the host `startCliHost` started (the suite's context). */
export interface CliPlace {
  dataDir: string;
}

/** One command line against the suite's host (`--data-dir` added). */
export function runCli(place: CliPlace, args: string[], input?: CliInput): Promise<CliResult> {
  return cliInProcess([...args, '--data-dir', place.dataDir], input);
}

/** One command line with `--json`: asserts that it succeeded and returns what it printed, parsed. */
export async function cliJson<T>(place: CliPlace, args: string[], input?: CliInput): Promise<T> {
  const res = await runCli(place, [...args, '--json'], input);
  assert.is(res.status, 0, `${args.join(' ')}: ${res.stderr}`);
  return JSON.parse(res.stdout) as T;
}
