import type { StoreKind } from '../store/port.js';

/**
 * Work a host marks `running` in the store (an engine run, a plugin's long job) and a
 * killed host leaves so. At boot the kernel and plugins close it (failed as interrupted,
 * claims and leases released) when it started before `startedBefore`: the boot instant on
 * the embedded store, whose file this process alone holds; an hour before it on MongoDB,
 * where other hosts may be in the middle of their own work.
 */
export interface InterruptedWork {
  startedBefore: Date;
}

/** How long work on a shared store may run before a booting host may call it interrupted. */
export const SHARED_STORE_GRACE_MS = 3600_000;

export function interruptedWork(storeKind: StoreKind, now: Date): InterruptedWork {
  return { startedBefore: new Date(now.getTime() - (storeKind === 'embedded' ? 0 : SHARED_STORE_GRACE_MS)) };
}
