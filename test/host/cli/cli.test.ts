// `flowhost <noun> <verb>` on a store nobody holds: no host runs on the data directory, so
// each command opens the store itself (direct-admin), on every store. In process: the
// command line as main.ts runs it, the store opened and closed by the command; spawned once
// for the real stdin and a real process opening the store.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli as spawnCli } from '../../support/host-process.js';
import { cliInProcess, type CliInput } from '../../support/cli-in-process.js';
import { testStores } from '../../support/test-stores.js';

for (const store of testStores('cli: store nobody holds')) {
  const test = suite(`cli: flowhost <noun> <verb> on a store nobody holds (${store.label})`);
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-'));
  // MongoDB: the CLI works on the database MONGODB_URL names (a fresh one per suite).
  const { mongodbUrl } = store.config();
  const env: Record<string, string> = mongodbUrl ? { MONGODB_URL: mongodbUrl } : {};
  // --init: this suite means to create the store its first command finds missing.
  const cli = (...args: string[]) => cliInProcess([...args, '--init', '--data-dir', dataDir], { env });
  const cliWith = (args: string[], input: CliInput) => cliInProcess([...args, '--init', '--data-dir', dataDir], { env, ...input });

  test('user create prints the application password once; --json is machine-readable', async () => {
    const human = await cli('user', 'create', 'alice', '--role', 'editor');
    assert.is(human.status, 0, human.stderr);
    assert.match(human.stdout, /Created editor 'alice'/);
    assert.match(human.stdout, /Application password \(shown once\): (\w{4} ){5}\w{4}/);
    assert.match(human.stdout, /The same as a bearer token \(shown once\): fh_[0-9a-f]{16}_[A-Za-z0-9]{24}\n/);
    const json = await cli('user', 'create', 'bob', '--role', 'subscriber', '--json');
    assert.is(json.status, 0, json.stderr);
    const parsed = JSON.parse(json.stdout) as {
      user: { login: string; role: string };
      application_password: { password: string; token: string; uuid: string };
    };
    assert.is(parsed.user.login, 'bob');
    assert.is(parsed.user.role, 'subscriber');
    assert.match(parsed.application_password.password, /^(\w{4} ){5}\w{4}$/);
    assert.is(parsed.application_password.token.slice(20), parsed.application_password.password.replace(/ /g, ''));
  });

  test('user list shows users without secrets', async () => {
    const res = await cli('user', 'list', '--json');
    assert.is(res.status, 0, res.stderr);
    const users = JSON.parse(res.stdout) as Array<{ login: string; role: string }>;
    assert.equal(
      users.map((u) => u.login),
      ['alice', 'bob'],
    );
    assert.not.match(res.stdout, /hash|scrypt/);
    const table = await cli('user', 'list');
    assert.match(table.stdout, /LOGIN/);
    assert.match(table.stdout, /alice\s+editor/);
  });

  test('app-password create (the password and its bearer token, once), list (neither), revoke', async () => {
    const created = await cli('app-password', 'create', 'alice', '--name', 'laptop', '--json');
    assert.is(created.status, 0, created.stderr);
    const { uuid, password, token } = JSON.parse(created.stdout) as { uuid: string; password: string; token: string };
    assert.ok(password);
    assert.match(token, /^fh_[0-9a-f]{16}_[A-Za-z0-9]{24}$/);
    const human = await cli('app-password', 'create', 'alice', '--name', 'agent');
    assert.match(human.stdout, /The same as a bearer token, used without the login \(shown once\): fh_[0-9a-f]{16}_[A-Za-z0-9]{24}\n/);
    const listed = JSON.parse((await cli('app-password', 'list', 'alice', '--json')).stdout) as Array<{
      uuid: string;
      name: string;
      bearer: boolean;
    }>;
    assert.ok(listed.some((p) => p.uuid === uuid && p.name === 'laptop' && p.bearer === true));
    for (const secret of [password, password.replace(/ /g, ''), token.slice(3, 19)]) assert.not.ok(JSON.stringify(listed).includes(secret));
    assert.match((await cli('app-password', 'list', 'alice')).stdout, /BEARER/);
    assert.match((await cli('app-password', 'revoke', 'alice', uuid)).stderr, /not confirmed/);
    const revoked = await cli('app-password', 'revoke', 'alice', uuid, '--yes');
    assert.is(revoked.status, 0, revoked.stderr);
    const after = JSON.parse((await cli('app-password', 'list', 'alice', '--json')).stdout) as Array<{ uuid: string }>;
    assert.not.ok(after.some((p) => p.uuid === uuid));
    const again = await cli('app-password', 'revoke', 'alice', uuid, '--yes');
    assert.is.not(again.status, 0);
    assert.match(again.stderr, /No application password/);
  });

  test('set-password from stdin; too short or on the command line is refused', async () => {
    const ok = await cliWith(['user', 'set-password', 'alice', '--password-stdin'], { stdin: 'a long enough password\n' });
    assert.is(ok.status, 0, ok.stderr);
    const short = await cliWith(['user', 'set-password', 'alice', '--password', '-'], { stdin: 'short\n' });
    assert.is.not(short.status, 0);
    assert.match(short.stderr, /at least 8/);
    // On the store itself as through a host: a literal on argv is refused, not echoed (secret-options.test.ts).
    const literal = await cli('user', 'set-password', 'alice', '--password', 'a literal password');
    assert.is.not(literal.status, 0);
    assert.not.match(literal.stderr + literal.stdout, /a literal password/);
    const none = await cli('user', 'set-password', 'alice');
    assert.is.not(none.status, 0);
    assert.match(none.stderr, /--password-stdin/);
  });

  test('user end-sessions on the store itself: none open, the count says so', async () => {
    const res = await cli('user', 'end-sessions', 'alice', '--json');
    assert.is(res.status, 0, res.stderr);
    assert.equal(JSON.parse(res.stdout), { login: 'alice', ended: 0 });
  });

  test('user delete; unknown users and bad arguments fail with a message', async () => {
    // With no terminal to ask on, a delete without --yes refuses and changes nothing.
    const unasked = await cli('user', 'delete', 'bob');
    assert.is(unasked.status, 1);
    assert.match(unasked.stderr, /Delete user 'bob'.*not confirmed \(no terminal to ask on\); add --yes/);
    assert.is((await cli('user', 'delete', 'bob', '--yes')).status, 0);
    const missing = await cli('user', 'delete', 'bob', '--yes');
    assert.is.not(missing.status, 0);
    // The API's code ends the line, as it does for a refusal over HTTP (cli.md).
    assert.match(missing.stderr, /No user with login 'bob' \(user_not_found\)$/m);
    const twice = await cli('user', 'create', 'alice', '--role', 'author');
    assert.match(twice.stderr, /already exists \(user_exists\)$/m);
    // An option's own name in the message, not the API parameter it becomes (was "per_page must be integer").
    const badLines = await cli('logs', 'tail', '--lines', 'abc');
    assert.is(badLines.status, 1);
    assert.match(badLines.stderr, /^flowhost: --lines must be a whole number from 1 to 500/);
    // export takes --json like every command that prints data (it prints JSON either way).
    const exported = await cli('export', '999', '--json');
    assert.is(exported.status, 1);
    assert.match(exported.stderr, /flow_not_found/);
    const badRole = await cli('user', 'create', 'carol', '--role', 'wizard');
    assert.is.not(badRole.status, 0);
    assert.match(badRole.stderr, /Choices|role/i);
    const dup = await cli('user', 'create', 'alice', '--role', 'editor');
    assert.is.not(dup.status, 0);
    assert.match(dup.stderr, /already exists/);
    const badLogin = await cli('user', 'create', 'no spaces!', '--role', 'editor');
    assert.is.not(badLogin.status, 0);
    const unknownCommand = await cliInProcess(['frobnicate']);
    assert.is.not(unknownCommand.status, 0);
    assert.match(unknownCommand.stderr, /Unknown|frobnicate/i);
    const noVerb = await cliInProcess(['user']);
    assert.is.not(noVerb.status, 0);
  });

  test.run();
}

