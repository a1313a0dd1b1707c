import { RateLimiterMongo } from 'rate-limiter-flexible';
import type { MongoStore } from '../store/mongodb/index.js';
import type { LimiterFactory } from './login-throttle.js';

/**
 * Failed-login counters in MongoDB (rate-limiter-flexible's Mongo store), so every host
 * sharing the database sees the same counts: an attacker cannot spread guesses over hosts.
 */
export function mongoLimiters(store: MongoStore): LimiterFactory {
  return (name, points, duration) =>
    new RateLimiterMongo({
      storeClient: store.driverClient,
      dbName: store.database,
      tableName: 'rate_limits',
      keyPrefix: name,
      points,
      duration,
    });
}
