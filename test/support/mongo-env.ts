// Shared rule for suites that need MongoDB: MONGODB_URL set → run; unset → fail when
// FLOWHOST_REQUIRE_MONGO=1 (CI), otherwise report the suite as skipped (the runner counts
// the `Skipped suites:` line; uvu's own skip is not used).
import { suite } from 'uvu';
import { randomBytes } from 'node:crypto';

export function requireMongo(label: string): string | null {
  const url = process.env.MONGODB_URL;
  if (url) return url;
  if (process.env.FLOWHOST_REQUIRE_MONGO === '1') {
    const required = suite(label);
    required('a MongoDB server to test against', () => {
      throw new Error('MONGODB_URL is required (FLOWHOST_REQUIRE_MONGO=1): start one with test/support/mongo-server/start-mongo.sh');
    });
    required.run();
  } else {
    console.log(`${label}: MONGODB_URL is not set; skipped`);
    console.log('  Skipped suites:   1');
  }
  return null;
}

/** The same server with a fresh, random database name. */
export function freshDatabaseUrl(url: string, prefix = 'flowhost_test'): string {
  return url.replace(/^(mongodb(?:\+srv)?:\/\/[^/?#]*)(\/[^?#]*)?/i, `$1/${prefix}_${randomBytes(6).toString('hex')}`);
}
