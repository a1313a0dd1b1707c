// `flowhost prune [--dry-run] [--json]` on both stores: what the retention job would free
// and then frees (jobs, their log lines, bytes given back), in bounded calls with progress on
// stderr; a dry run deletes nothing; a running job is never pruned.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson as json, runCli as run, startCliHost } from '../../support/cli-in-process.js';
import { hostApi } from '../../support/host-api.js';
import { testStores } from '../../support/test-stores.js';
import type { Host } from '../../../host/host.js';

type Ctx = { host: Host; dataDir: string };
type Report = {
  dry_run: boolean;
  jobs: number;
  log_lines: number;
  processed_items: number;
  bytes_freed: number | null;
  remaining: { jobs: number };
  store: { kind: string; bytes: number } | null;
};

/** More than one call's worth (5,000), so the command pages and reports progress. */
const OLD_JOBS = 5200;
const LOGGED = 30;

async function seed(host: Host): Promise<void> {
  const at = new Date(Date.now() - 10 * 86_400_000);
  const base = { flow_id: null, pipeline_id: null, parent_job_id: null, label: 'old', engine_data: {}, workflow: null, steps: [] };
  const docs = Array.from({ length: OLD_JOBS }, (_, i) => ({
    ...base,
    job_id: 500_000 + i,
    status: i % 2 ? 'completed' : 'failed',
    error: null,
    action_id: null,
    source: 'execute',
    created_at: at,
    scheduled_for: null,
    started_at: at,
    completed_at: at,
  }));
  // One old job still running: never pruned, however old.
  docs.push({ ...docs[0]!, job_id: 600_000, status: 'processing', completed_at: null as unknown as Date });
  for (let i = 0; i < docs.length; i += 1000) await host.jobs.jobs.insertMany(docs.slice(i, i + 1000) as never[]);
  for (let i = 0; i < LOGGED; i++) await host.logs.write({ message: `Job ${500_000 + i} completed`, context: { job_id: 500_000 + i } });
  await host.logs.flush();
}

for (const store of testStores('cli prune')) {
  const test = suite<Ctx>(`cli: prune (${store.label})`);
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config()));
    await seed(ctx.host);
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
  });

  test('with retention off, nothing is pruned and the command says why', async (ctx) => {
    const text = await run(ctx, ['prune']);
    assert.is(text.status, 0, text.stderr);
    assert.match(text.stdout, /Nothing to prune: job_retention_days is 0/);
  });

  test('--dry-run --json counts what would go and deletes nothing; then prune frees it', async (ctx) => {
    assert.is((await hostApi(ctx.dataDir, 'PATCH', '/settings', { job_retention_days: 7 })).status, 200);
    const dry = await json<Report>(ctx, ['prune', '--dry-run', '--json']);
    assert.is(dry.dry_run, true);
    assert.is(dry.jobs, OLD_JOBS);
    assert.is(dry.log_lines, LOGGED);
    assert.is(dry.bytes_freed, null);
    assert.is(await ctx.host.jobs.jobs.count({}), OLD_JOBS + 1, 'a dry run deletes nothing');

    const text = await run(ctx, ['prune']);
    assert.is(text.status, 0, text.stderr);
    assert.match(text.stderr, /5000 job\(s\), \d+ log line\(s\) so far; 200 job\(s\) to go/, 'progress between calls');
    assert.match(text.stdout, new RegExp(`Pruned ${OLD_JOBS} job\\(s\\) and ${LOGGED} log line\\(s\\)`));
    assert.match(text.stdout, /Store: [\d.]+ MiB/);
    if (store.label === 'embedded') assert.match(text.stdout, /Gave back [\d.]+ MiB/);
    const left = await ctx.host.jobs.jobs.find({});
    assert.equal(
      left.map((job) => job.status),
      ['processing'],
      'only the running job is left',
    );
    const logs = (await hostApi(ctx.dataDir, 'GET', '/logs?job_id=500001')).body as { data: { total: number } };
    assert.is(logs.data.total, 0, "a pruned job's log lines are gone");

    const again = await json<Report>(ctx, ['prune', '--json']);
    assert.is(again.jobs, 0);
    assert.is(again.store?.kind, store.label);
    assert.ok((again.store?.bytes ?? 0) > 0);
  });

  test.run();
}
