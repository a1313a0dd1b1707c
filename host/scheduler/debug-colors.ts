// Agenda logs through the `debug` package and builds a new debug logger at every step of
// its local queue walk (`log.extend(...)`, after every job ends). Each new logger asks
// whether stderr is a terminal (an isatty syscall) unless DEBUG_COLORS has decided it. In
// the scheduler benchmark's profile that was the largest single cost of a scheduled run:
// 4.6 s of a 40 s profile at 80 runs/s. The answer is taken once, the way `debug` itself
// takes it (DEBUG_COLORS still wins when set), on the copy of `debug` Agenda loads.
import { createRequire } from 'node:module';
import { isatty } from 'node:tty';

interface DebugModule {
  inspectOpts?: Record<string, unknown>;
}

let settled = false;

export function settleDebugColors(): void {
  if (settled) return;
  settled = true;
  try {
    const fromAgenda = createRequire(createRequire(import.meta.url).resolve('agenda'));
    const debug = fromAgenda('debug') as DebugModule;
    if (debug.inspectOpts && !('colors' in debug.inspectOpts)) debug.inspectOpts.colors = isatty(process.stderr.fd);
  } catch {
    // A layout where `debug` cannot be found this way: Agenda still works, only slower.
  }
}
