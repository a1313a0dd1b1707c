/**
 * `flowhost serve --workers N`: N host processes on one port (node:cluster shares the
 * listening socket; the kernel spreads connections). Everything that must hold across
 * them is in MongoDB already (sessions, login throttling, rate limits, job claims,
 * Agenda's locks), so a worker is a plain host. The embedded store cannot be shared
 * (one process holds the SQLite file), hence MongoDB only.
 *
 * The primary runs no host: it forks the workers, publishes the data directory's host
 * file and the CLI's local credential once (every worker accepts that credential), forks
 * a worker again when one dies, and on SIGTERM/SIGINT stops them all before it exits.
 */
import cluster, { type Worker } from 'node:cluster';
import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import type { HostConfig } from '../config/schema.js';
import { publishHost, unpublishHost } from '../runtime/data-dir-files.js';
import { CliError } from './admin-client.js';

export const CLUSTER_TOKEN_ENV = 'FLOWHOST_CLUSTER_TOKEN';
/** A worker that dies within this long of its start counts toward the crash-loop limit. */
const EARLY_DEATH_MS = 10_000;
const MAX_EARLY_DEATHS = 5;
const STOP_GRACE_MS = 20_000;

type WorkerMessage = { type: 'listening'; url: string };

export function checkWorkers(workers: number, config: HostConfig): void {
  if (!Number.isInteger(workers) || workers < 1 || workers > 64)
    throw new CliError(`--workers must be an integer from 1 to 64 (got ${workers})`);
  if (workers > 1 && !config.mongodbUrl) {
    throw new CliError(
      `--workers ${workers} needs MongoDB (set MONGODB_URL): the embedded store is a SQLite file that one process holds. Use --workers 1 (the default) with the embedded store.`,
    );
  }
}

/** Runs the primary until it is told to stop; never returns. */
export async function runClusterPrimary(config: HostConfig, workers: number, log: (line: string) => void): Promise<never> {
  const token = randomBytes(32).toString('base64url');
  const dataDir = resolve(config.dataDir);
  let published = false;
  let stopping = false;
  let earlyDeaths = 0;
  const startedAt = new Map<number, number>();

  const fork = (): Worker => {
    const worker = cluster.fork({ [CLUSTER_TOKEN_ENV]: token });
    startedAt.set(worker.id, Date.now());
    worker.on('message', (message: WorkerMessage) => {
      if (message?.type !== 'listening' || published) return;
      published = true;
      publishHost(dataDir, message.url, `${message.url}${config.apiPrefix}/${config.coreNamespace}`, token);
      log(`Flowhost: ${workers} workers on ${message.url} (primary pid ${process.pid})`);
    });
    return worker;
  };

  cluster.on('exit', (worker, code, signal) => {
    if (stopping) return;
    const lived = Date.now() - (startedAt.get(worker.id) ?? 0);
    startedAt.delete(worker.id);
    if (lived < EARLY_DEATH_MS && ++earlyDeaths >= MAX_EARLY_DEATHS) {
      log(`Flowhost: workers keep dying at start (last: pid ${worker.process.pid}, ${signal ?? `exit ${code}`}); stopping`);
      void stop(1);
      return;
    }
    log(`Flowhost: worker pid ${worker.process.pid} ended (${signal ?? `exit ${code}`}); starting another`);
    fork();
  });

  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const alive = Object.values(cluster.workers ?? {}).filter((w): w is Worker => Boolean(w) && !w!.isDead());
    await Promise.all(
      alive.map(
        (worker) =>
          new Promise<void>((done) => {
            const kill = setTimeout(() => worker.process.kill('SIGKILL'), STOP_GRACE_MS);
            worker.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            worker.process.kill('SIGTERM');
          }),
      ),
    );
    if (published) unpublishHost(dataDir);
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  for (let i = 0; i < workers; i++) fork();
  return new Promise<never>(() => undefined);
}

/** In a worker: the credential the primary published, and a way to say the host listens. */
export function workerSetup(): { localToken: string; listening(url: string): void } | null {
  if (!cluster.isWorker) return null;
  const localToken = process.env[CLUSTER_TOKEN_ENV];
  if (!localToken) throw new Error(`A cluster worker started without ${CLUSTER_TOKEN_ENV}`);
  // Not visible to what the host runs (handlers, plugins).
  delete process.env[CLUSTER_TOKEN_ENV];
  return { localToken, listening: (url) => process.send?.({ type: 'listening', url } satisfies WorkerMessage) };
}
