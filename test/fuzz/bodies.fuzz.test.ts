// Shaped bodies on every body-reading route, embedded store (body-shapes-suite.ts).
import { bodyShapesSuite } from './body-shapes-suite.js';
import { testStores } from '../support/test-stores.js';

bodyShapesSuite(testStores('fuzz: bodies').find((s) => s.label === 'embedded')!).run();
