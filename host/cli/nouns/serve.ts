import type { Argv, ArgumentsCamelCase } from 'yargs';
import { configFrom, type CliNoun, type Common } from '../cli-runtime.js';
import { checkWorkers, runClusterPrimary, workerSetup } from '../cluster.js';
import { applyHeapGrowth } from '../../runtime/heap-growth.js';
import { reservePort } from '../../http/port-reservation.js';
import { startedByPackageScript, watchParent } from '../../runtime/parent-watch.js';
import type { Host } from '../../host.js';
import { nounHeader } from './catalogue.js';
import { findBuild } from '../../build/build-declaration.js';

/** Past the shutdown bound, what a stop that hangs itself (a store that does not answer) gets before the process exits anyway. */
const STOP_MARGIN_MS = 5000;

/** `flowhost serve`: the long-running host process; it never returns. */
export const serve: CliNoun = {
  ...nounHeader('serve'),
  builder: (y: Argv) =>
    y
      .option('port', { type: 'number', describe: 'Port (default PORT or 8080)' })
      .option('host', { type: 'string', describe: 'Address (default HOST or 127.0.0.1)' })
      .option('workers', {
        type: 'number',
        describe: 'Host processes sharing the port (default FLOWHOST_WORKERS or 1; more than 1 needs MONGODB_URL)',
      }),
  async handler(argv: ArgumentsCamelCase<Common & { port?: number; host?: string; workers?: number }>) {
    // Read now: npm's shell may be gone by the time the host has started (see parent-watch).
    const parent = process.ppid;
    const config = configFrom(argv);
    const worker = workerSetup();
    if (!worker) {
      const workers = argv.workers ?? Number(process.env.FLOWHOST_WORKERS ?? 1);
      checkWorkers(workers, config);
      if (workers > 1) await runClusterPrimary(config, workers, (line) => process.stdout.write(`${line}\n`));
    }
    // The port first: a busy one stops the start before the data directory is touched.
    // (A cluster worker listens through its primary, which shares one socket.)
    const reservedPort = worker ? undefined : await reservePort(config.port, config.host);
    const { buildDefaultHost } = await import('../../default-build.js');
    let host: Host;
    try {
      host = await buildDefaultHost(config, {
        ...(worker ? { clusterWorker: { localToken: worker.localToken } } : {}),
        reservedPort,
        build: findBuild(argv.build),
      });
    } catch (error) {
      await reservedPort?.release();
      throw error;
    }
    try {
      const url = await host.start();
      // This process is the host's own: it may tune its heap (an embedding process is not).
      // After the start, not before: the cap made V8 collect again and again while the
      // modules loaded (about 50 ms of a 700 ms start), and the load it is for comes later.
      applyHeapGrowth(config.heapGrowingPercent);
      worker?.listening(url);
    } catch (error) {
      await host.stop().catch(() => undefined);
      await reservedPort?.release();
      throw error;
    }
    // No request can get here (the HTTP layer answers every one); should anything else
    // throw outside a handler, a half-alive process is worse than a restart: log, exit 1.
    const fatal = (kind: string) => (error: unknown) => {
      host.log.error({ err: error }, `${kind}: the process exits so a supervisor can restart it`);
      process.exitCode = 1;
      setTimeout(() => process.exit(1), 100).unref();
    };
    process.on('uncaughtException', fatal('uncaughtException'));
    process.on('unhandledRejection', fatal('unhandledRejection'));
    let stopping = false;
    const stop = async (signal: string, repeatCutsShort = true) => {
      if (stopping) {
        // Ctrl-C under `npm start` also ends npm's shell, which the parent watch then sees:
        // that is the same stop, not a second request.
        if (!repeatCutsShort) return;
        // A second Ctrl-C: whoever sends it does not want to wait for the drain.
        host.log.warn({ signal }, 'Stopping now, without waiting for what is still running');
        process.exit(1);
      }
      stopping = true;
      host.log.info({ signal, bound_seconds: config.shutdownTimeoutSeconds }, 'Stopping');
      setTimeout(
        () => {
          host.log.error(`The stop did not end within ${config.shutdownTimeoutSeconds} s and ${STOP_MARGIN_MS / 1000} s more; exiting`);
          process.exit(1);
        },
        config.shutdownTimeoutSeconds * 1000 + STOP_MARGIN_MS,
      ).unref();
      await host.stop();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
    if (startedByPackageScript(process.env)) watchParent(parent, () => void stop('parent process ended', false));
    await new Promise(() => undefined);
  },
};
