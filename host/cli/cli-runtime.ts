import type { Argv, ArgumentsCamelCase } from 'yargs';
import { readFileSync } from 'node:fs';
import { loadConfig } from '../config/load-config.js';
import type { HostConfig } from '../config/schema.js';
import { findBuild } from '../build/build-declaration.js';
import { CliError, type AdminClient } from './admin-client.js';
import type { ApiSession } from './api-session.js';
import { requireStore } from './data-dir-store.js';
import { secretOption } from './secret-input.js';

/**
 * How a CLI command reaches its config, the admin client and the API. Every noun, built
 * in or from a plugin, goes through these, so `--data-dir` and the connection rules are
 * the same whichever noun runs.
 */

/** The global options every command may carry. */
export interface Common {
  json?: boolean;
  'data-dir'?: string;
  /** Create the data directory's store when it has none (otherwise only `serve` does). */
  init?: boolean;
  /** The build declaration file (default FLOWHOST_BUILD or ./flowhost.build.json when present). */
  build?: string;
}

/**
 * A first word of `flowhost <noun> ...`. Built-in nouns (nouns/) and plugin nouns
 * (plugin-nouns.ts) both take this shape, so main.ts registers them in one loop and the
 * shadowing check can list the built-ins from the same objects.
 */
export interface CliNoun {
  /** The first word, e.g. 'user'; what a plugin noun must not shadow. */
  noun: string;
  /** The yargs command string: 'user <verb>', or 'serve' for a noun with no verbs. */
  command: string;
  describe: string;
  /** Adds the noun's verbs or options. */
  builder(y: Argv): Argv;
  /**
   * Only for a noun with no verbs (serve); a noun with verbs runs them from `builder`.
   * A method, so a noun may type argv with the options its own builder declared (yargs
   * cannot carry that type through a list of mixed nouns).
   */
  handler?(argv: ArgumentsCamelCase): Promise<void>;
}

export function configFrom(argv: Common & { port?: number; host?: string }): HostConfig {
  return loadConfig({
    overrides: {
      ...(argv['data-dir'] ? { dataDir: argv['data-dir'] } : {}),
      ...(argv.port !== undefined ? { port: argv.port } : {}),
      ...(argv.host ? { host: argv.host } : {}),
    },
  });
}

/** Runs an admin action and always closes what it opened. */
export async function withAdmin<T>(argv: Common, fn: (admin: AdminClient) => Promise<T>): Promise<T> {
  // Loaded here, not at the top: listing the nouns (`--help`) needs neither the store nor the host.
  const { openAdmin } = await import('./open-admin.js');
  const config = configFrom(argv);
  requireStore(config, argv.init);
  const admin = await openAdmin(config);
  try {
    return await fn(admin);
  } finally {
    await admin.close();
  }
}

/** Runs a command against the core API (the running host, or this process's own). */
export async function withApi<T>(argv: Common, fn: (api: ApiSession) => Promise<T>): Promise<T> {
  const { openApiSession } = await import('./api-session.js');
  const config = configFrom(argv);
  requireStore(config, argv.init);
  const api = await openApiSession({ ...config, logLevel: 'warn' }, findBuild(argv.build));
  try {
    return await fn(api);
  } finally {
    await api.close();
  }
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export function readPassword(argv: { password?: string; 'password-stdin'?: boolean }): string {
  const password = secretOption('password', argv.password, argv['password-stdin']);
  if (password === undefined) throw new CliError('Pipe the password with --password-stdin (or --password -), or give --password @<file>');
  return password;
}

/**
 * An API key from standard input (never argv: it would sit in shell history and `ps`).
 * `example` is the command line to suggest when stdin is empty.
 */
export function readKeyFromStdin(example: string): string {
  if (process.stdin.isTTY) process.stderr.write('Paste the API key, then press Enter and Ctrl-D:\n');
  const key = readFileSync(0, 'utf8').trim();
  if (!key) throw new CliError(`No key on standard input: pipe it, e.g. \`${example}\``);
  if (/\s/.test(key)) throw new CliError('The key on standard input contains spaces or several lines');
  return key;
}

export const jsonOption = { json: { type: 'boolean', describe: 'Machine-readable output', default: false } } as const;
