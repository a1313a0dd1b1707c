// Issue 7: several hosts on one MongoDB database share sessions and login throttling,
// and /healthz follows the database going away and coming back without a restart.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { createHost, type Host } from '../../host/create-host.js';
import { silentLogger } from '../../core/kernel/logger.js';
import type { MongoStore } from '../../host/store/mongodb/index.js';
import { requireMongo, freshDatabaseUrl } from '../support/mongo-env.js';
import { basicAuth } from '../support/host-process.js';
import discovery from '../../plugins/discovery/index.js';
import { defaultPlugins } from '../../plugins/index.js';
import { defineHandler } from '../../sdk/index.js';
import { handlerPlugin } from '../support/handler-plugin.js';

// A fetch handler that waits on a gate the test opens: a run stays "processing" meanwhile.
const gate: { wait: Promise<void> | null } = { wait: null };
const gated = handlerPlugin('gated', [
  defineHandler({
    slug: 'gated-feed',
    type: 'fetch',
    label: 'Gated',
    description: 'Waits for the test.',
    async fetch() {
      if (gate.wait) await gate.wait;
      return [{ type: 'item', data: { id: `item-${Date.now()}` }, metadata: {} }];
    },
  }),
]);

const mongoUrl = requireMongo('mongodb: hosts sharing one database');

async function startHost(url: string, secretKey: string, extra: Record<string, unknown> = {}): Promise<Host> {
  const host = await createHost({
    plugins: [...defaultPlugins.filter((p) => p.id !== discovery.id), discovery, gated],
    env: {},
    logger: silentLogger,
    config: {
      mongodbUrl: url,
      secretKey,
      dataDir: ':memory:',
      port: 0,
      logLevel: 'silent',
      loginMaxFailures: 3,
      schedulerProcessEvery: 200,
      ...extra,
    },
  });
  await host.start();
  return host;
}

