// What a new user reads: commands that run this checkout's own build (never `npx`, which
// fetches and installs a copy of the project elsewhere the first time), current Node advice,
// the licence package.json names, a changelog and a troubleshooting page whose quoted
// messages are the ones the code really prints.
import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../support/host-process.js';

const test = suite('docs: the pages a new user reads');
const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');
const pages = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .map((f) => `docs/${f}`),
];

test('no page tells anyone to run npx', () => {
  const found = pages.flatMap((page) =>
    read(page)
      .split('\n')
      .flatMap((line, i) => (/\bnpx\b/.test(line) ? [`${page}:${i + 1}: ${line.trim()}`] : [])),
  );
  assert.equal(found, []);
});

test('the README recommends Node 24 LTS and says 20.19+ still works', () => {
  const readme = read('README.md');
  assert.match(readme, /Node(\.js)? 24 LTS/);
  assert.match(readme, /20\.19/);
  assert.not.match(readme, /Node 20\.19\+ or 24/, 'the old advice put the end-of-life line first');
});

test('LICENSE is the MIT licence package.json names; CHANGELOG has this version', () => {
  const manifest = JSON.parse(read('package.json')) as { license: string; version: string };
  assert.is(manifest.license, 'MIT');
  assert.ok(existsSync(join(repoRoot, 'LICENSE')), 'LICENSE is missing');
  assert.match(read('LICENSE'), /^MIT License/);
  assert.match(read('LICENSE'), /Permission is hereby granted, free of charge/);
  assert.ok(existsSync(join(repoRoot, 'CHANGELOG.md')), 'CHANGELOG.md is missing');
  assert.match(read('CHANGELOG.md'), new RegExp(`^## ${manifest.version.replace(/\./g, '\\.')}\\b`, 'm'));
});

test("troubleshooting covers a new user's errors, quoting the code's own messages", () => {
  assert.ok(existsSync(join(repoRoot, 'docs/troubleshooting.md')), 'docs/troubleshooting.md is missing');
  const page = read('docs/troubleshooting.md');
  for (const topic of [
    'is already in use',
    'cannot be written',
    '401',
    '403',
    '429',
    'Retry-After',
    'FLOWHOST_TRUST_PROXY',
    'FLOWHOST_ALLOW_PRIVATE_URLS',
    'better-sqlite3',
    'NODE_MODULE_VERSION',
    'flowhost logs tail',
    'FLOWHOST_LOG_LEVEL',
  ]) {
    assert.ok(page.includes(topic), `no word of ${topic}`);
  }
  // Each message the page quotes as Flowhost's (a `> ` line) is in the sources, placeholders aside
  // (default error messages live in the error catalogue).
  const sources = [
    'host/http/listen.ts',
    'host/runtime/prepare-data-dir.ts',
    'sdk/errors.ts',
    'sdk/errors/catalogue.ts',
    'host/auth/authenticator.ts',
    'host/auth/login-throttle.ts',
    'core/webhooks/trigger-limits.ts',
    'host/net/address-policy.ts',
    'host/net/url-policy.ts',
    'host/net/checked-lookup.ts',
    'host/store/open-store.ts',
    'host/http/client-address.ts',
  ]
    .map(read)
    .join('\n');
  const quoted = page
    .split('\n')
    .filter((l) => l.startsWith('> '))
    .map((l) => l.slice(2).trim());
  assert.ok(quoted.length >= 6, 'the page quotes the messages');
  for (const message of quoted) {
    for (const piece of message
      .split(/<[^>]+>/)
      .map((p) => p.trim())
      .filter((p) => p.length > 8))
      assert.ok(sources.includes(piece), `not a message of the code: "${piece}"`);
  }
});

test.run();
