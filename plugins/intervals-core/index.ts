import { defineInterval, definePlugin, services, type IntervalDefinition } from '../../sdk/index.js';

/** The spec's scheduling intervals (01-core-administration.md, "Scheduling intervals"). */
export const coreIntervals: IntervalDefinition[] = [
  defineInterval({ value: 'manual', label: 'Manual only', seconds: null }),
  defineInterval({ value: 'one_time', label: 'One time', seconds: null }),
  defineInterval({ value: 'every_5_minutes', label: 'Every 5 minutes', seconds: 300 }),
  defineInterval({ value: 'hourly', label: 'Hourly', seconds: 3600 }),
  defineInterval({ value: 'every_2_hours', label: 'Every 2 hours', seconds: 7200 }),
  defineInterval({ value: 'every_4_hours', label: 'Every 4 hours', seconds: 14400 }),
  defineInterval({ value: 'qtrdaily', label: 'Every 6 hours', seconds: 21600 }),
  defineInterval({ value: 'twicedaily', label: 'Twice daily', seconds: 43200 }),
  defineInterval({ value: 'daily', label: 'Daily', seconds: 86400 }),
  defineInterval({ value: 'weekly', label: 'Weekly', seconds: 604800 }),
];

export default definePlugin({
  id: 'intervals-core',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'The scheduling intervals of the spec: manual, one_time, every_5_minutes ... weekly.',
  deps: { intervals: services.intervals },
  setup({ intervals }) {
    for (const interval of coreIntervals) intervals.add(interval);
  },
});
