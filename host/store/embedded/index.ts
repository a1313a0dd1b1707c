export { EmbeddedStore, StoreClosedError, StoreLockedError, openEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
export type { EmbeddedCollection } from './embedded-collection.js';
export type { SelectOptions } from './select-sql.js';
