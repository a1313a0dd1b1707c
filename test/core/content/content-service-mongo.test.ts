// The same cases on MongoDB (skipped without MONGODB_URL, failing under FLOWHOST_REQUIRE_MONGO=1).
import { openMongoStore } from '../../../host/store/mongodb/index.js';
import { freshDatabaseUrl, requireMongo } from '../../support/mongo-env.js';
import { contentStoreCases } from './content-store.cases.js';

const url = requireMongo('content store (mongodb)');
if (url) contentStoreCases('mongodb', async () => openMongoStore({ url: freshDatabaseUrl(url, 'flowhost_content') })).run();
