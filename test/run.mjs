#!/usr/bin/env node
// Runs every compiled uvu suite (dist/**/*.test.js under test/ and examples/), two at a
// time (CI has 2 cores), plus the suites that mostly wait in a lane of their own (below). Most run in groups, several suites one after another in one
// process (test/support/suite-group.mjs): a process per suite paid Node's start, the host's
// module loading, the JIT's warm-up and a coverage dump each time, half of the suite's CPU.
// Suites that drive processes, proxies or load of their own (fuzz/, e2e/, bench/), the
// example plugin's, and any whose source says `test-runner: alone` get a process each.
// It refuses a leftover uvu `only` call and a suite that never calls `.run()`, and ends
// with the plain summary line CI reads: `N passed, N failed, N skipped`.
//
//   node test/run.mjs                  every suite
//   node test/run.mjs store auth       only suites whose path contains one of the words
//   TEST_RECORD_TIMES=1 node test/run.mjs   also writes each suite's time to test/suite-times.json
//   TEST_ALONE=1 node test/run.mjs     every suite in its own process (to find which one leaks)
//   TEST_WAIT_LANE=0 node test/run.mjs the `test-runner: waits` suites in the workers' queue too
//
// Longest first: the two workers take suites in the order of the times last recorded in
// test/suite-times.json (a suite not recorded yet first of all), so the long ones do not
// start last and leave one worker idle at the end.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { availableParallelism } from 'node:os';

// TEST_RUNNER_ROOT: another checkout's layout (test/package/test-runner.test.ts runs this runner on fixtures).
const root = process.env.TEST_RUNNER_ROOT ?? new URL('..', import.meta.url).pathname;
const filters = process.argv.slice(2);
const sourceRoots = ['test', 'examples'];

function walk(dir, match, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const name of entries) {
    if (name === 'node_modules') continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) walk(full, match, out);
    else if (match(name)) out.push(full);
  }
  return out;
}

// Static checks on the sources, before anything runs. (Built from parts so this file
// does not trip the same check when others grep for it.)
const FOCUSED = new RegExp(['\\.', 'only', '\\('].join(''));
const problems = [];
const sources = sourceRoots.flatMap((d) => walk(join(root, d), (n) => /\.(ts|mjs|js)$/.test(n)));
for (const file of sources) {
  const text = readFileSync(file, 'utf8');
  if (FOCUSED.test(text) && !file.endsWith('run.mjs')) problems.push(`${relative(root, file)}: leftover focused test (only)`);
  if (file.endsWith('.test.ts') && !/\.run\(\)/.test(text)) problems.push(`${relative(root, file)}: suite never calls .run()`);
}

// The example plugin is its own package (scripts/pack-example-plugin.mjs compiles it
// against `npm pack` of this repository): its suites are in its own dist/.
const examplePackage = join(root, 'examples/hello-plugin');
const sourceOf = (f) =>
  f.startsWith(join(examplePackage, 'dist'))
    ? join(examplePackage, relative(join(examplePackage, 'dist'), f)).replace(/\.js$/, '.ts')
    : join(root, relative(join(root, 'dist'), f).replace(/\.js$/, '.ts'));
// Every run of all suites (and one whose words name the example) packs and compiles the
// example first, while the first suites run: it took 6 s before any suite started when
// npm's pretest did it.
const packExample =
  existsSync(join(examplePackage, 'package.json')) &&
  (filters.length === 0 || filters.some((w) => w.startsWith('examples') || 'examples/hello-plugin/'.includes(w)));
const selected = (files) =>
  files
    // A compiled suite whose source is gone (renamed or deleted) is stale output, not a suite;
    // so is the example plugin compiled by the root build before it became its own package.
    .filter((f) => existsSync(sourceOf(f)) && !f.startsWith(join(root, 'dist/examples/hello-plugin/')))
    // Words match the path inside the checkout, so a checkout named after a suite (a worktree
    // such as wt-console-settings) does not select every suite.
    .filter((f) => filters.length === 0 || filters.some((w) => relative(root, f).includes(w)))
    .sort();
const exampleSuites = () => selected(walk(join(examplePackage, 'dist', 'test'), (n) => n.endsWith('.test.js')));
const suites = [
  ...selected(sourceRoots.flatMap((d) => walk(join(root, 'dist', d), (n) => n.endsWith('.test.js')))),
  ...(packExample ? [] : exampleSuites()),
];

