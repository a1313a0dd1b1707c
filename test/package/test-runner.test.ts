// The suite runner itself (test/run.mjs), on a fixture checkout: suites share a process in
// groups, yet each is reported alone; a failing suite fails alone; one that crashes its
// group's process fails, and the suites the group had not reached run again, each in its
// own process, and pass; a suite whose source carries the alone mark gets its own process; one
// marked as waiting runs in the waiting lane, beside the workers; the summary line counts all
// of it and the exit code says a suite failed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';

const test = suite('test runner: groups of suites in one process');

const passing = (name: string) =>
  `import { suite } from 'uvu'; import * as assert from 'uvu/assert';\nconst t = suite('${name}'); t('works', () => assert.ok(true)); t('also', () => assert.ok(true)); t.run();\n`;
/** A suite that writes `<own>.mark` in its working directory and passes once `<other>.mark` appears (20 s at most). */
const meeting = (own: string, other: string) =>
  `import { suite } from 'uvu'; import * as assert from 'uvu/assert'; import { existsSync, writeFileSync } from 'node:fs';\n` +
  `const t = suite('${own}'); t('meets ${other}', async () => { writeFileSync('${own}.mark', ''); const until = Date.now() + 20000;\n` +
  `  while (!existsSync('${other}.mark') && Date.now() < until) await new Promise((r) => setTimeout(r, 50));\n` +
  `  assert.ok(existsSync('${other}.mark'), '${other} ran at the same time'); }); t.run();\n`;
const SUITES: Record<string, string> = {
  'a.test.js': passing('a'),
  'b.test.js':
    "import { suite } from 'uvu'; import * as assert from 'uvu/assert';\nconst t = suite('b'); t('ok', () => assert.ok(true)); t('wrong sum', () => assert.is(1 + 1, 3)); t.run();\n",
  // Throws outside any test: the group's process dies during this suite.
  'c.test.js':
    "import { suite } from 'uvu';\nconst t = suite('c'); t('crashes the process', async () => { setTimeout(() => { throw new Error('boom'); }, 1); await new Promise((r) => setTimeout(r, 500)); }); t.run();\n",
  'd.test.js': passing('d'),
  // (The mark built from parts, so this file itself is not marked.)
  'e.test.js': `// ${['test-runner', 'alone'].join(': ')}\n${passing('e')}`,
  // f (marked as waiting) and g (an ordinary suite) each leave a mark and wait for the
  // other's: both pass only if they run at the same time, f in the waiting lane while the
  // only worker runs g.
  'f.test.js': `// ${['test-runner', 'waits'].join(': ')}\n${meeting('f', 'g')}`,
  'g.test.js': meeting('g', 'f'),
};

test('each suite is reported as if alone; a crash costs no other suite its result', () => {
  const root = mkdtempSync(join(tmpdir(), 'flowhost-runner-'));
  try {
    // The fixture's suites import uvu as this checkout's do (a symlink keeps one copy).
    symlinkSync(join(repoRoot, 'node_modules'), join(root, 'node_modules'));
    mkdirSync(join(root, 'dist/test/fx'), { recursive: true });
    mkdirSync(join(root, 'test/fx'), { recursive: true });
    for (const [file, code] of Object.entries(SUITES)) {
      writeFileSync(join(root, 'dist/test/fx', file), code);
      // The source the runner checks (`.run()` called, no focused test), as tsc's input would be.
      writeFileSync(join(root, 'test/fx', file.replace(/\.js$/, '.ts')), code);
    }
    const run = spawnSync(process.execPath, [join(repoRoot, 'test/run.mjs')], {
      cwd: root,
      env: { ...process.env, TEST_RUNNER_ROOT: root, TEST_CONCURRENCY: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    const out = run.stdout;
    assert.is(run.status, 1, out);
    assert.match(out, /^ok {3}test\/fx\/a\.test\.js {2}2 passed \([\d.]+s, [\d.]+s CPU, in a group\)$/m);
    assert.match(out, /^FAIL test\/fx\/b\.test\.js/m);
    assert.match(out, /wrong sum/);
    assert.match(out, /^FAIL test\/fx\/c\.test\.js/m);
    assert.match(out, /Error: boom/);
    assert.match(out, /the group's process ended during this suite/);
    // d and g were in c's group, after it: each ran again in a process of its own, and passed.
    assert.match(out, /2 suite\(s\) the group did not reach run again alone/);
    assert.match(out, /^ok {3}test\/fx\/d\.test\.js {2}2 passed \([\d.]+s\)$/m);
    assert.match(out, /^ok {3}test\/fx\/e\.test\.js {2}2 passed \([\d.]+s\)$/m, 'marked alone: a process of its own');
    assert.match(out, /^ok {3}test\/fx\/f\.test\.js {2}1 passed \([\d.]+s\)$/m, 'marked as waiting: a process of its own');
    assert.match(out, /^ok {3}test\/fx\/g\.test\.js {2}1 passed/m, 'g met f: the waiting lane ran beside the worker');
    assert.match(out, /the waiting lane \(1 suites\) at \d+ s/);
    // a 2 + b 1 + d 2 + e 2 + f 1 + g 1 passed; b's wrong sum and c's crash failed.
    assert.match(out.trim().split('\n').pop()!, /^9 passed, 2 failed$/);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

test.run();
