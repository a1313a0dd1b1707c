import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { HostConfig } from '../config/schema.js';
import { DATABASE_FILE, type HostFile, hostProcessAlive, readHostFile } from '../runtime/data-dir-files.js';
import { CliError } from './admin-client.js';

/**
 * Which store a CLI command may use. A command run in the wrong directory (a checkout
 * without FLOWHOST_DATA_DIR while the host runs on another) used to create a second,
 * empty store there with its own administrator and answer "0 posts": now only `serve`
 * and `--init` create a store, and every other command refuses, naming the directory.
 * MongoDB is left out: its store is the database MONGODB_URL names, not the directory.
 */
export function requireStore(config: HostConfig, init: boolean | undefined): void {
  if (config.mongodbUrl || config.dataDir === ':memory:' || init) return;
  const dataDir = resolve(config.dataDir);
  const running = readHostFile(dataDir);
  if ((running && hostProcessAlive(running)) || existsSync(join(dataDir, DATABASE_FILE))) return;
  throw new CliError(
    `No Flowhost store in ${dataDir} and no host running on it. Point FLOWHOST_DATA_DIR or --data-dir at the data directory of your host, ` +
      'start a host on this one with `npm start` (or `flowhost serve`), or give --init to create a new store here.',
    'no_store',
  );
}

/** How long a command waits for a host that is starting to publish its address. */
export const STARTING_HOST_WAIT_MS = 30_000;
const POLL_MS = 100;

/**
 * The address of the host that holds `dataDir` but has not published it yet: it is
 * starting (host.json is written once it listens). The command says so and waits for
 * it, rather than telling the user to stop the host or "use the CLI" while they are.
 */
export async function waitForStartingHost(dataDir: string, waitMs = STARTING_HOST_WAIT_MS): Promise<HostFile & { token: string }> {
  process.stderr.write(
    `flowhost: a host is starting on ${dataDir}; waiting up to ${Math.round(waitMs / 1000)} s for it to be ready (Ctrl-C to give up)\n`,
  );
  const deadline = Date.now() + waitMs;
  for (;;) {
    const running = readHostFile(dataDir);
    if (running && hostProcessAlive(running)) return running;
    if (Date.now() >= deadline) break;
    await new Promise((done) => setTimeout(done, POLL_MS));
  }
  throw new CliError(
    `The data directory ${dataDir} is held by a process that has not published a host address after ${Math.round(waitMs / 1000)} s: ` +
      'a host that is still starting (retry in a moment) or another flowhost command working on the store directly (retry when it ends).',
    'host_starting',
  );
}
