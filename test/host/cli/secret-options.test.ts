// Secrets never on the command line (issue 52): `webhook enable|set-secret|rotate --secret` and
// `user set-password --password` take `-` (standard input) or `@<file>`; a literal value is
// refused without echoing it and changes nothing. The real CLI is spawned (real argv, real
// stdin) against a host on every store; what counts is what the server then accepts: a
// delivery signed with the secret, a sign-in with the password.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHmac } from 'node:crypto';
import { basicAuth, runCliAsync } from '../../support/host-process.js';
import { startCliHost } from '../../support/cli-in-process.js';
import { optionalPlugins } from '../../../plugins/index.js';
import { testStores } from '../../support/test-stores.js';

type Ran = { status: number | null; stdout: string; stderr: string };

/** Refused, with a message saying how to give it, and the value appears in neither stream. */
function assertRefused(res: Ran, option: string, literal: string) {
  assert.is.not(res.status, 0);
  assert.ok(!res.stdout.includes(literal) && !res.stderr.includes(literal), `the literal was echoed: ${res.stdout}${res.stderr}`);
  assert.ok(res.stderr.includes(`--${option} -`) && res.stderr.includes(`--${option} @<file>`), res.stderr);
}

for (const store of testStores('cli: secret options')) {
  const test = suite(`cli: secrets from stdin or a file, never argv (${store.label})`);
  const files = mkdtempSync(join(tmpdir(), 'flowhost-secret-files-'));
  const inFile = (name: string, text: string) => {
    const path = join(files, name);
    writeFileSync(path, text);
    return `@${path}`;
  };

  test('webhook enable, set-secret, rotate: --secret - or @file; a literal is refused and changes nothing', async () => {
    const { host, dataDir } = await startCliHost(store.config(), [optionalPlugins['webhook-presets']!]);
    try {
      const auth = basicAuth('admin', readFileSync(join(dataDir, 'initial-admin-password'), 'utf8').trim());
      const api = async (method: string, path: string, body?: unknown) =>
        (
          (await (
            await fetch(`${host.url}/api/automation/v1${path}`, {
              method,
              headers: { Authorization: auth, 'Content-Type': 'application/json' },
              body: body === undefined ? undefined : JSON.stringify(body),
            })
          ).json()) as { data: Record<string, unknown> }
        ).data;
      const pipelineId = (await api('POST', '/pipelines', { pipeline_name: 'Hook', steps: [{ step_type: 'fetch' }] }))
        .pipeline_id as number;
      const flowId = String((await api('POST', '/flows', { pipeline_id: pipelineId })).flow_id);
      const cli = (args: string[], input = '') =>
        runCliAsync(['webhook', ...args, '--data-dir', dataDir], { FLOWHOST_PLUGINS: 'webhook-presets' }, input);
      const secretIds = async () => ((await api('GET', `/flows/${flowId}/webhook`)).secrets as Array<{ id: string }>).map((s) => s.id);
      let delivery = 0;
      const deliver = async (secret: string) => {
        const body = JSON.stringify({ n: ++delivery });
        const res = await fetch(`${host.url}/api/automation/v1/trigger/${flowId}`, {
          method: 'POST',
          headers: {
            'X-Hub-Signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
            'X-GitHub-Delivery': `delivery-${delivery}`,
            'Content-Type': 'application/json',
          },
          body,
        });
        return res.status;
      };
      const enable = ['enable', flowId, '--mode', 'hmac', '--preset', 'github'];

      const literal = 'argv-secret-1234567-should-not-show';
      assertRefused(await cli([...enable, '--secret', literal]), 'secret', literal);
      assert.is((await api('GET', `/flows/${flowId}/webhook`)).enabled, false, 'a refused enable enables nothing');

      const first = 'first secret from stdin 0123456789';
      const fromStdin = await cli([...enable, '--secret', '-', '--json'], `${first}\n`);
      assert.is(fromStdin.status, 0, fromStdin.stderr);
      assert.is((JSON.parse(fromStdin.stdout) as { secret: { value: string } }).secret.value, first, 'one trailing newline dropped');
      assert.is(await deliver(first), 200);
      const second = 'second secret from a file 0123456789';
      const fromFile = await cli([...enable, '--secret', inFile('enable', `${second}\n`)]);
      assert.is(fromFile.status, 0, fromFile.stderr);
      assert.match(fromFile.stdout, /\(shown once\): second secret from a file/);
      assert.is(await deliver(second), 200);

      const before = await secretIds();
      assertRefused(await cli(['set-secret', flowId, '--secret', literal, '--json']), 'secret', literal);
      assertRefused(await cli(['rotate', flowId, '--secret', literal]), 'secret', literal);
      assert.equal(await secretIds(), before, 'refused set-secret and rotate change no secret');
      assert.is(await deliver(second), 200);
      assert.is.not(await deliver(literal), 200);

      const third = 'third secret set from stdin 0123456789';
      const set = await cli(['set-secret', flowId, '--secret', '-', '--json'], `${third}\n`);
      assert.is(set.status, 0, set.stderr);
      assert.is((JSON.parse(set.stdout) as { secret: { value: string } }).secret.value, third);
      assert.is(await deliver(third), 200);
      assert.is.not(await deliver(second), 200, 'set-secret replaces every secret');
      const fourth = 'fourth secret set from a file 012345';
      assert.is((await cli(['set-secret', flowId, '--secret', inFile('set', fourth)])).status, 0);
      assert.is(await deliver(fourth), 200);

      const fifth = 'fifth secret rotated in from stdin 01';
      const rotated = await cli(['rotate', flowId, '--ttl', '60', '--secret', '-', '--json'], `${fifth}\n`);
      assert.is(rotated.status, 0, rotated.stderr);
      assert.is((JSON.parse(rotated.stdout) as { secret: { value: string } }).secret.value, fifth);
      const sixth = 'sixth secret rotated in from a file 0';
      assert.is((await cli(['rotate', flowId, '--ttl', '60', '--secret', inFile('rotate', `${sixth}\n`)])).status, 0);
      for (const secret of [fourth, fifth, sixth]) assert.is(await deliver(secret), 200, 'rotated secrets and the current one verify');

      const empty = await cli(['rotate', flowId, '--secret', '-']);
      assert.is.not(empty.status, 0);
      assert.match(empty.stderr, /--secret: the value is empty \(nothing on standard input\)/);
      const missing = await cli(['rotate', flowId, '--secret', `@${join(files, 'no-such-file')}`]);
      assert.is.not(missing.status, 0);
      assert.match(missing.stderr, /--secret: cannot read .*no-such-file \(ENOENT\)/);
      assert.is((await secretIds()).length, 3, 'nor do an empty stdin or a missing file');
      assert.match((await cli(['rotate', '--help'])).stdout, /--secret\s+- to read the secret from standard input, @<file>/);
    } finally {
      await host.stop();
    }
  });

  test('user set-password: --password - / --password-stdin / --password @file; a literal is refused and changes nothing', async () => {
    const config = store.config();
    const { host, dataDir } = await startCliHost(config);
    // On MongoDB the CLI works on the database itself (open-admin.ts): the same one as the host.
    const env: Record<string, string> = config.mongodbUrl ? { MONGODB_URL: config.mongodbUrl } : {};
    try {
      const cli = (args: string[], input = '') => runCliAsync(['user', ...args, '--data-dir', dataDir], env, input);
      const signIn = async (password: string) =>
        (
          await fetch(`${host.url}/api/automation/v1/session`, {
            method: 'POST',
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ login: 'carol', password }),
          })
        ).status;
      const created = await cli(['create', 'carol', '--role', 'editor']);
      assert.is(created.status, 0, created.stderr);

      const literal = 'argvpassword1-not-to-show';
      assertRefused(await cli(['set-password', 'carol', '--password', literal, '--json']), 'password', literal);
      const listed = JSON.parse((await cli(['list', '--json'])).stdout) as Array<{ login: string; has_password: boolean }>;
      assert.is(listed.find((u) => u.login === 'carol')?.has_password, false, 'a refused set-password sets nothing');
      assert.is.not(await signIn(literal), 200);

      const piped = 'a password from stdin';
      const viaDash = await cli(['set-password', 'carol', '--password', '-', '--json'], `${piped}\n`);
      assert.is(viaDash.status, 0, viaDash.stderr);
      assert.equal(JSON.parse(viaDash.stdout), { updated: true, login: 'carol' });
      assert.is(await signIn(piped), 200);

      const filed = 'a password from a file';
      const viaFile = await cli(['set-password', 'carol', '--password', inFile('password', `${filed}\n`)]);
      assert.is(viaFile.status, 0, viaFile.stderr);
      assert.match(viaFile.stdout, /Password set for 'carol'/);
      assert.is(await signIn(filed), 200);
      assert.is.not(await signIn(piped), 200);

      const flagged = 'a password from --password-stdin';
      assert.is((await cli(['set-password', 'carol', '--password-stdin'], `${flagged}\n`)).status, 0);
      assert.is(await signIn(flagged), 200);

      const none = await cli(['set-password', 'carol']);
      assert.is.not(none.status, 0);
      assert.match(none.stderr, /--password-stdin/);
      assert.match((await cli(['set-password', '--help'])).stdout, /--password\s+- to read the new password from standard input/);
    } finally {
      await host.stop();
    }
  });

  test.run();
}
