import { suite } from 'uvu';
import * as assert from 'uvu/assert';
import { MongoUrlError, parseMongoUrl } from '../../host/store/mongodb/index.js';

const url = suite('mongodb store: connection URLs');

url('database from the path, flowhost when the path is empty', () => {
  assert.is(parseMongoUrl('mongodb://127.0.0.1:27017/app').database, 'app');
  assert.is(parseMongoUrl('mongodb://127.0.0.1:27017/app?replicaSet=rs0').database, 'app');
  assert.is(parseMongoUrl('mongodb://127.0.0.1:27017').database, 'flowhost');
  assert.is(parseMongoUrl('mongodb://127.0.0.1:27017/?replicaSet=rs0').database, 'flowhost');
  assert.is(parseMongoUrl('mongodb+srv://cluster.example.org/my%20db').database, 'my db');
});

url('hosts as written, credentials never shown', () => {
  const info = parseMongoUrl('mongodb://admin:p%40ss:word@h1:27017,h2:27018/app?authSource=admin&tlsCertificateKeyFilePassword=kfp');
  assert.is(info.hosts, 'h1:27017,h2:27018');
  assert.is(info.redacted, 'mongodb://admin:***@h1:27017,h2:27018/app?authSource=...&tlsCertificateKeyFilePassword=...');
  assert.not.match(info.redacted, 'kfp');
  assert.is(parseMongoUrl('mongodb://h1/app').redacted, 'mongodb://h1/app');
  assert.is(parseMongoUrl('mongodb://user@h1/app').redacted, 'mongodb://user@h1/app');
});

url('scrub removes the password in raw and decoded form, and any URL credentials', () => {
  const info = parseMongoUrl('mongodb://admin:p%40ss@h1/app');
  assert.is(info.scrub('auth failed for p@ss and p%40ss'), 'auth failed for *** and ***');
  assert.is(info.scrub('see mongodb://other:secret@h2/x'), 'see mongodb://***@h2/x');
});

url('refuses what is not a MongoDB URL', () => {
  for (const bad of ['', 'http://h1/app', 'mongodb://', 'mongodb:///app']) {
    assert.throws(
      () => parseMongoUrl(bad),
      (e: Error) => e instanceof MongoUrlError,
    );
  }
});

url.run();
