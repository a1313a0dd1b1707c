import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { applyHeapGrowth } from '../../../host/runtime/heap-growth.js';

const test = suite('host: heap growth between full collections');
const child = fileURLToPath(new URL('../../support/heap-growth-child.js', import.meta.url));

interface Churn {
  live_mb: number;
  peak_mb: number;
}

function churn(percent: number): Promise<Churn> {
  return new Promise((resolve, reject) => {
    execFile(process.execPath, ['--expose-gc', '--single-threaded-gc', child, String(percent)], { timeout: 60_000 }, (error, stdout) =>
      error ? reject(error) : resolve(JSON.parse(stdout) as Churn),
    );
  });
}

test('under churn a capped heap stays within twice its live set, and never above the uncapped heap', async () => {
  // What the setting promises a served host: garbage does not pile up to several times the
  // live set before a full collection. Node 20's V8 lets this churn reach three times the
  // live set on its own and keeps it under twice with the cap; Node 24's V8 already keeps it
  // under twice, and the cap must not make it worse. What it saves under the webhook load is
  // measured by bench trigger (rss_mb_under_load).
  const [capped, uncapped] = await Promise.all([churn(50), churn(0)]);
  assert.ok(capped.live_mb > 60, `the churn keeps its live set (${capped.live_mb} MB)`);
  assert.ok(capped.peak_mb <= 2 * capped.live_mb, `capped: peak ${capped.peak_mb} MB for ${capped.live_mb} MB live`);
  assert.ok(capped.peak_mb <= uncapped.peak_mb, `capped ${capped.peak_mb} MB, uncapped ${uncapped.peak_mb} MB`);
});

test('0 leaves V8 alone; a negative or fractional percent is refused', async () => {
  applyHeapGrowth(0);
  assert.throws(
    () => applyHeapGrowth(-1),
    (e: Error) => e instanceof RangeError && /heapGrowingPercent/.test(e.message),
  );
  assert.throws(() => applyHeapGrowth(1.5), RangeError);
});

test.run();
