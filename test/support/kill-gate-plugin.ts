// A plugin for kill tests, loaded by a `flowhost serve` child process (FLOWHOST_PLUGINS): its
// `kill-gate` fetch handler notes each run's job id in the file KILL_GATE_LOG names (so a test
// sees whether a job ran twice, across processes) and, while `<KILL_GATE_LOG>.block` exists,
// never returns: the run stays in its step until the test kills the process. `run-note` only
// notes the run and adds no item, as a first step in front of the fetch a test means to
// watch (the chaos suite's webhook payload): a run's later steps skip items already
// processed, so its own posts cannot show a second run; this line can. It then takes
// KILL_GATE_STEP_MS (default 0), so a kill under load finds runs under way.
import { appendFileSync, existsSync } from 'node:fs';
import { defineHandler } from '../../sdk/index.js';
import { handlerPlugin } from './handler-plugin.js';

/** One line per run, in one write (a kill cannot leave half of one). */
const note = (jobId: number) => {
  const log = process.env.KILL_GATE_LOG;
  if (log) appendFileSync(log, `${jobId}\n`);
  return log;
};

export default handlerPlugin('kill-gate', [
  defineHandler({
    slug: 'kill-gate',
    type: 'fetch',
    label: 'Kill gate',
    description: 'Notes the run; blocks while the block file exists.',
    async fetch(ctx) {
      const log = note(ctx.jobId);
      if (log && existsSync(`${log}.block`)) await new Promise(() => undefined);
      return [{ type: 'item', data: { title: `run of job ${ctx.jobId}` }, metadata: { item_id: `job-${ctx.jobId}` } }];
    },
  }),
  defineHandler({
    slug: 'run-note',
    type: 'fetch',
    label: 'Run note',
    description: 'Notes the run; adds no item.',
    async fetch(ctx) {
      note(ctx.jobId);
      const ms = Number(process.env.KILL_GATE_STEP_MS ?? 0);
      if (ms > 0) await new Promise((r) => setTimeout(r, ms));
      return [];
    },
  }),
]);
