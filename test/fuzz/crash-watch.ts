// The host runs in this process: an uncaught exception or unhandled rejection would have
// killed a real server. Record them (the listeners keep the process alive so the suite can
// report them), abort the requests in flight when one happens (the crashed request would
// otherwise wait for its timeout), and check that no generated key reached
// Object.prototype.

export interface Crash {
  kind: 'uncaughtException' | 'unhandledRejection';
  error: string;
}

const crashes: Crash[] = [];
const inFlight = new Set<AbortController>();
let watching = false;

function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}\n${(error.stack ?? '').split('\n').slice(1, 6).join('\n')}`;
  return String(error);
}

function record(kind: Crash['kind'], error: unknown): void {
  crashes.push({ kind, error: describe(error) });
  for (const controller of inFlight) controller.abort(new Error(`${kind} in the host: ${describe(error).split('\n')[0]}`));
}

/** Starts recording (once per process). */
export function watchCrashes(): void {
  if (watching) return;
  watching = true;
  process.on('uncaughtException', (error) => record('uncaughtException', error));
  process.on('unhandledRejection', (reason) => record('unhandledRejection', reason));
}

/** A signal aborted by the next crash; call `release` when the request is done. */
export function crashSignal(): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  inFlight.add(controller);
  return { signal: controller.signal, release: () => inFlight.delete(controller) };
}

/** Crashes recorded since `from` (an earlier crashCount()). */
export function crashesSince(from: number): Crash[] {
  return crashes.slice(from);
}

export function crashCount(): number {
  return crashes.length;
}

const baseline = new Set(Object.getOwnPropertyNames(Object.prototype));

/** Keys a request added to Object.prototype (or made every object inherit), if any. */
export function prototypePollution(): string[] {
  const found = Object.getOwnPropertyNames(Object.prototype).filter((k) => !baseline.has(k));
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined && !found.includes('polluted')) found.push('polluted (inherited)');
  return found;
}