// What the build wires in, read from an in-memory host: no data directory, so once, not per store.
const plugins = suite('cli: flowhost plugins list');

plugins('plugins list shows id, version, contributions apart from hooks', async () => {
  const res = await cliInProcess(['plugins', 'list', '--json']);
  assert.is(res.status, 0, res.stderr);
  const plugins = JSON.parse(res.stdout) as Array<{
    id: string;
    version: string;
    hooks: string[];
    contributions: Record<string, string[]>;
    extensionPoints: string[];
  }>;
  const discovery = plugins.find((p) => p.id === 'discovery');
  assert.ok(discovery);
  assert.is(discovery.version, '1.0.0');
  // A surface is a contribution (a list entry), not a hook: discovery taps no hook.
  assert.equal(discovery.contributions, { surfaces: ['discovery'] });
  assert.equal(discovery.hooks, []);
  const rss = plugins.find((p) => p.id === 'rss');
  assert.equal(rss?.contributions['flows.handlers'], ['rss']);
  // Extension points are shown with their owner, and contributions to them by list id.
  assert.equal(plugins.find((p) => p.id === 'chat')?.extensionPoints, ['chat.tools']);
  assert.equal(plugins.find((p) => p.id === 'analytics')?.extensionPoints, ['analytics.tools']);
  assert.ok(plugins.find((p) => p.id === 'global-tools')?.contributions['chat.tools']?.includes('web_fetch'));
  assert.equal(plugins.find((p) => p.id === 'analytics-crawler-stats')?.contributions['analytics.tools'], ['crawler-stats']);
  const table = await cliInProcess(['plugins', 'list']);
  assert.match(table.stdout, /^ID\s+VERSION\s+OWNS\s+CONTRIBUTES\s+HOOKS$/m);
  assert.match(table.stdout, /^discovery\s+1\.0\.0\s+surfaces \(1\)$/m);
  assert.match(table.stdout, /^chat\s+1\.0\.0\s+chat\.tools\s+surfaces \(1\), chat\.tools \(\d+\)$/m);
  assert.match(
    table.stdout,
    /^docsync\s+1\.0\.0\s+surfaces \(1\), content\.postTypes \(1\), content\.taxonomies \(1\), chat\.tools \(4\)\s+repairInterrupted$/m,
  );
});

