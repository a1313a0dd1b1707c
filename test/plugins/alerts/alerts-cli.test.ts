// `flowhost alerts show|set|test` on both stores, as an operator with FLOWHOST_PLUGINS=alerts
// meets it: values typed as key=value, --json throughout, the webhook secret never printed.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { rmSync } from 'node:fs';
import type { Host } from '../../../host/host.js';
import { cliInProcess, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import alerts from '../../../plugins/alerts/index.js';

const SECRET = 'cli-alert-secret-0123456789';

for (const store of testStores('alerts cli')) {
  const test = suite<{ host: Host; dataDir: string }>(`alerts cli (${store.label})`);
  const cli = (ctx: { dataDir: string }, ...args: string[]) =>
    cliInProcess([...args, '--data-dir', ctx.dataDir], { env: { FLOWHOST_PLUGINS: 'alerts' } });
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(store.config(), [alerts]));
  });
  test.after(async (ctx) => {
    await ctx.host.stop();
    rmSync(ctx.dataDir, { recursive: true, force: true });
  });

  test('set takes key=value pairs and answers the settings with the secret masked', async (ctx) => {
    const set = await cli(
      ctx,
      'alerts',
      'set',
      'webhook_url=http://127.0.0.1:9/hook',
      `webhook_secret=${SECRET}`,
      'window_minutes=0',
      '--json',
    );
    assert.is(set.status, 0, set.stderr);
    const json = JSON.parse(set.stdout);
    assert.equal([json.webhook_url, json.window_minutes, json.webhook_secret_set], ['http://127.0.0.1:9/hook', 0, true]);
    assert.not.ok(set.stdout.includes(SECRET));
    const show = await cli(ctx, 'alerts', 'show');
    assert.is(show.status, 0, show.stderr);
    assert.match(show.stdout, /window_minutes\s+0/);
    assert.not.ok(show.stdout.includes(SECRET));
  });

  test('a bad value is refused naming the field; a bad pair says how to write one', async (ctx) => {
    const bad = await cli(ctx, 'alerts', 'set', 'notify=sometimes');
    assert.is.not(bad.status, 0);
    assert.match(bad.stderr, /notify/);
    const noPair = await cli(ctx, 'alerts', 'set', 'window_minutes');
    assert.is.not(noPair.status, 0);
    assert.match(noPair.stderr, /key=value/);
  });

  test('test says how each channel went', async (ctx) => {
    const res = await cli(ctx, 'alerts', 'test');
    assert.is(res.status, 0, res.stderr);
    assert.match(res.stdout, /^webhook\s+not sent: /);
  });

  test.run();
}
