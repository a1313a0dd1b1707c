/** What the host's own routes share: the store, the host's state, its paths and the route table. */
import type { DocumentStore } from '../../../core/store/port.js';
import type { CompiledRoute } from '../route-table.js';

/** Where the host is in its life: only `ready` takes traffic (GET /readyz). */
export type Readiness = 'starting' | 'ready' | 'stopping';

export interface SystemContext {
  store: DocumentStore;
  readiness: () => Readiness;
  serverUrl: () => string;
  openapiPath: string;
  referencePath: string;
  assetsPath: string;
  /** The plugins' routes until the system's are compiled, then all of them. */
  table: () => CompiledRoute[];
}
