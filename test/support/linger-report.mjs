// Preloaded into every suite by test/run.mjs (--import). Once uvu has printed its summary,
// a process that is still alive 1.5 s later is about to fail the runner's exit rule: this
// prints what still holds it open (Node's active resources), so the leak can be found. Its
// own timer is unref'd: it never keeps a process alive by itself.
//
// LINGER_TRACE=1 also names each timer still holding the process by where it was set
// (an async hook notes every timer's stack: slower, so for hunting a leak only).
import { createHook } from 'node:async_hooks';

const traced = new Map();
if (process.env.LINGER_TRACE) {
  createHook({
    init(id, type, _trigger, resource) {
      if (type === 'Timeout') traced.set(id, { resource, stack: new Error().stack.split('\n').slice(2, 9).join('\n') });
    },
    destroy(id) {
      traced.delete(id);
    },
  }).enable();
}

const write = process.stdout.write.bind(process.stdout);
let armed = false;
process.stdout.write = (chunk, ...rest) => {
  if (!armed && String(chunk).includes('Duration:')) {
    armed = true;
    setTimeout(() => {
      const open = process.getActiveResourcesInfo().filter((r) => r !== 'TTYWrap');
      const timers = [...traced.values()].filter((t) => t.resource.hasRef?.() && !t.resource._destroyed);
      process.stderr.write(`[linger] still open 6 s after the summary: ${open.join(', ') || '(nothing)'}\n`);
      for (const t of timers) process.stderr.write(`[linger] timer set at\n${t.stack}\n`);
    }, 6000).unref();
  }
  return write(chunk, ...rest);
};
