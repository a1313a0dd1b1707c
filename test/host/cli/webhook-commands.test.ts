// flowhost webhook enable / trigger / status / rotate / presets / dedupe / disable, in process
// on every store, through a host on the data directory that runs the webhook-presets plugin
// (FLOWHOST_PLUGINS=webhook-presets, as a `flowhost serve` would be started).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { basicAuth } from '../../support/host-process.js';
import { runCli, startCliHost } from '../../support/cli-in-process.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { testStores } from '../../support/test-stores.js';

for (const store of testStores('cli: flowhost webhook')) {
  const test = suite(`cli: flowhost webhook (${store.label})`);

  test('enable, trigger, status, rotate, presets, disable — through the running host', async () => {
    const env = { FLOWHOST_PLUGINS: 'webhook-presets' };
    const { host, dataDir } = await startCliHost(store.config(), [optionalPlugins['webhook-presets']!]);
    try {
      const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
      const api = async (path: string, body: unknown) =>
        (
          (await (
            await fetch(`${host.url}/api/automation/v1${path}`, {
              method: 'POST',
              headers: { Authorization: auth, 'Content-Type': 'application/json' },
              body: JSON.stringify(body),
            })
          ).json()) as { data: Record<string, unknown> }
        ).data;
      const pipelineId = (await api('/pipelines', { pipeline_name: 'Hook', steps: [{ step_type: 'fetch' }] })).pipeline_id as number;
      const flowId = String((await api('/flows', { pipeline_id: pipelineId })).flow_id);
      const cli = (...args: string[]) => runCli({ dataDir }, args, { env });
      const cliWith = (args: string[], stdin: string) => runCli({ dataDir }, args, { env, stdin });

      const enabled = await cli('webhook', 'enable', flowId, '--mode', 'bearer', '--json');
      assert.is(enabled.status, 0, enabled.stderr);
      const token = (JSON.parse(enabled.stdout) as { token: string }).token;
      assert.match(token, /^[0-9a-f]{64}$/);
      const fired = await fetch(`${host.url}/api/automation/v1/trigger/${flowId}`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}` },
        body: '{}',
      });
      assert.is(fired.status, 200);
      const status = await cli('webhook', 'status', flowId, '--json');
      assert.is(status.status, 0, status.stderr);
      assert.not.match(status.stdout, new RegExp(token));
      assert.match((await cli('webhook', 'status', flowId)).stdout, /mode bearer/);
      // A bearer trigger has no event id: the window is the Idempotency-Key window, and it says so.
      const noId = await cli('webhook', 'dedupe', flowId, '--window', '600');
      assert.is(noId.status, 0, noId.stderr);
      assert.match(noId.stdout, /event ids and Idempotency-Keys remembered for 600 s/);
      assert.match(noId.stderr, /warning: .*applies only to deliveries that send an Idempotency-Key header/);

      const presets = JSON.parse((await cli('webhook', 'presets', '--json')).stdout) as Array<{ slug: string }>;
      assert.ok(presets.some((p) => p.slug === 'github'));
      const overrides = join(dataDir, 'overrides.json');
      writeFileSync(overrides, JSON.stringify({ max_body_bytes: 4096 }));
      // The secret on stdin, never argv (secret-options.test.ts covers the refusal and @file).
      const hmac = await cliWith(
        ['webhook', 'enable', flowId, '--mode', 'hmac', '--preset', 'github', '--overrides', overrides, '--secret', '-', '--json'],
        'It is a secret to everybody 123\n',
      );
      assert.is(hmac.status, 0, hmac.stderr);
      const body = JSON.stringify({ zen: 'Keep it logically awesome.' });
      const signature = `sha256=${createHmac('sha256', 'It is a secret to everybody 123').update(body).digest('hex')}`;
      const deliver = () =>
        fetch(`${host.url}/api/automation/v1/trigger/${flowId}`, {
          method: 'POST',
          headers: { 'X-Hub-Signature-256': signature, 'X-GitHub-Delivery': 'delivery-1', 'Content-Type': 'application/json' },
          body,
        });
      const signed = await deliver();
      assert.is(signed.status, 200);
      // GitHub redelivers with the same X-GitHub-Delivery: with dedupe on, the redelivery starts nothing.
      const dedupe = await cli('webhook', 'dedupe', flowId, '--window', '600');
      assert.is(dedupe.status, 0, dedupe.stderr);
      assert.match((await cli('webhook', 'status', flowId)).stdout, /duplicates refused for 600 s/);
      const first = (await (await deliver()).json()) as { job_id: number; duplicate?: boolean };
      const again = (await (await deliver()).json()) as { job_id: number; duplicate?: boolean };
      assert.is(again.duplicate, true);
      assert.is(again.job_id, first.job_id);
      const rotated = await cli('webhook', 'rotate', flowId, '--ttl', '60', '--json');
      assert.is(rotated.status, 0, rotated.stderr);
      assert.is((JSON.parse((await cli('webhook', 'status', flowId, '--json')).stdout) as { secrets: unknown[] }).secrets.length, 2);

      const bad = await cli('webhook', 'enable', flowId, '--mode', 'hmac');
      assert.is.not(bad.status, 0);
      assert.match(bad.stderr, /--preset NAME or --template FILE/);
      const twilio = await cliWith(
        ['webhook', 'enable', flowId, '--mode', 'twilio', '--secret', '-', '--json'],
        'twilio-auth-token-0123456789',
      );
      assert.is(twilio.status, 0, twilio.stderr);
      assert.match((await cli('webhook', 'status', flowId)).stdout, /mode twilio/);
      const unknownMode = await cli('webhook', 'enable', flowId, '--mode', 'telepathy');
      assert.is.not(unknownMode.status, 0);
      assert.match(unknownMode.stderr, /Unknown webhook mode 'telepathy'/);
      assert.match((await cli('webhook', 'disable', flowId)).stderr, /not confirmed/);
      assert.is((await cli('webhook', 'disable', flowId, '--yes')).status, 0);
      assert.match((await cli('webhook', 'status', flowId)).stdout, /disabled/);
    } finally {
      await host.stop();
    }
  });

  test.run();
}
