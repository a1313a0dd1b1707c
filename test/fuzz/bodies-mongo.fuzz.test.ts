// Shaped bodies on every body-reading route, MongoDB (body-shapes-suite.ts); fails without MONGODB_URL in CI.
import { bodyShapesSuite } from './body-shapes-suite.js';
import { testStores } from '../support/test-stores.js';

for (const store of testStores('fuzz: bodies').filter((s) => s.label === 'mongodb')) bodyShapesSuite(store).run();
