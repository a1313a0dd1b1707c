// Runs several compiled uvu suites one after another in this one process (test/run.mjs
// starts it with the files as arguments). A process per suite paid Node's start, the
// loading of the host's modules, the JIT's warm-up and a coverage dump of about 5 MB for
// every one of about two hundred suites: together about half of `npm test`'s CPU. Here
// those are paid once per group.
//
// Each suite is imported and run before the next is imported, so its top-level code runs
// right before its own tests, as it did alone. For each file this prints a start line, the
// suite's own uvu output, and an end line with its counts as JSON, which test/run.mjs reads:
//
//   [suite-group] start dist/test/core/x.test.js
//   [suite-group] end {"file":"dist/test/core/x.test.js","total":3,"passed":3,"skipped":0,"ms":120,"cpu_ms":95}
//
// A suite that runs longer than SUITE_GROUP_LIMIT_S (180 s) ends the process with a line
// saying so; test/run.mjs then runs the files this process did not reach on their own.
// The last line is uvu's `Duration:` summary, after which the process must exit by itself
// (the runner's linger rule).
import { pathToFileURL } from 'node:url';

// uvu reads this when it is first imported: queue every `.run()` instead of running on a timer.
globalThis.UVU_DEFER = 1;
await import('uvu');
const queue = globalThis.UVU_QUEUE;
const write = (text) => process.stdout.write(text);
const limitMs = Number(process.env.SUITE_GROUP_LIMIT_S ?? 180) * 1000;
const started = performance.now();
let failures = 0;

for (const [index, file] of process.argv.slice(2).entries()) {
  write(`\n[suite-group] start ${file}\n`);
  const from = performance.now();
  const cpuFrom = process.cpuUsage();
  const timer = setTimeout(() => {
    write(`\n[suite-group] timeout ${file} ran longer than ${limitMs / 1000} s\n`);
    process.exit(1);
  }, limitMs);
  const result = { file, total: 0, passed: 0, skipped: 0, ms: 0 };
  globalThis.UVU_INDEX = index;
  queue[index] = [];
  try {
    await import(pathToFileURL(file).href);
    // Each `.run()` of the file queued one suite runner: [errors || true, passed, skipped, total].
    for (const run of queue[index]) {
      const [errors, passed, skipped, total] = await run();
      result.total += total;
      result.passed += passed;
      result.skipped += skipped;
      if (errors !== true) write(`\n${errors}\n`);
    }
  } catch (error) {
    // The file failed while loading (or a hook threw outside uvu's own catch).
    result.total += 1;
    write(`\n[suite-group] ${file} threw: ${error?.stack ?? error}\n`);
  }
  clearTimeout(timer);
  queue[index] = [];
  result.ms = Math.round(performance.now() - from);
  // This process's CPU during the suite (children it started not included).
  const cpu = process.cpuUsage(cpuFrom);
  result.cpu_ms = Math.round((cpu.user + cpu.system) / 1000);
  if (result.passed < result.total) failures += 1;
  write(`\n[suite-group] end ${JSON.stringify(result)}\n`);
}

write(`\n  Duration:  ${(performance.now() - started).toFixed(2)}ms\n\n`);
process.exitCode = failures > 0 ? 1 : 0;
