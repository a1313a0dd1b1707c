/**
 * The collectors, loaded after the host's first answer instead of at start: prom-client
 * and the OpenTelemetry API it requires are 87 CommonJS modules, about 50 ms that every
 * start spent before it could answer anything. What is measured before they load (the
 * boot's store calls, the first request) is kept in order and replayed into them, so
 * every count and histogram is as if they had been there from the start. A scrape waits
 * for them.
 */
import type { Collectors } from './collectors.js';

type Measured = Omit<Collectors, 'registry'>;
type Kind = keyof Measured;
type Measurement = { [K in Kind]: { kind: K; value: Parameters<Measured[K]>[0] } }[Kind];

/**
 * More than a start and its first requests make. A host that answers no request for a while
 * (scheduled runs only) reaches it: then the collectors load, so nothing is dropped and the
 * backlog never grows without bound.
 */
const MAX_PENDING = 10_000;

export interface DeferredCollectors extends Measured {
  /** The collectors, loading them now if nothing has yet. */
  loaded(): Promise<Collectors>;
  /** Starts loading after the current turn (the answer that triggered it is already written). */
  loadSoon(): void;
}

export function deferredCollectors(load: () => Promise<Collectors>): DeferredCollectors {
  let ready: Collectors | undefined;
  let loading: Promise<Collectors> | undefined;
  let pending: Measurement[] = [];
  let scheduled = false;
  const apply = (to: Collectors, m: Measurement) => (to[m.kind] as (value: Measurement['value']) => void)(m.value);
  const loaded = () =>
    (loading ??= load().then(
      (collectors) => {
        for (const m of pending) apply(collectors, m);
        pending = [];
        ready = collectors;
        return collectors;
      },
      (error: unknown) => {
        // What was kept cannot be recorded: let it go (the backlog stays bounded), and let
        // the next scrape or full backlog try again instead of failing on this promise forever.
        pending = [];
        loading = undefined;
        scheduled = false;
        throw error;
      },
    ));
  const record = (m: Measurement) => {
    if (ready) return apply(ready, m);
    pending.push(m);
    if (pending.length >= MAX_PENDING) deferred.loadSoon();
  };
  const deferred: DeferredCollectors = {
    request: (value) => record({ kind: 'request', value }),
    step: (value) => record({ kind: 'step', value }),
    job: (value) => record({ kind: 'job', value }),
    scheduled: (value) => record({ kind: 'scheduled', value }),
    storeOperation: (value) => record({ kind: 'storeOperation', value }),
    loaded,
    loadSoon() {
      if (loading || scheduled) return;
      scheduled = true;
      // A failed load is seen by the scrape that awaits it (loaded() answers the same promise).
      setImmediate(() => void loaded().catch(() => undefined));
    },
  };
  return deferred;
}
