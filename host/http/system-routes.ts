import type { DocumentStore } from '../../core/store/port.js';
import { ApiError } from '../../core/errors.js';
import { reply } from '../../core/kernel/routes.js';
import { FLOWHOST_VERSION } from '../../core/kernel/version.js';
import { buildOpenApi } from './openapi.js';
import type { CompiledRoute } from './route-table.js';

const HEALTH_TIMEOUT_MS = 3000;

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

function systemRoute(method: 'GET', fullPath: string, summary: string, handle: CompiledRoute['definition']['handle']): CompiledRoute {
  return {
    method,
    fullPath,
    routerPath: fullPath,
    surfaceId: 'system',
    namespace: '',
    owner: 'host',
    booleanQuery: [],
    definition: { method, path: fullPath, permission: 'public', summary, handle },
  };
}

/** GET /healthz (store status; 503 when unusable) and GET {prefix}/openapi.json. */
export function systemRoutes(deps: { routes: CompiledRoute[]; store: DocumentStore; apiPrefix: string; serverUrl: () => string }): CompiledRoute[] {
  const health = systemRoute('GET', '/healthz', 'Health: 200 when the store answers, 503 otherwise', async () => {
    try {
      // Bounded: a load balancer's probe must get an answer even while the database hangs.
      await withTimeout(deps.store.ping(), HEALTH_TIMEOUT_MS);
      return { success: true, status: 'ok', version: FLOWHOST_VERSION, store: { kind: deps.store.kind, status: 'ok' } };
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const failure = new ApiError('store_unavailable', `The ${deps.store.kind} store is unavailable: ${reason}`, 503);
      return reply(503, { success: false, ...failure.toBody(), status: 'unavailable', store: { kind: deps.store.kind, status: 'unavailable' } });
    }
  });
  const table = [...deps.routes, health];
  const openapi = systemRoute('GET', `${deps.apiPrefix}/openapi.json`, 'This API as OpenAPI 3.1', () => ({
    success: true,
    ...buildOpenApi([...table, openapi], { version: FLOWHOST_VERSION, serverUrl: deps.serverUrl() || '/' }),
  }));
  return [health, openapi];
}
