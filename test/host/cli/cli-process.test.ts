// Issue 31, as a user runs the built binary: shell completion, exit codes and messages of
// the new commands (with the API's error code), and secrets read from stdin (never from
// the command line).
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runCli } from '../../support/host-process.js';

const test = suite('cli: completion and the new commands as a process');
// Its commands pass --init: they mean to work on a store no host holds, created here.
const dataDir = mkdtempSync(join(tmpdir(), 'flowhost-cli-proc-'));

test('flowhost completion prints a bash script, or a zsh one under zsh', () => {
  const bash = runCli(['completion'], { SHELL: '/bin/bash' });
  assert.is(bash.status, 0, bash.stderr);
  assert.match(bash.stdout, /###-begin-flowhost-completions-###/);
  assert.match(bash.stdout, /complete -o bashdefault -o default -F _flowhost_yargs_completions flowhost/);
  const zsh = runCli(['completion'], { SHELL: '/usr/bin/zsh' });
  assert.is(zsh.status, 0, zsh.stderr);
  assert.match(zsh.stdout, /compdef _flowhost_yargs_completions flowhost/);
});

test("completion offers the nouns and a noun's verbs", () => {
  const nouns = runCli(['--get-yargs-completions', 'flowhost', '']);
  assert.is(nouns.status, 0, nouns.stderr);
  for (const noun of ['flows', 'jobs', 'pipelines', 'auth', 'settings', 'preferences', 'processed-items', 'tools', 'completion'])
    assert.match(nouns.stdout, new RegExp(`^${noun}$`, 'm'));
  for (const [words, verbs] of [
    [['flows'], ['delete', 'duplicate', 'problems']],
    [['pipelines'], ['rename', 'steps']],
    [
      ['pipelines', 'steps'],
      ['add', 'remove', 'reorder', 'config'],
    ],
    [['logs'], ['tail', 'metadata', 'clear']],
    [['settings'], ['intervals', 'handler-defaults']],
    [['processed-items'], ['clear']],
    [['tools'], ['web-search']],
  ] as const) {
    const offered = runCli(['--get-yargs-completions', 'flowhost', ...words, '']);
    for (const verb of verbs) assert.match(offered.stdout, new RegExp(`^${verb}$`, 'm'), `flowhost ${words.join(' ')} ${verb}`);
  }
});

test("flows delete <id> is a command: a missing flow is named with the API's code, exit 1, nothing on stdout", () => {
  const res = runCli(['flows', 'delete', '12', '--yes', '--init', '--data-dir', dataDir]);
  assert.is(res.status, 1);
  assert.is(res.stdout, '');
  assert.match(res.stderr, /^flowhost: Flow 12 does not exist \(flow_not_found\)\n/m);
  assert.not.match(res.stderr, /Unknown argument/);
});

test("under --json a refusal is one JSON line on stderr with the API's code, and a usage error too (exit 2)", () => {
  const res = runCli(['flows', 'delete', '12', '--yes', '--json', '--init', '--data-dir', dataDir]);
  assert.is(res.status, 1);
  assert.is(res.stdout, '');
  assert.equal(JSON.parse(res.stderr.trim().split('\n').at(-1)!), {
    error: { message: 'Flow 12 does not exist', code: 'flow_not_found', data: { status: 404 } },
  });
  const usage = runCli(['flows', 'list', '--json', '--bogus-option', '--data-dir', dataDir]);
  assert.is(usage.status, 2);
  assert.is(usage.stdout, '');
  const body = JSON.parse(usage.stderr.trim().split('\n').at(-1)!) as { error: { code: string; message: string } };
  assert.is(body.error.code, 'usage');
  assert.match(body.error.message, /bogus-option/);
});

test('auth set --stdin reads the fields as a JSON object from stdin', () => {
  const res = runCli(
    ['auth', 'set', 'federated', '--stdin', '--json', '--init', '--data-dir', dataDir],
    {},
    '{"handle":"bob.example","password":"wxyz-wxyz-wxyz-wxyz"}\n',
  );
  assert.is(res.status, 0, res.stderr);
  assert.not.match(res.stdout, /wxyz-wxyz/, 'only the masked tail of the secret is shown');
  const status = runCli(['auth', 'status', 'federated', '--json', '--init', '--data-dir', dataDir]);
  assert.is(status.status, 0, status.stderr);
  const parsed = JSON.parse(status.stdout) as { authenticated: boolean; account_details: { username: string } };
  assert.equal([parsed.authenticated, parsed.account_details.username], [true, 'bob.example']);
  const bad = runCli(['auth', 'set', 'federated', '--stdin', '--init', '--data-dir', dataDir], {}, 'handle=bob');
  assert.is(bad.status, 1);
  assert.match(bad.stderr, /stdin is not a JSON object/);
});

test.run();