const lingerReport = new URL('./support/linger-report.mjs', import.meta.url).href;
const groupRunner = new URL('./support/suite-group.mjs', import.meta.url).pathname;
const strip = (s) => s.replace(/\x1b\[[0-9;]*m/g, '');
const totals = { passed: 0, failed: 0, skipped: 0 };
const failedSuites = [];

// Starts a suite process (`script` and its arguments, with the linger report preloaded) and
// watches it: its output, both streams in order of arrival; the exit rule, that it ends
// within 8 s of printing uvu's `Duration:` summary (hosts stopped leave no timer, socket or
// child behind), or it is killed and fails naming the handles still open (it used to be
// killed after 3 s and counted as passed, which hid every leak; 8 s, not 2: on a loaded
// 2-core CI machine a clean exit alone took more than 2 s, while a real leak such as
// Agenda's watchdog holds a process for minutes); and a time limit. `done` gets the exit
// code and `{ out, lingered }`.
function watch(script, args, { lingerNote, limitMs, limitNote }, done) {
  const child = spawn(process.execPath, ['--enable-source-maps', '--import', lingerReport, script, ...args], {
    cwd: root,
    env: { ...process.env, FORCE_COLOR: '0', NODE_DISABLE_COLORS: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const run = { out: '', lingered: false };
  let lingerTimer;
  child.stdout.on('data', (d) => {
    run.out += d;
    if (!lingerTimer && /\n {2}Duration:/.test(strip(run.out))) {
      lingerTimer = setTimeout(() => {
        run.lingered = true;
        run.out += `\n[runner] ${lingerNote}\n`;
        child.kill('SIGKILL');
      }, 8000);
    }
  });
  child.stderr.on('data', (d) => (run.out += d));
  const timer = setTimeout(() => {
    run.out += `\n[runner] ${limitNote}\n`;
    child.kill('SIGKILL');
  }, limitMs);
  child.on('close', (code) => {
    clearTimeout(timer);
    clearTimeout(lingerTimer);
    done(code, run);
  });
}

function runSuite(file) {
  return new Promise((resolve) => {
    const started = Date.now();
    // The route fuzz sends its whole request budget over every route (more routes, more
    // requests): it gets twice the time of an ordinary suite, which must end within 180 s.
    const limitS = file.endsWith('.fuzz.test.js') ? 360 : 180;
    const options = {
      lingerNote: 'the process did not exit within 8 s of its last test (a timer, socket or child left open)',
      limitMs: limitS * 1000,
      limitNote: `suite timed out after ${limitS} s`,
    };
    watch(file, [], options, (code, run) => {
      let out = run.out;
      const lingered = run.lingered;
      const text = strip(out);
      const num = (label) => {
        const all = [...text.matchAll(new RegExp(`^\\s*${label}:\\s+(\\d+)`, 'gm'))];
        return all.reduce((sum, m) => sum + Number(m[1]), 0);
      };
      const total = num('Total');
      const passed = num('Passed');
      const skipped = num('Skipped') + num('Skipped suites');
      const name = nameOf(file);
      let failed = Math.max(0, total - passed - num('Skipped'));
      if (total === 0 && skipped === 0) {
        failed = Math.max(failed, 1);
        out += '\n[runner] no uvu summary: the suite never ran (.run() missing or the process died)\n';
      }
      if (lingered) failed = Math.max(failed, 1);
      if (code !== 0 && failed === 0 && !lingered) {
        failed = 1;
        out += `\n[runner] exited with code ${code}\n`;
      }
      totals.passed += passed;
      totals.failed += failed;
      totals.skipped += skipped;
      const secs = ((Date.now() - started) / 1000).toFixed(1);
      times[name] = Number(secs);
      if (failed > 0) {
        failedSuites.push(name);
        process.stdout.write(`FAIL ${name} (${secs}s)\n${out}\n`);
      } else {
        process.stdout.write(`ok   ${name}  ${passed} passed${skipped ? `, ${skipped} skipped` : ''} (${secs}s)\n`);
      }
      resolve();
    });
  });
}

// Several suites in one process (test/support/suite-group.mjs). Its output is cut at the
// group's start lines, so each suite is reported as if it had run alone, with its own
// time. A suite that crashes the process or runs out of time fails; the suites the process
// never reached are run again, each alone, so one bad suite costs no one else a result.
// The linger rule applies to the group: it must exit within 8 s of its last suite.
function runGroup(files) {
  return new Promise((resolve) => {
    const options = {
      lingerNote:
        'the group did not exit within 8 s of its last suite (a timer, socket or child left open; TEST_ALONE=1 runs each suite alone to find which)',
      // The group limits each suite to 180 s itself; this only catches a process that hangs
      // outside any suite.
      limitMs: (180 * files.length + 60) * 1000,
      limitNote: 'group timed out',
    };
    watch(
      groupRunner,
      files.map((f) => relative(root, f)),
      options,
      (code, run) => {
        const { out, lingered } = run;
        const sections = new Map();
        let current = null;
        for (const line of strip(out).split('\n')) {
          const start = /^\[suite-group\] start (.+)$/.exec(line);
          const end = /^\[suite-group\] end (\{.+\})$/.exec(line);
          if (start) {
            current = { text: '', result: null };
            sections.set(start[1], current);
          } else if (end && current) {
            current.result = JSON.parse(end[1]);
          } else if (current) {
            current.text += `${line}\n`;
          }
        }
        const rerun = [];
        let reported = 0;
        for (const file of files) {
          const section = sections.get(relative(root, file));
          const name = nameOf(file);
          if (!section) {
            rerun.push(file);
            continue;
          }
          reported++;
          const result = section.result;
          // A MongoDB suite without MONGODB_URL reports itself skipped (test/support/mongo-env.ts).
          if (result) result.skipped += [...section.text.matchAll(/^\s*Skipped suites:\s+(\d+)/gm)].reduce((n, m) => n + Number(m[1]), 0);
          let failed = result ? Math.max(0, result.total - result.passed) : 1;
          if (result && result.total === 0 && result.skipped === 0) {
            failed = 1;
            section.text += '[runner] no tests ran: the suite never called .run() before its module finished loading\n';
          }
          if (!result) section.text += `\n[runner] the group's process ended during this suite (exit code ${code})\n`;
          const secs = result ? (result.ms / 1000).toFixed(1) : '?';
          if (result) times[name] = Number(secs);
          totals.passed += result?.passed ?? 0;
          totals.skipped += result?.skipped ?? 0;
          totals.failed += failed;
          if (failed > 0) {
            failedSuites.push(name);
            process.stdout.write(`FAIL ${name} (${secs}s)\n${section.text}\n`);
          } else {
            const skipped = result.skipped ? `, ${result.skipped} skipped` : '';
            process.stdout.write(
              `ok   ${name}  ${result.passed} passed${skipped} (${secs}s, ${(result.cpu_ms / 1000).toFixed(1)}s CPU, in a group)\n`,
            );
          }
        }
        if (lingered || (code !== 0 && !files.some((f) => failedSuites.includes(nameOf(f))) && rerun.length === 0)) {
          const name = `group of ${files.length} from ${nameOf(files[0])}`;
          failedSuites.push(name);
          totals.failed += 1;
          process.stdout.write(`FAIL ${name}: ${lingered ? 'lingered' : `exited with code ${code}`}\n${out.slice(-4000)}\n`);
        }
        if (rerun.length) {
          process.stdout.write(`[runner] ${rerun.length} suite(s) the group did not reach run again alone (after ${reported})\n`);
          queue.unshift(...rerun.map((f) => ({ files: [f], expected: expected(f) })));
        }
        resolve();
      },
    );
  });
}

if (problems.length) {
  for (const p of problems) console.log(`FAIL ${p}`);
  totals.failed += problems.length;
}
if (suites.length === 0 && !packExample) {
  console.log('FAIL no compiled suites found under dist/ (did the build run?)');
  totals.failed += 1;
}

const timesFile = join(root, 'test', 'suite-times.json');
let recorded = {};
try {
  recorded = JSON.parse(readFileSync(timesFile, 'utf8'));
} catch {
  // No record yet: every suite counts as unknown, and unknown ones go first.
}
const nameOf = (file) => (file.startsWith(examplePackage) ? relative(root, file) : relative(join(root, 'dist'), file));
const expected = (file) => recorded[nameOf(file)] ?? Number.POSITIVE_INFINITY;
// Suites that start processes, browsers' servers or load generators of their own, or
// that test the process itself, run alone; so does the example plugin (its own package,
// its own uvu) and any suite whose source says `test-runner: alone`. The rest run in
// groups of about GROUP_BUDGET_S of recorded time (times recorded alone: a group takes about
// half), in path order (neighbours share modules). 60 s measured best: one npm test 287 s
// at 40, 270 s at 60, 277 s at 120 (fewer processes, but a longer last group).
const ALONE_MARK = ['test-runner', 'alone'].join(': ');
// Suites whose time is real waiting (timeouts a hostile client must hit, Agenda's real-time
// polls, a stop's grace period) say `test-runner: waits`: each runs alone, in a lane of its
// own beside the two workers, so their seconds of idle waiting overlap the CPU-bound
// suites instead of holding a core's worker. Measured with /usr/bin/time (children
// included), each used under two fifths of a core over its run. Browser suites stay out:
// Chromium is CPU-heavy and timing-sensitive under load. TEST_WAIT_LANE=0 puts them back
// in the workers' queue.
const WAITS_MARK = ['test-runner', 'waits'].join(': ');
const waitLane = process.env.TEST_WAIT_LANE !== '0' && process.env.TEST_ALONE !== '1';
const waits = (file) => waitLane && !file.startsWith(examplePackage) && readFileSync(sourceOf(file), 'utf8').includes(WAITS_MARK);
const aloneByPath = (file) => ['/fuzz/', '/e2e/', '/bench/'].some((part) => file.includes(part)) || file.startsWith(examplePackage);
const alone = (file) => process.env.TEST_ALONE === '1' || aloneByPath(file) || readFileSync(sourceOf(file), 'utf8').includes(ALONE_MARK);
const GROUP_BUDGET_S = 60;
const GROUP_FILES = 25;
const units = [];
let group = null;
const waitUnits = [];
for (const file of suites) {
  if (waits(file)) {
    waitUnits.push({ files: [file], expected: expected(file) });
    continue;
  }
  if (alone(file)) {
    units.push({ files: [file], expected: expected(file) });
    continue;
  }
  const cost = Number.isFinite(expected(file)) ? expected(file) : 5;
  if (!group || group.expected + cost > GROUP_BUDGET_S || group.files.length >= GROUP_FILES) {
    group = { files: [], expected: 0, grouped: true };
    units.push(group);
  }
  group.files.push(file);
  group.expected += cost;
}
// The example's pack (scripts/pack-example-plugin.mjs) starts now; a worker that takes its
// unit waits for it, then runs the example's suites, each alone.
let packed;
if (packExample) {
  packed = new Promise((resolve) => {
    const child = spawn(process.execPath, [join(root, 'scripts/pack-example-plugin.mjs')], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    child.on('close', (code) => resolve({ code, out }));
  });
  units.push({ files: ['examples/hello-plugin (packed and compiled first)'], expected: 12, pack: true });
}
async function runExample() {
  const { code, out } = await packed;
  if (code !== 0) {
    failedSuites.push('examples/hello-plugin: pack and compile');
    totals.failed += 1;
    process.stdout.write(`FAIL examples/hello-plugin: packing and compiling the example failed (exit ${code})\n${out}\n`);
    return;
  }
  process.stdout.write(out);
  for (const file of exampleSuites()) await runSuite(file);
}
const byLongest = (a, b) => b.expected - a.expected || a.files[0].localeCompare(b.files[0]);
const queue = units.sort(byLongest);
const waitQueue = [...waitUnits].sort(byLongest);
const times = {};
const workers = Math.max(1, Math.min(Number(process.env.TEST_CONCURRENCY) || availableParallelism(), 4));
// When each worker ran out of work: a worker idle long before the other means the queue's
// order (or one long unit) sets the run's length, not its total work.
const runStarted = Date.now();
const finishedAt = [];
let waitLaneDone = null;
await Promise.all([
  ...Array.from({ length: workers }, async (_, worker) => {
    while (queue.length) {
      const unit = queue.shift();
      if (unit.pack) await runExample();
      else if (unit.grouped) await runGroup(unit.files);
      else await runSuite(unit.files[0]);
    }
    finishedAt[worker] = ((Date.now() - runStarted) / 1000).toFixed(0);
  }),
  (async () => {
    if (waitQueue.length === 0) return;
    while (waitQueue.length) await runSuite(waitQueue.shift().files[0]);
    waitLaneDone = ((Date.now() - runStarted) / 1000).toFixed(0);
  })(),
]);
const laneNote = waitLaneDone === null ? '' : `; the waiting lane (${waitUnits.length} suites) at ${waitLaneDone} s`;
console.log(`[runner] ${workers} workers, done at ${finishedAt.map((s) => `${s} s`).join(', ')}${laneNote}`);

if (process.env.TEST_RECORD_TIMES === '1' && filters.length === 0) {
  const sorted = Object.fromEntries(Object.entries(times).sort(([a], [b]) => a.localeCompare(b)));
  writeFileSync(timesFile, `${JSON.stringify(sorted, null, 2)}\n`);
}
if (failedSuites.length) console.log(`\nfailed suites:\n  ${failedSuites.join('\n  ')}`);
console.log(`${totals.passed} passed, ${totals.failed} failed${totals.skipped ? `, ${totals.skipped} skipped` : ''}`);
process.exitCode = totals.failed > 0 ? 1 : 0;
