// Property-based fuzzing of every route the host registers (core, host and plugin routes,
// optional plugins included), with generators derived from each route's own schemas. For
// every request: no 5xx, a JSON object body, errors shaped { code, message, data: { status } }.
// After every property: GET /healthz is 200, nothing crashed, Object.prototype is clean.
// This file: the embedded store; routes-mongo.fuzz.test.ts: MongoDB (fuzz-suite.ts has both).
//
//   npm run fuzz                          default budget (FUZZ_RUNS=4000 requests per store; 2000 in npm test)
//   npm run fuzz -- --runs 20000 --seed 42 --keep-going
import { routeFuzzSuite } from './fuzz-suite.js';
import { testStores } from '../support/test-stores.js';

const embedded = testStores('fuzz: routes').find((s) => s.label === 'embedded')!;
(await routeFuzzSuite(embedded)).run();
