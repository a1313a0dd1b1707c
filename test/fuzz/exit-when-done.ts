// The scheduler's job watchdog (Agenda) sleeps lockLifetime/2 — five minutes — on a timer it
// never clears, which keeps a finished suite's process alive (test/run.mjs kills such a
// process 3 s after uvu's summary). Suites run directly or by run-fuzz.mjs exit on their own:
// once the last store's hooks are done, a timer that does not itself hold the process open
// ends it shortly after uvu has printed its summary, keeping uvu's exit code.
export function exitWhenDone(delayMs = 2000): void {
  setTimeout(() => process.exit(), delayMs).unref();
}
