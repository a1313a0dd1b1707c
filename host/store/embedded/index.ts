export { EmbeddedStore, StoreLockedError, openEmbeddedStore, type EmbeddedStoreOptions } from './embedded-store.js';
