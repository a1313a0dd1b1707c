// Real `flowhost serve` processes for the chaos suites (issue 53): one host on an embedded
// store, or several on one MongoDB database, any of which the suite kills with SIGKILL and
// restarts at once on the same data directory while load goes on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { basicAuth, repoRoot, startHostProcess, waitForExit, type RunningHost } from './host-process.js';

export interface ChaosCluster {
  /** An administrator's Authorization header (the first host's initial administrator). */
  readonly auth: string;
  /** The file the `run-note` handler writes each run's job id to (test/support/kill-gate-plugin.ts). */
  readonly runLog: string;
  readonly leaseSeconds: number;
  /** The base URLs of the hosts serving now (none while the only one restarts). */
  live(): string[];
  /** SIGKILLs the next host in turn and starts it again at once; resolves once it serves. */
  killOne(): Promise<{ killedAt: number }>;
  /** Everything a host printed (the killed ones' too), for a failure's message. */
  output(): string;
  stop(): Promise<void>;
}

/**
 * `size` hosts; `mongoUrl` (a fresh database's) puts them on one MongoDB database, else one
 * host on an embedded store in its data directory (the embedded store is one process's).
 */
export async function startChaosCluster(options: {
  size: number;
  leaseSeconds: number;
  /** How long each run's first step takes (so a kill finds runs under way). */
  stepMs: number;
  mongoUrl?: string;
}): Promise<ChaosCluster> {
  const { size, leaseSeconds, mongoUrl } = options;
  if (!mongoUrl && size !== 1) throw new Error('the embedded store is one host');
  const dirs = Array.from({ length: size }, (_, i) => mkdtempSync(join(tmpdir(), `flowhost-chaos-${i}-`)));
  const runLog = join(dirs[0]!, 'runs.log');
  const env: Record<string, string> = {
    FLOWHOST_ALLOW_PRIVATE_URLS: '1',
    FLOWHOST_LOG_LEVEL: 'warn',
    FLOWHOST_PLUGINS: join(repoRoot, 'dist/test/support/kill-gate-plugin.js'),
    FLOWHOST_RUN_LEASE_SECONDS: String(leaseSeconds),
    KILL_GATE_LOG: runLog,
    KILL_GATE_STEP_MS: String(options.stepMs),
    ...(mongoUrl ? { MONGODB_URL: mongoUrl, FLOWHOST_SECRET_KEY: randomBytes(32).toString('hex') } : {}),
  };
  const hosts: Array<RunningHost | null> = [];
  const earlier: string[] = [];
  const stopAll = async () => {
    for (const [i, host] of hosts.entries()) {
      hosts[i] = null;
      if (!host || host.proc.exitCode !== null || host.proc.signalCode !== null) continue;
      host.proc.kill('SIGKILL');
      await waitForExit(host.proc);
    }
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
  try {
    for (const dir of dirs) hosts.push(await startHostProcess(dir, env));
  } catch (error) {
    await stopAll();
    throw error;
  }
  const auth = basicAuth('admin', readFileSync(join(dirs[0]!, 'initial-admin-password'), 'utf8').trim());
  let next = 0;
  return {
    auth,
    runLog,
    leaseSeconds,
    live: () => hosts.filter((h): h is RunningHost => h !== null).map((h) => h.url),
    async killOne() {
      const slot = next;
      next = (next + 1) % size;
      const host = hosts[slot]!;
      hosts[slot] = null;
      host.proc.kill('SIGKILL');
      await waitForExit(host.proc);
      const killedAt = Date.now();
      earlier.push(host.output());
      hosts[slot] = await startHostProcess(dirs[slot]!, env);
      return { killedAt };
    },
    output: () => [...earlier, ...hosts.map((h) => h?.output() ?? '')].join('\n---\n'),
    stop: stopAll,
  };
}