plugins('an extra plugin by module path through FLOWHOST_PLUGINS', async () => {
  const res = await cliInProcess(['plugins', 'list', '--json'], { env: { FLOWHOST_PLUGINS: './dist/examples/hello-plugin/index.js' } });
  assert.is(res.status, 0, res.stderr);
  const ids = (JSON.parse(res.stdout) as Array<{ id: string }>).map((p) => p.id);
  assert.ok(ids.includes('hello'));
  const bad = await cliInProcess(['plugins', 'list'], { env: { FLOWHOST_PLUGINS: './no/such/plugin.js' } });
  assert.is.not(bad.status, 0);
  assert.match(bad.stderr, /could not be loaded/);
});

plugins.run();

// Spawned once: a real process opens a store nobody holds and reads the password from its real stdin.
const spawned = suite('cli: flowhost user set-password, spawned, store nobody holds');
spawned('set-password --password-stdin reads the real stdin', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-'));
  const created = await cliInProcess(['user', 'create', 'alice', '--role', 'editor', '--init', '--data-dir', dataDir]);
  assert.is(created.status, 0, created.stderr);
  const ok = spawnCli(['user', 'set-password', 'alice', '--password-stdin', '--data-dir', dataDir], {}, 'a long enough password\n');
  assert.is(ok.status, 0, ok.stderr);
  assert.match(ok.stdout, /Password set for 'alice'/);
});
spawned.run();
