import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig, ConfigError } from '../../../host/config/load-config.js';

const test = suite('host: configuration');
const noFile = join(tmpdir(), 'flowhost-no-such-config.json');

test('defaults', () => {
  const config = loadConfig({ env: {}, file: undefined });
  assert.is(config.port, 8080);
  assert.is(config.host, '127.0.0.1');
  assert.is(config.dataDir, './data');
  assert.is(config.apiPrefix, '/api');
  assert.is(config.coreNamespace, 'automation/v1');
  assert.is(config.bodyLimit, 1048576);
  assert.is(config.allowPrivateUrls, false);
  assert.is(config.heapGrowingPercent, 50);
  assert.is(config.shutdownTimeoutSeconds, 10);
});

test('environment values are converted', () => {
  const config = loadConfig({
    env: {
      PORT: '9001',
      FLOWHOST_API_PREFIX: '/wp-json/',
      FLOWHOST_PLUGINS: 'a, b',
      FLOWHOST_ALLOW_PRIVATE_URLS: '1',
      FLOWHOST_CORE_NAMESPACE: 'datamachine/v1',
    },
  });
  assert.is(config.port, 9001);
  assert.is(config.apiPrefix, '/wp-json');
  assert.equal(config.plugins, ['a', 'b']);
  assert.is(config.allowPrivateUrls, true);
  assert.is(config.coreNamespace, 'datamachine/v1');
  assert.is(loadConfig({ env: { FLOWHOST_HEAP_GROWING_PERCENT: '0' } }).heapGrowingPercent, 0);
  assert.is(loadConfig({ env: { FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS: '30' } }).shutdownTimeoutSeconds, 30);
});

test('an invalid value names the key and the variable, never the value', () => {
  assert.throws(
    () => loadConfig({ env: { PORT: 'eighty' } }),
    (e: Error) => e instanceof ConfigError && /port/.test(e.message) && /PORT/.test(e.message),
  );
  assert.throws(() => loadConfig({ env: { PORT: '70000' } }), /port must be <= 65535/);
  assert.throws(() => loadConfig({ env: { FLOWHOST_API_PREFIX: 'no-slash' } }), /apiPrefix/);
  assert.throws(() => loadConfig({ env: { FLOWHOST_PUBLIC_URL: 'ftp://x' } }), /publicUrl/);
  assert.throws(() => loadConfig({ env: { FLOWHOST_HEAP_GROWING_PERCENT: '-5' } }), /heapGrowingPercent.*FLOWHOST_HEAP_GROWING_PERCENT/);
  assert.throws(() => loadConfig({ env: { FLOWHOST_HEAP_GROWING_PERCENT: 'lots' } }), /heapGrowingPercent/);
  assert.throws(
    () => loadConfig({ env: { FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS: '-1' } }),
    /shutdownTimeoutSeconds.*FLOWHOST_SHUTDOWN_TIMEOUT_SECONDS/,
  );
  assert.throws(
    () => loadConfig({ env: { MONGODB_URL: 'postgres://user:hunter2@db' } }),
    (e: Error) => /mongodbUrl/.test(e.message) && !/hunter2/.test(e.message),
  );
});

test('a config file is read, and env wins over it', () => {
  const dir = mkdtempSync(join(tmpdir(), 'flowhost-config-'));
  const file = join(dir, 'flowhost.config.json');
  writeFileSync(file, JSON.stringify({ port: 9100, pluginSettings: { hello: { greeting: 'Hi' } } }));
  assert.is(loadConfig({ env: {}, file }).port, 9100);
  assert.equal(loadConfig({ env: {}, file }).pluginSettings, { hello: { greeting: 'Hi' } });
  assert.is(loadConfig({ env: { PORT: '9200' }, file }).port, 9200);
  writeFileSync(file, JSON.stringify({ prot: 1 }));
  assert.throws(() => loadConfig({ env: {}, file }), /prot is not an allowed property/);
  writeFileSync(file, '{nope');
  assert.throws(() => loadConfig({ env: {}, file }), /not valid/);
  assert.throws(() => loadConfig({ env: {}, file: noFile }), /does not exist/);
});

test.run();
