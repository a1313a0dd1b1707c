/**
 * The flows domain's schedule intervals (issue 54): core-workflows owns them as the
 * extension point `flows.intervals`, not a kernel kind. A plugin adds as before,
 * `deps: { intervals: services.intervals }`; one that reads them asks the domain:
 * `deps: { scheduleIntervals: services.scheduleIntervals }`.
 */
import { createExtensionPoint } from '../kernel/extension-point.js';
import { createServiceRef } from '../kernel/service-ref.js';
import type { IntervalDefinition } from '../kernel/contributions.js';

/** How often a flow may run (`scheduling_config.interval`); keyed by `value`, owned by core-workflows. */
export const intervals = createExtensionPoint<IntervalDefinition>({
  id: 'flows.intervals',
  owner: 'core-workflows',
  key: 'value',
  description: 'a schedule interval a flow may run at',
});

/** What a plugin reads of the registered intervals: once the host booted. */
export interface ScheduleIntervals {
  /** Every interval, in the order added (throws before boot). */
  list(): readonly IntervalDefinition[];
  /** The interval with this value. */
  get(value: string): IntervalDefinition | undefined;
}

/** `deps: { scheduleIntervals: services.scheduleIntervals }`: provided by core-workflows. */
export const scheduleIntervalsService = createServiceRef<ScheduleIntervals, 'root'>({ id: 'scheduleIntervals', scope: 'root' });
