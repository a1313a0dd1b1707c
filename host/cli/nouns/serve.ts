import type { Argv, ArgumentsCamelCase } from 'yargs';
import { configFrom, type CliNoun, type Common } from '../cli-runtime.js';
import { checkWorkers, runClusterPrimary, workerSetup } from '../cluster.js';
import { applyHeapGrowth } from '../../runtime/heap-growth.js';
import { reservePort } from '../../http/port-reservation.js';
import type { Host } from '../../host.js';

/** `flowhost serve`: the long-running host process; it never returns. */
export const serve: CliNoun = {
  noun: 'serve',
  command: 'serve',
  describe: 'Serve the API (embedded store in the data directory unless MONGODB_URL is set)',
  builder: (y: Argv) =>
    y
      .option('port', { type: 'number', describe: 'Port (default PORT or 8080)' })
      .option('host', { type: 'string', describe: 'Address (default HOST or 127.0.0.1)' })
      .option('workers', { type: 'number', describe: 'Host processes sharing the port (default FLOWHOST_WORKERS or 1; more than 1 needs MONGODB_URL)' }),
  async handler(argv: ArgumentsCamelCase<Common & { port?: number; host?: string; workers?: number }>) {
    const config = configFrom(argv);
    // This process is the host's own: it may tune its heap (an embedding process is not).
    applyHeapGrowth(config.heapGrowingPercent);
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
      host = await buildDefaultHost(config, { ...(worker ? { clusterWorker: { localToken: worker.localToken } } : {}), reservedPort });
    } catch (error) {
      await reservedPort?.release();
      throw error;
    }
    try {
      const url = await host.start();
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
    const stop = async (signal: string) => {
      if (stopping) return;
      stopping = true;
      host.log.info({ signal }, 'Stopping');
      await host.stop();
      process.exit(0);
    };
    process.on('SIGINT', () => void stop('SIGINT'));
    process.on('SIGTERM', () => void stop('SIGTERM'));
    await new Promise(() => undefined);
  },
};
