// GET /readyz on both stores: 200 once the host is started, 503 while it stops (seen from
// a plugin's `stopping` tap, before the listener closes) and while the store does not
// answer; /healthz stays what it was.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { definePlugin, services, type DocumentStore } from '../../../sdk/index.js';
import { createTestHost, type TestHost } from '../../../sdk/testing/index.js';
import { testStores } from '../../support/test-stores.js';

type Body = { success: boolean; status: string; code?: string; store?: { kind: string; status: string } };

/** Asks /readyz from inside the `stopping` hook, as a load balancer's probe would then. */
function stoppingProbe(seen: Array<{ status: number; body: Body }>) {
  return definePlugin({
    id: 'readyz-probe',
    version: '1.0.0',
    flowhost: '^1.0.0',
    deps: { hooks: services.hooks },
    setup({ hooks }) {
      hooks.stopping.tapPromise('readyz-probe', async ({ url }) => {
        const res = await fetch(`${url}/readyz`);
        seen.push({ status: res.status, body: (await res.json()) as Body });
      });
    },
  });
}

for (const store of testStores('host: readiness')) {
  const test = suite<{ t: TestHost }>(`host: /readyz (${store.label})`);
  test.before(async (ctx) => {
    ctx.t = await createTestHost({ plugins: [], config: store.config() });
  });
  test.after(async (ctx) => ctx.t.stop());

  test('a started host is ready: 200 with the store it answered from', async ({ t }) => {
    const res = await t.request<Body>('GET', '/readyz', { absolute: true, as: 'anonymous' });
    assert.is(res.status, 200, JSON.stringify(res.body));
    assert.equal(res.body, { success: true, status: 'ready', store: { kind: store.label, status: 'ok' } });
  });

  test('a store that does not answer: 503 store_unavailable, then 200 again once it does', async ({ t }) => {
    const target = t.host.store as DocumentStore & { ping: DocumentStore['ping'] };
    target.ping = () => Promise.reject(new Error('connection refused'));
    try {
      const res = await t.request<Body>('GET', '/readyz', { absolute: true, as: 'anonymous' });
      assert.is(res.status, 503, JSON.stringify(res.body));
      assert.is(res.body.code, 'store_unavailable');
      assert.is(res.body.status, 'unavailable');
      assert.match(JSON.stringify(res.body), /connection refused/);
    } finally {
      delete (target as Partial<typeof target>).ping;
    }
    assert.is((await t.request('GET', '/readyz', { absolute: true, as: 'anonymous' })).status, 200);
  });

  test('a stopping host is not ready: 503 host_stopping', async () => {
    const seen: Array<{ status: number; body: Body }> = [];
    const t = await createTestHost({ plugins: [stoppingProbe(seen)], config: store.config() });
    await t.stop();
    assert.is(seen.length, 1);
    assert.is(seen[0]!.status, 503);
    assert.is(seen[0]!.body.code, 'host_stopping');
    assert.is(seen[0]!.body.status, 'stopping');
  });

  test.run();
}
