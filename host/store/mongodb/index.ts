export { MongoStore, MongoStoreUnavailableError, openMongoStore, SEQUENCES_COLLECTION, type MongoStoreOptions } from './mongo-store.js';
export { MongoUrlError, parseMongoUrl, type MongoUrlInfo } from './connection-url.js';
