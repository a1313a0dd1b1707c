// A plugin holding every public service cannot recover a secret the core or another plugin
// keeps: what the services answer carries masks, never sealed values, and the vault a plugin
// receives opens nothing sealed outside it, whatever context it guesses (issue 52).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, isServiceRef, services, type ActingUser, type ServiceRef } from '../../../sdk/index.js';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import type { Vault } from '../../../core/security/vault.js';
import { testStores } from '../../support/test-stores.js';

type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- test reads arbitrary JSON
type Deps = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- every public service, called by name

const APP_PASSWORD = 'abcd efgh ijkl mnop';
const URL_PASSWORD = 'url-pass-9f8e7d6c';
const DEFAULT_PASSWORD = 'default-pass-5a4b3c2d';
const JOB_PASSWORD = 'job-pass-1q2w3e4r';
const BEARER_HINT = 'bearer';
const HMAC_SECRET = 'hmac-secret-value-0123456789';
const KEEPER_SECRET = 'keeper-secret-zyxwvut';
const PROVIDER_KEY = 'sk-provider-key-0a1b2c3d4e5f';
const TEMPLATE = {
  mode: 'hmac',
  algo: 'sha256',
  signed_template: '{body}',
  signature_source: { header: 'X-Signature', extract: { kind: 'raw' }, encoding: 'hex' },
};
const SEALED = /fhv1:[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]*/g;

/** Every public reference (kernel's and domains'), so the thief asks for all of them. */
const everyService = Object.fromEntries(Object.entries(services).filter(([, ref]) => isServiceRef(ref))) as Record<
  string,
  ServiceRef<unknown>
>;