if (mongoUrl) {
  type Ctx = { a: Host; b: Host; url: string; password: string };
  const shared = suite<Ctx>('mongodb: two hosts on one database');
  const key = randomBytes(32).toString('hex');
  shared.before(async (ctx) => {
    ctx.url = freshDatabaseUrl(mongoUrl);
    ctx.a = await startHost(ctx.url, key);
    ctx.b = await startHost(ctx.url, key);
    ctx.password = ctx.a.initialAdmin!.password;
    assert.is(ctx.b.initialAdmin, null, 'the second host finds the administrator the first one created');
  });
  shared.after(async (ctx) => {
    await (ctx.a.store as MongoStore).dropDatabase();
    await ctx.a.stop();
    await ctx.b.stop();
  });

  shared('both report the mongodb store; an application password works on either', async ({ a, b, password }) => {
    for (const host of [a, b]) {
      const health = (await (await fetch(`${host.url}/healthz`)).json()) as { store: { kind: string; status: string } };
      assert.equal(health.store, { kind: 'mongodb', status: 'ok' });
      const res = await fetch(`${host.url}/api/automation/v1/handlers`, { headers: { Authorization: basicAuth('admin', password) } });
      assert.is(res.status, 200);
    }
  });

  shared('a cookie session made on one host is honoured on the other, and ends on both', async ({ a, b, password }) => {
    const admin = await a.users.findByLogin('admin');
    await a.users.setPassword(admin!.user_id, 'shared session password');
    const signIn = async () => {
      const login = await fetch(`${a.url}/api/automation/v1/session`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ login: 'admin', password: 'shared session password' }),
      });
      assert.is(login.status, 200);
      const nonce = ((await login.json()) as { data: { nonce: string } }).data.nonce;
      return { Cookie: login.headers.get('set-cookie')!.split(';')[0]!, 'X-WP-Nonce': nonce };
    };
    const session = await signIn();
    const onB = await fetch(`${b.url}/api/automation/v1/handlers`, { headers: session });
    assert.is(onB.status, 200);
    const logout = await fetch(`${b.url}/api/automation/v1/session`, { method: 'DELETE', headers: session });
    assert.is(logout.status, 200);
    const afterLogout = await fetch(`${a.url}/api/automation/v1/handlers`, { headers: session });
    assert.is(afterLogout.status, 401, 'logging out on one host ends the session on the other');

    // An administrator ending the user's sessions on one host ends them on the other.
    const again = await signIn();
    const ended = await fetch(`${b.url}/api/automation/v1/users/${admin!.user_id}/sessions`, {
      method: 'DELETE',
      headers: { Authorization: basicAuth('admin', password) },
    });
    assert.is(ended.status, 200);
    assert.is((await fetch(`${a.url}/api/automation/v1/handlers`, { headers: again })).status, 401, 'ended on host b, refused on host a');
  });

  shared(
    'the same flow never runs on two hosts at once: a run asked of the other host is refused 409 flow_running',
    async ({ a, b, password }) => {
      const auth = { Authorization: basicAuth('admin', password), 'Content-Type': 'application/json' };
      const post = async (host: Host, path: string, body: unknown) =>
        (await (
          await fetch(`${host.url}/api/automation/v1${path}`, { method: 'POST', headers: auth, body: JSON.stringify(body) })
        ).json()) as { data: Record<string, unknown> };
      const get = async (host: Host, path: string) =>
        (await (await fetch(`${host.url}/api/automation/v1${path}`, { headers: auth })).json()) as { data: Record<string, unknown> };
      const pipelineId = (await post(a, '/pipelines', { pipeline_name: 'Shared', steps: [{ step_type: 'fetch' }] })).data
        .pipeline_id as number;
      const stepId = ((await get(a, `/pipelines/${pipelineId}`)).data.pipeline as { pipeline_steps: Array<{ pipeline_step_id: string }> })
        .pipeline_steps[0]!.pipeline_step_id;
      const flowId = (await post(a, '/flows', { pipeline_id: pipelineId, flow_config: { [stepId]: { handler_slug: 'gated-feed' } } })).data
        .flow_id as number;
      let open!: () => void;
      gate.wait = new Promise((r) => (open = r));
      const status = async (host: Host, jobId: number) => (await get(host, `/jobs/${jobId}`)).data.status as string;
      let first = 0;
      try {
        first = (await post(a, '/execute', { flow_id: flowId })).data.job_id as number;
        for (let i = 0; i < 400 && (await status(a, first)) !== 'processing'; i++) await new Promise((r) => setTimeout(r, 30));
        // The other host sees the shared running mark: it answers so, and makes no job.
        const second = await fetch(`${b.url}/api/automation/v1/execute`, {
          method: 'POST',
          headers: auth,
          body: JSON.stringify({ flow_id: flowId }),
        });
        const refused = (await second.json()) as { code: string; data: { running_job_id: number } };
        assert.equal([second.status, refused.code, refused.data.running_job_id], [409, 'flow_running', first]);
        const jobs = (await get(b, `/jobs?flow_id=${flowId}`)) as unknown as { total: number };
        assert.is(jobs.total, 1);
      } finally {
        // Always let the held run finish, or stopping the hosts would wait on it.
        gate.wait = null;
        open();
      }
      for (let i = 0; i < 400 && (await status(a, first)) === 'processing'; i++) await new Promise((r) => setTimeout(r, 30));
      assert.is(await status(a, first), 'completed');
    },
  );

  // Last: it locks the admin login out from this address.
  shared('failed logins are counted across hosts', async ({ a, b, password }) => {
    const wrong = basicAuth('admin', 'wrong wrong wrong wrong wrong wrong');
    assert.is((await fetch(`${a.url}/api/automation/v1/handlers`, { headers: { Authorization: wrong } })).status, 401);
    assert.is((await fetch(`${b.url}/api/automation/v1/handlers`, { headers: { Authorization: wrong } })).status, 401);
    assert.is((await fetch(`${a.url}/api/automation/v1/handlers`, { headers: { Authorization: wrong } })).status, 401);
    const blockedOnB = await fetch(`${b.url}/api/automation/v1/handlers`, { headers: { Authorization: basicAuth('admin', password) } });
    assert.is(blockedOnB.status, 429, 'three failures spread over two hosts reach the limit of three');
    assert.ok(Number(blockedOnB.headers.get('retry-after')) > 0);
  });

  shared.run();

  // A TCP proxy in front of the server lets the test take the database away and give it back.
  type ProxyCtx = { host: Host; proxy: Server | null; port: number; sockets: Set<Socket>; down?: boolean };
  const target = new URL(mongoUrl.replace(/^mongodb/, 'http'));
  const listen = (ctx: ProxyCtx) =>
    new Promise<void>((resolve) => {
      ctx.down = false;
      ctx.proxy = createServer((client) => {
        // A connection the driver opened just as the proxy closed is handed over after the
        // sockets were cut: cut it too, or close() waits for it forever.
        if (ctx.down) {
          client.destroy();
          return;
        }
        const upstream = connect(Number(target.port || 27017), target.hostname);
        ctx.sockets.add(client).add(upstream);
        client.pipe(upstream).pipe(client);
        const drop = () => {
          client.destroy();
          upstream.destroy();
        };
        client.on('error', drop).on('close', drop);
        upstream.on('error', drop).on('close', drop);
      });
      ctx.proxy.listen(ctx.port, '127.0.0.1', () => {
        ctx.port = (ctx.proxy!.address() as { port: number }).port;
        resolve();
      });
    });
  const health = async (host: Host) => {
    const res = await fetch(`${host.url}/healthz`);
    return { status: res.status, body: (await res.json()) as { code?: string; message?: string; store: { status: string } } };
  };

  const outage = suite<ProxyCtx>('mongodb: healthz through an outage');
  outage.before(async (ctx) => {
    ctx.sockets = new Set();
    ctx.port = 0;
    await listen(ctx);
    const url = freshDatabaseUrl(`mongodb://127.0.0.1:${ctx.port}`);
    ctx.host = await startHost(url, randomBytes(32).toString('hex'));
  });
  outage.after(async (ctx) => {
    ctx.proxy?.close();
    for (const s of ctx.sockets) s.destroy();
    await ctx.host.stop().catch(() => undefined);
  });

  outage('200, then 503 while the database is unreachable, then 200 again without a restart', async (ctx) => {
    assert.is((await health(ctx.host)).status, 200);
    // close() waits for open connections, so cut them first (and any that arrive meanwhile).
    ctx.down = true;
    const closed = new Promise<void>((resolve) => ctx.proxy!.close(() => resolve()));
    for (const s of ctx.sockets) s.destroy();
    ctx.sockets.clear();
    await closed;
    const down = await health(ctx.host);
    assert.is(down.status, 503);
    assert.is(down.body.code, 'store_unavailable');
    assert.is(down.body.store.status, 'unavailable');
    await listen(ctx);
    // A deadline, not a count: each check may take the probe's 3 s, and the suite has 180 s.
    let last = await health(ctx.host);
    for (const until = Date.now() + 60_000; last.status !== 200 && Date.now() < until; ) {
      await new Promise((r) => setTimeout(r, 250));
      last = await health(ctx.host);
    }
    assert.is(last.status, 200, `the host answers 200 within a minute of the database coming back: ${JSON.stringify(last.body)}`);
  });

  outage.run();
}
