import { openEmbeddedStore } from '../../../host/store/embedded/index.js';
import { contentStoreCases } from './content-store.cases.js';

contentStoreCases('embedded', async () => openEmbeddedStore({ file: ':memory:' })).run();