for (const store of testStores('plugin secrets')) {
  type Ctx = { t: TestHost; thief: Deps; keeper: { vault: Vault; sealed: string }; heard: unknown[] };
  const test = suite<Ctx>(`plugins get views, not secrets (${store.label})`);

  test.before(async (ctx) => {
    const thief = definePlugin({
      id: 'thief',
      version: '1.0.0',
      flowhost: '^1.0.0',
      deps: everyService,
      setup(deps) {
        ctx.thief = deps as Deps;
        ctx.heard = [];
        // What the trigger tells listeners about a delivery (its headers among it).
        (deps as Deps).webhookEvents.webhookReceived.tapPromise('thief', async (event: unknown) => {
          ctx.heard.push(event);
        });
      },
    });
    // Another plugin with a secret of its own, sealed with its vault.
    const keeper = definePlugin({
      id: 'keeper',
      version: '1.0.0',
      flowhost: '^1.0.0',
      deps: { vault: services.vault },
      setup({ vault }) {
        ctx.keeper = { vault, sealed: vault.encrypt(KEEPER_SECRET, 'keeper:token') };
      },
    });
    ctx.t = await createTestHost({ plugins: [thief, keeper], config: store.config() });
  });
  test.after(async ({ t }) => t.stop());

  /** A flow with a cms-api step holding an app password and a URL with credentials, and both webhook secrets. */
  async function secretFlow(t: TestHost): Promise<{ flowId: number; stepId: string; pipelineId: number; token: string }> {
    const pipelineId = (await t.request<Body>('POST', '/pipelines', { body: { pipeline_name: 'Remote', steps: [{ step_type: 'fetch' }] } }))
      .body.data.pipeline_id as number;
    const flow = await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Remote posts' } });
    const flowId = flow.body.data.flow_id as number;
    const stepId = Object.keys(flow.body.data.flow_config)[0]!;
    const settings = { api_url: 'https://remote.example/wp-json/wp/v2', username: 'reader', app_password: APP_PASSWORD };
    const set = await t.request<Body>('PUT', `/flows/steps/${stepId}/handler`, { body: { handler_slug: 'cms-api', settings } });
    assert.is(set.status, 200, JSON.stringify(set.body));
    // A URL with credentials as the previous version stored it (in clear): new ones are refused.
    const key = Object.keys((await t.host.flows.get(flowId)).steps)[0]!;
    await t.host.flows.collection.updateOne(
      { flow_id: flowId },
      { $set: { [`steps.${key}.handler_config.api_url`]: `https://reader:${URL_PASSWORD}@remote.example/wp-json/wp/v2` } },
    );
    const bearer = await t.request<Body>('PUT', `/flows/${flowId}/webhook`, { body: { mode: BEARER_HINT } });
    assert.is(bearer.status, 200, JSON.stringify(bearer.body));
    const token = bearer.body.data.token as string;
    assert.ok(token.length > 16);
    return { flowId, stepId, pipelineId, token };
  }

  test('every service method answers masks: no plaintext and no sealed value', async (ctx) => {
    const { t, thief } = ctx;
    const { flowId, stepId, pipelineId, token } = await secretFlow(t);
    const hmacFlow = (await t.request<Body>('POST', '/flows', { body: { pipeline_id: pipelineId, flow_name: 'Signed' } })).body.data
      .flow_id as number;
    const hmac = await t.request<Body>('PUT', `/flows/${hmacFlow}/webhook`, {
      body: { mode: 'hmac', template: TEMPLATE, secret: HMAC_SECRET },
    });
    assert.is(hmac.status, 200, JSON.stringify(hmac.body));
    const defaults = await t.request<Body>('PUT', '/settings/handler-defaults/cms-api', {
      body: { settings: { app_password: DEFAULT_PASSWORD } },
    });
    assert.is(defaults.status, 200, JSON.stringify(defaults.body));
    // Run to its end (the remote does not exist): the job keeps its workflow's settings.
    const job = await t.executeAndWait({
      workflow: {
        steps: [
          {
            type: 'fetch',
            handler_slug: 'cms-api',
            handler_config: { api_url: 'https://remote.example/wp-json/wp/v2', username: 'r', app_password: JOB_PASSWORD },
          },
        ],
      },
    });
    const jobId = job.job_id as number;

    const keys = await t.request<Body>('PUT', '/settings', { body: { ai_provider_keys: { openai: PROVIDER_KEY } } });
    assert.is(keys.status, 200, JSON.stringify(keys.body));
    const admin = (await t.host.users.findByLogin(t.admin.login))!;
    const asAdmin: ActingUser = {
      userId: admin.user_id,
      login: admin.login,
      capabilities: admin.capabilities,
      can: (c) => admin.capabilities.includes(c),
    };
    const { flows, jobs, pipelines, credentials, settings, api } = thief;
    const shown = Object.values((await flows.get(flowId)).steps as Record<string, Body>)[0]!.handler_config;
    const answers: unknown[] = [
      await flows.get(flowId),
      await flows.get(hmacFlow),
      await flows.list({ perPage: 100, offset: 0 }),
      await flows.list({ pipelineId, perPage: 100, offset: 0 }),
      await flows.duplicate(flowId),
      await flows.update(flowId, { flow_name: 'Renamed' }),
      // Sending back the masks it was shown keeps the secret, and answers masks again.
      // Sent back, the masks keep the stored secrets; the stored URL's credentials are then refused (by name, not value).
      await flows.setHandler(stepId, { handler_slug: 'cms-api', settings: shown }).then(
        () => assert.unreachable('a URL with credentials was saved'),
        (error: Error) => error.message,
      ),
      await flows.patchStepConfig(stepId, { enabled: true }),
      await flows.getHandlerDefaults(),
      await flows.getHandlerDefaults('cms-api'),
      await flows.setHandlerDefaults('cms-api', { per_page: 5 }),
      await jobs.get(jobId),
      await pipelines.get(pipelineId),
      await pipelines.list({ perPage: 100, offset: 0 }),
      await credentials.status('cms-api').catch((error: Error) => error.message),
      await settings.get(),
      // A provider's key is its provider plugin's: refused, naming both, never the key.
      await settings.providerKey('openai').then(
        () => assert.unreachable('a plugin read another plugin provider key'),
        (error: Error) => {
          assert.match(error.message, "Plugin 'thief' asked for the key of AI provider 'openai', which it does not contribute");
          return error.message;
        },
      ),
      (await api.get('/settings', { user: asAdmin })).body,
      (await api.get(`/flows/${flowId}`, { user: asAdmin })).body,
      (await api.get(`/flows/${hmacFlow}/webhook`, { user: asAdmin })).body,
      (await api.get(`/jobs/${jobId}`, { user: asAdmin })).body,
      (await api.get('/settings/handler-defaults/cms-api', { user: asAdmin })).body,
      (await api.get(`/pipelines/${pipelineId}/export`, { user: asAdmin })).body,
    ];
    // A delivery with the bearer token: listeners hear of it without the token.
    const delivered = await fetch(`${t.url}/api/automation/v1/trigger/${flowId}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    assert.ok(delivered.status < 300, String(delivered.status));
    answers.push(ctx.heard);
    assert.ok(ctx.heard.length > 0, 'the thief heard the delivery');
    // Its store is its own namespace: the core's collections are not there.
    for (const name of ['flows', 'jobs', 'settings', 'credentials', 'keeper__settings'])
      answers.push(await thief.store.collection(name).find({}));
    const seen = JSON.stringify(answers);
    for (const secret of [APP_PASSWORD, URL_PASSWORD, DEFAULT_PASSWORD, JOB_PASSWORD, HMAC_SECRET, token, KEEPER_SECRET, PROVIDER_KEY]) {
      assert.not.ok(seen.includes(secret), `a service answered a secret (${secret.slice(0, 6)}…)`);
    }
    assert.equal(seen.match(SEALED) ?? [], [], 'a service answered a sealed value');
    // The views still say what a plugin needs: which handler, and that a secret is set.
    const view = (await flows.get(flowId)).steps;
    const step = Object.values(view)[0] as Body;
    assert.is(step.handler_slug, 'cms-api');
    assert.is(step.handler_config.app_password, '••••••••');
    assert.is(step.handler_config.api_url, 'https://••••••••@remote.example/wp-json/wp/v2');
    assert.not.ok('webhook' in (await flows.get(hmacFlow)), 'the webhook trigger is not part of the view');
  });

  test("the plugin's vault opens nothing sealed by the core or another plugin, whatever the context", async ({ t, thief, keeper }) => {
    const { flowId } = await secretFlow(t);
    // Sealed values as the store holds them: what a plugin would have to get hold of first.
    const raw = JSON.stringify([
      await t.host.store.collection('flows').find({}),
      await t.host.store.collection('jobs').find({}),
      await t.host.store.collection('settings').find({}),
    ]);
    const sealed = [...new Set([...(raw.match(SEALED) ?? []), keeper.sealed])];
    assert.ok(sealed.length >= 5, `the store holds the sealed values (found ${sealed.length})`);
    const flowIds = [flowId, ...Array.from({ length: flowId }, (_, i) => i + 1)];
    const contexts = [
      undefined,
      '',
      'handler-settings',
      'webhook',
      ...flowIds.map((id) => `webhook:${id}`),
      'keeper:token',
      'thief:token',
      'credentials:cms-api:app_password',
      'provider-key:openai',
      'vault-canary',
    ];
    const vault = thief.vault as Vault;
    let opened = 0;
    for (const value of sealed) {
      for (const context of contexts) {
        try {
          vault.decrypt(value, context);
          opened++;
        } catch {
          // Refused, as it must be.
        }
      }
    }
    assert.is(opened, 0, 'the thief opened a sealed value');
    // The keeper's own vault opens its own value: the refusals above are the vaults' doing.
    assert.is(keeper.vault.decrypt(keeper.sealed, 'keeper:token'), KEEPER_SECRET);
    // And the handler still runs with the real settings (the engine opens them, not a plugin).
    assert.ok(raw.includes('app_password'));
  });

  test.run();
}
