// A plugin for kill tests, loaded by a `flowhost serve` child process (FLOWHOST_PLUGINS): its
// `kill-gate` fetch handler notes each run's job id in the file KILL_GATE_LOG names (so a test
// sees whether a job ran twice, across processes) and, while `<KILL_GATE_LOG>.block` exists,
// never returns: the run stays in its step until the test kills the process.
import { appendFileSync, existsSync } from 'node:fs';
import { defineHandler } from '../../sdk/index.js';
import { handlerPlugin } from './handler-plugin.js';

export default handlerPlugin('kill-gate', [
  defineHandler({
    slug: 'kill-gate',
    type: 'fetch',
    label: 'Kill gate',
    description: 'Notes the run; blocks while the block file exists.',
    async fetch(ctx) {
      const log = process.env.KILL_GATE_LOG;
      if (log) {
        appendFileSync(log, `${ctx.jobId}\n`);
        if (existsSync(`${log}.block`)) await new Promise(() => undefined);
      }
      return [{ type: 'item', data: { title: `run of job ${ctx.jobId}` }, metadata: { item_id: `job-${ctx.jobId}` } }];
    },
  }),
]);
