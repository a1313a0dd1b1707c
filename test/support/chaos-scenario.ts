// One chaos run (issue 53), shared by the embedded and MongoDB suites: hosts started, flows
// made, the load driven while hosts are killed, a bounded quiet period, then the verdict.
import { startChaosCluster } from './chaos-cluster.js';
import { runChaos, setUpChaosFlows, type ChaosPlan } from './chaos-load.js';
import { chaosVerdict, settle, type ChaosVerdict } from './chaos-verdict.js';

export interface ChaosOutcome {
  verdict: ChaosVerdict;
  /** How long the hosts took to start. */
  upMs: number;
  /** From the end of the load until nothing was left unfinished (or the quiet period ran out). */
  settledMs: number;
  /** From the last kill until then. */
  sinceLastKillMs: number;
  quietMs: number;
  /** The hosts' output, for a failure's message. */
  output: string;
}

/**
 * The quiet period: a killed run's lease lapses, the next sweep (every half lease) fails it
 * and frees its flow, Agenda's poll (1 s) picks up a delayed run whose lock lapsed; twice
 * that, plus the last delayed execute's 3 s and a margin for a loaded machine.
 */
export const quietPeriodMs = (leaseSeconds: number) => 2 * leaseSeconds * 1000 + 20_000;

export async function chaosRun(options: {
  hosts: number;
  leaseSeconds: number;
  stepMs: number;
  mongoUrl?: string;
  plan: ChaosPlan;
}): Promise<ChaosOutcome> {
  const { plan, leaseSeconds } = options;
  const begun = Date.now();
  const cluster = await startChaosCluster({ size: options.hosts, leaseSeconds, stepMs: options.stepMs, mongoUrl: options.mongoUrl });
  try {
    const spare = Math.ceil((plan.seconds * 1000) / plan.executeEveryMs) + Math.ceil((plan.seconds * 1000) / plan.delayedEveryMs) + 2;
    const upMs = Date.now() - begun;
    const flows = await setUpChaosFlows(cluster.live()[0]!, cluster.auth, spare);
    const ledger = await runChaos(cluster, flows, plan);
    const loadEnded = Date.now();
    const quietMs = quietPeriodMs(leaseSeconds);
    const { jobs, waitedMs } = await settle(cluster, flows, ledger, quietMs);
    const lastKill = ledger.kills.at(-1) ?? loadEnded;
    // "Near its time" means not stuck behind a dead lock (600 s before the fix); how near is a bench figure, not this bound.
    const verdict = await chaosVerdict(cluster, ledger, jobs, 2 * leaseSeconds * 1000 + 30_000);
    return { verdict, upMs, settledMs: waitedMs, sinceLastKillMs: loadEnded + waitedMs - lastKill, quietMs, output: cluster.output() };
  } finally {
    await cluster.stop();
  }
}
