import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createHmac } from 'node:crypto';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON

const LEGACY_SECRET = 'legacy-shorthand-secret-0123456789';
const LEGACY_TOKEN = 'ab'.repeat(32);

for (const store of testStores('webhooks: legacy settings')) {
  type Ctx = { t: TestHost; pipelineId: number };
  const test = suite<Ctx>(`webhooks: legacy settings migrated at first read (${store.label})`);

  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
    ctx.pipelineId = (
      await ctx.t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Legacy', steps: [{ step_type: 'fetch' }] } })
    ).body.data.pipeline_id;
  });
  test.after(async (ctx) => ctx.t.stop());

  /** A flow as the original plugin left it: its webhook settings inside scheduling_config. */
  async function legacyFlow(t: TestHost, pipelineId: number, settings: Record<string, unknown>): Promise<number> {
    const flowId = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Old flow' } })).body.data
      .flow_id as number;
    const $set = Object.fromEntries(Object.entries(settings).map(([key, value]) => [`scheduling_config.${key}`, value]));
    await t.host.flows.collection.updateOne({ flow_id: flowId }, { $set });
    return flowId;
  }
  const trigger = (t: TestHost, flowId: number, body: string, headers: Record<string, string>) =>
    fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...headers },
      body,
    });
  const infoLogs = async (t: TestHost, flowId: number) =>
    ((await t.request<Body>('GET', '/logs', { query: { flow_id: flowId, per_page: 50 } })).body.items as Body[]).map(
      (e) => `${e.level}: ${e.message}`,
    );

  test('hmac shorthand (GitHub-style sha256=hex header): migrated once to a template, secret kept and sealed, old keys gone', async ({
    t,
    pipelineId,
  }) => {
    const flowId = await legacyFlow(t, pipelineId, {
      webhook_enabled: true,
      webhook_auth_mode: 'hmac_sha256',
      webhook_signature_header: 'X-Hub-Signature-256',
      webhook_signature_format: 'sha256=hex',
      webhook_secret: LEGACY_SECRET,
    });
    // Before any trigger read, the flow views never show the legacy secret.
    const view = await t.request<Body>('GET', `/flows/${flowId}`);
    assert.equal(view.body.data.scheduling_config, { interval: 'manual' });
    assert.not.match(JSON.stringify(view.body), /legacy-shorthand-secret/);

    const body = JSON.stringify({ action: 'opened' });
    const signature = `sha256=${createHmac('sha256', LEGACY_SECRET).update(body).digest('hex')}`;
    // Several first reads at once: every request passes, the migration happens once.
    const answers = await Promise.all([1, 2, 3].map(() => trigger(t, flowId, body, { 'X-Hub-Signature-256': signature })));
    assert.equal(
      answers.map((a) => a.status),
      [200, 200, 200],
    );
    assert.is((await trigger(t, flowId, body, { 'X-Hub-Signature-256': `sha256=${'0'.repeat(64)}` })).status, 401);

    const stored = (await t.host.flows.collection.findOne({ flow_id: flowId }))!;
    assert.equal(stored.scheduling_config, { interval: 'manual' }, 'legacy keys removed');
    assert.not.match(JSON.stringify(stored), /legacy-shorthand-secret/, 'the secret is sealed at rest');
    const status = (await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data;
    assert.is(status.mode, 'hmac');
    assert.equal(status.template, {
      mode: 'hmac',
      algo: 'sha256',
      signed_template: '{body}',
      signature_source: { header: 'X-Hub-Signature-256', extract: { kind: 'prefix', key: 'sha256=' }, encoding: 'hex' },
      max_body_bytes: 1048576,
    });
    assert.is(status.secrets.length, 1);
    assert.match(status.secrets[0].value, /^••••••••6789$/);
    const migrations = (await infoLogs(t, flowId)).filter((line) => line.includes('migrated from the legacy shorthand'));
    assert.is(migrations.length, 1, 'migrated exactly once');
  });

  test('bearer: the same token keeps working after the migration, now sealed', async ({ t, pipelineId }) => {
    const flowId = await legacyFlow(t, pipelineId, { webhook_enabled: true, webhook_auth_mode: 'bearer', webhook_token: LEGACY_TOKEN });
    assert.is((await trigger(t, flowId, '{}', { Authorization: `Bearer ${LEGACY_TOKEN}` })).status, 200);
    assert.is((await trigger(t, flowId, '{}', { Authorization: `Bearer ${'cd'.repeat(32)}` })).status, 401);
    const stored = (await t.host.flows.collection.findOne({ flow_id: flowId }))!;
    assert.not.match(JSON.stringify(stored), new RegExp(LEGACY_TOKEN));
    assert.equal(stored.scheduling_config, { interval: 'manual' });
    assert.is((await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data.mode, 'bearer');
  });

  test("the original plugin's template form: template and secret list carried over, expired secrets stay refused", async ({
    t,
    pipelineId,
  }) => {
    const now = t.clock.now().getTime();
    const flowId = await legacyFlow(t, pipelineId, {
      webhook_auth_mode: 'hmac',
      webhook_auth: {
        mode: 'hmac',
        algo: 'sha1',
        signed_template: '{timestamp}:{body}',
        signature_source: { header: 'X-Sig', extract: { kind: 'raw' }, encoding: 'base64' },
        timestamp_source: { header: 'X-Ts', format: 'unix' },
        tolerance_seconds: 300,
        max_body_bytes: 4096,
      },
      webhook_secrets: [
        { id: 'old', value: 'expired-secret-0123456789', expires_at: new Date(now - 1000).toISOString() },
        { id: 'current', value: 'current-secret-0123456789', expires_at: null },
      ],
    });
    const body = '{"n":1}';
    const ts = String(Math.floor(now / 1000));
    const sign = (secret: string) => ({ 'X-Ts': ts, 'X-Sig': createHmac('sha1', secret).update(`${ts}:${body}`).digest('base64') });
    assert.is((await trigger(t, flowId, body, sign('current-secret-0123456789'))).status, 200);
    assert.is((await trigger(t, flowId, body, sign('expired-secret-0123456789'))).status, 401);
    const status = (await t.request<Body>('GET', `/flows/${flowId}/webhook`)).body.data;
    assert.equal(
      status.secrets.map((s: Body) => s.id),
      ['current'],
    );
    assert.is(status.max_body_bytes, 4096);
  });

  test('settings that cannot be carried over: the flow answers 401 and the log says why; a disabled trigger stays disabled', async ({
    t,
    pipelineId,
  }) => {
    const broken = await legacyFlow(t, pipelineId, {
      webhook_auth_mode: 'hmac_sha256',
      webhook_signature_format: 'sha256=octal',
      webhook_secret: LEGACY_SECRET,
    });
    assert.is((await trigger(t, broken, '{}', { 'X-Signature': 'whatever' })).status, 401);
    const lines = await infoLogs(t, broken);
    assert.ok(
      lines.some((l) => l.startsWith('warning:') && l.includes("legacy signature format 'sha256=octal'")),
      lines.join('\n'),
    );

    const off = await legacyFlow(t, pipelineId, { webhook_enabled: false, webhook_auth_mode: 'bearer', webhook_token: LEGACY_TOKEN });
    assert.is((await trigger(t, off, '{}', { Authorization: `Bearer ${LEGACY_TOKEN}` })).status, 401);
    assert.is((await t.request<Body>('GET', `/flows/${off}/webhook`)).body.data.enabled, false);
  });

  test('boot sweep: every legacy flow is migrated, none left with a readable secret', async ({ t, pipelineId }) => {
    const a = await legacyFlow(t, pipelineId, { webhook_auth_mode: 'hmac_sha512', webhook_secret: 'sweep-secret-0123456789' });
    const b = await legacyFlow(t, pipelineId, { webhook_token: LEGACY_TOKEN });
    // The duplicate of a legacy flow carries neither the settings nor their secrets.
    const copyId = (await t.request<Body>('POST', `/flows/${a}/duplicate`)).body.new_flow_id as number;
    assert.equal((await t.host.flows.collection.findOne({ flow_id: copyId }))!.scheduling_config, { interval: 'manual' });
    assert.is(await t.host.webhooks.migrateAll(), 2);
    for (const flowId of [a, b]) {
      const stored = (await t.host.flows.collection.findOne({ flow_id: flowId }))!;
      assert.ok(stored.webhook, `flow ${flowId} migrated`);
      assert.not.match(JSON.stringify(stored), /sweep-secret|abababab/);
    }
    assert.is(await t.host.webhooks.migrateAll(), 0, 'nothing left');
    assert.is((await t.request<Body>('GET', `/flows/${copyId}/webhook`)).body.data.enabled, false);
  });

  test.run();
}
