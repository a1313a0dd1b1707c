// `flowhost user end-sessions <login>`: an administrator ends a user's console sessions from
// the CLI, on every store: through the running host that holds the embedded store (DELETE
// /users/{id}/sessions), or on the MongoDB database every host shares (as the CLI works
// there). The signed-in browser's next request is refused, the application password still works.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { cliJson, runCli, startCliHost } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';
import type { Host } from '../../../host/host.js';

for (const store of testStores('cli: user end-sessions')) {
  const test = suite<{ host: Host; dataDir: string }>(`cli: flowhost user end-sessions (${store.label})`);
  // One database for the host and the CLI (each store.config() call names a fresh one).
  const config = store.config();
  const input = config.mongodbUrl ? { env: { MONGODB_URL: config.mongodbUrl } } : undefined;
  test.before(async (ctx) => {
    Object.assign(ctx, await startCliHost(config));
  });
  test.after(async (ctx) => ctx.host.stop());

  test("ends the user's sessions; --json says how many; an unknown login is named", async (ctx) => {
    const created = await cliJson<{ application_password: { password: string } }>(
      ctx,
      ['user', 'create', 'nia', '--role', 'editor'],
      input,
    );
    const api = `${ctx.host.url}/api/automation/v1`;
    const signIn = await fetch(`${api}/session`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ login: 'nia', password: created.application_password.password }),
    });
    assert.is(signIn.status, 200);
    const nonce = ((await signIn.json()) as { data: { nonce: string } }).data.nonce;
    const headers = { Cookie: (signIn.headers.get('set-cookie') ?? '').split(';')[0]!, 'X-WP-Nonce': nonce };
    assert.is((await fetch(`${api}/users/me`, { headers })).status, 200);

    assert.equal(await cliJson(ctx, ['user', 'end-sessions', 'nia'], input), { login: 'nia', ended: 1 });
    assert.is((await fetch(`${api}/users/me`, { headers })).status, 401, 'the browser is signed out');
    const basic = `Basic ${Buffer.from(`nia:${created.application_password.password}`).toString('base64')}`;
    assert.is((await fetch(`${api}/users/me`, { headers: { Authorization: basic } })).status, 200, 'the application password still works');

    const text = await runCli(ctx, ['user', 'end-sessions', 'nia'], input);
    assert.is(text.status, 0, text.stderr);
    assert.match(text.stdout, /Ended 0 sessions of 'nia'\./);
    const missing = await runCli(ctx, ['user', 'end-sessions', 'nobody'], input);
    assert.is(missing.status, 1);
    assert.match(missing.stderr, /No user with login 'nobody'/);
  });

  test.run();
}
