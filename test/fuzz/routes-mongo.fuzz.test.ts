// The route fuzz (see routes.fuzz.test.ts) on MongoDB: its own file, so each store has the
// runner's whole per-suite time budget. Without MONGODB_URL it is skipped (failed when
// FLOWHOST_REQUIRE_MONGO=1, as in CI).
import { routeFuzzSuite } from './fuzz-suite.js';
import { testStores } from '../support/test-stores.js';

const mongo = testStores('fuzz: routes').find((s) => s.label === 'mongodb');
if (mongo) (await routeFuzzSuite(mongo)).run();
