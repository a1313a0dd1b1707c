// Every benchmark in its seconds-long smoke mode, so none of them rots between the runs
// that measure (npm run bench). Targets are not asserted here: a loaded CI machine says
// nothing about speed. What is asserted: each benchmark runs to the end and prints one
// JSON object with its figures and targets.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';

const test = suite('bench: every benchmark runs in smoke mode and prints its JSON');

test('npm run bench -- --json, smoke mode: one object per benchmark with metrics and targets', () => {
  const result = spawnSync(process.execPath, [join(repoRoot, 'dist/bench/run.js'), '--json', '--docs', '5000'], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, BENCH_SMOKE: '1' },
    encoding: 'utf8',
    timeout: 170_000,
  });
  // 0: every target met; 1: some target missed (expected on a busy machine); anything else is a crash.
  assert.ok(
    result.status === 0 || result.status === 1,
    `bench exited ${result.status} ${result.signal ?? ''}: ${result.stderr.slice(-2000)}`,
  );
  const objects = result.stdout
    .trim()
    .split('\n')
    .map(
      (line) =>
        JSON.parse(line) as { name: string; metrics: Record<string, number>; targets: Record<string, { limit: number; pass: boolean }> },
    );
  assert.equal(objects.map((o) => o.name).sort(), [
    'events',
    'execute',
    'logs',
    'recovery',
    'retention',
    'runs',
    'scheduler',
    'startup',
    'store',
    'trigger',
    'workers',
  ]);
  for (const o of objects) {
    assert.ok(Object.keys(o.targets).length > 0, `${o.name} declares targets`);
    for (const [metric, value] of Object.entries(o.metrics))
      assert.ok(Number.isFinite(value), `${o.name}.${metric} is a number (${value})`);
    for (const [metric, target] of Object.entries(o.targets)) assert.type(target.pass, 'boolean', `${o.name}.${metric}`);
  }
  const runs = objects.find((o) => o.name === 'runs')!;
  assert.is(runs.metrics.failed, 0, 'no run failed');
  const trigger = objects.find((o) => o.name === 'trigger')!;
  assert.is(trigger.metrics.jobs_missing, 0, 'every accepted trigger is a stored job');
  // The floor server (bench/trigger-floor.ts) answered and stored what it accepted.
  assert.ok(trigger.metrics.floor_req_per_s > 0, 'the floor server answered');
  assert.is(trigger.metrics.floor_jobs_missing, 0, 'every 200 of the floor server is a stored job');
  // The host's HTTP layer alone (a route that does nothing) answered, for reference.
  assert.ok(trigger.metrics.layer_req_per_s > 0 && trigger.metrics.layer_cpu_us_per_request > 0, 'the do-nothing route answered');
  // A host killed with runs held and deliveries queued: every job it left ended (issue 53).
  const recovery = objects.find((o) => o.name === 'recovery')!;
  assert.ok(recovery.metrics.embedded_kill_to_last_orphan_ms! > 0, 'the kill to the last orphan is measured');
  assert.is(recovery.targets.embedded_orphans_ended_right?.pass, true, 'the held runs failed as interrupted, the queued ones completed');
  const scheduler = objects.find((o) => o.name === 'scheduler')!;
  assert.is(scheduler.metrics.run_twice, 0, 'no scheduled flow ran twice in one slot');
  assert.is(scheduler.metrics.skipped, 0, 'no scheduled flow was skipped');
  // No MONGODB_URL reaches this run: serve --workers needs MongoDB, so the benchmark skips.
  assert.is(objects.find((o) => o.name === 'workers')!.metrics.skipped, 1, 'workers skips without MongoDB');
});

test.run();
