// Runs a host-level suite on every store CI has: the embedded store always, MongoDB when
// MONGODB_URL is set (a fresh database per host). Without it, FLOWHOST_REQUIRE_MONGO=1
// fails the MongoDB variant instead of skipping it (test/support/mongo-env.ts).
import type { HostConfig } from '../../host/config/schema.js';
import { freshDatabaseUrl, requireMongo } from './mongo-env.js';

export interface TestStore {
  label: 'embedded' | 'mongodb';
  /** Config for createTestHost / createHost; call it once per host for a fresh database. */
  config(): Partial<HostConfig>;
}

export function testStores(suiteLabel: string): TestStore[] {
  const stores: TestStore[] = [{ label: 'embedded', config: () => ({}) }];
  const url = requireMongo(`${suiteLabel} (mongodb)`);
  if (url) stores.push({ label: 'mongodb', config: () => ({ mongodbUrl: freshDatabaseUrl(url) }) });
  return stores;
}
