/** GET /healthz: liveness, with the store's status (503 when it does not answer). */
import { reply, type RouteDefinition } from '../../../core/kernel/routes.js';
import { successBody } from '../../../core/kernel/response-schemas.js';
import { FLOWHOST_VERSION } from '../../../core/kernel/version.js';
import { apiError } from '../../../core/errors/catalogue.js';
import type { SystemContext } from './context.js';
import { HEALTH_TIMEOUT_MS, storeState, withTimeout } from './probe.js';

export function healthRoute(ctx: SystemContext): RouteDefinition {
  const { store } = ctx;
  return {
    method: 'GET',
    path: '/healthz',
    permission: 'public',
    summary: 'Health: 200 when the store answers, 503 otherwise',
    schema: {
      responses: {
        200: successBody({ status: { const: 'ok' }, version: { type: 'string' }, store: storeState('ok') }),
        503: {
          type: 'object',
          required: ['success', 'code', 'message', 'data', 'status', 'store'],
          properties: {
            success: { const: false },
            code: { enum: ['store_unavailable'] },
            message: { type: 'string' },
            data: { type: 'object', required: ['status'], properties: { status: { const: 503 } } },
            status: { const: 'unavailable' },
            store: storeState('unavailable'),
          },
        },
      },
    },
    handle: async () => {
      try {
        // Bounded: a load balancer's probe must get an answer even while the database hangs.
        await withTimeout(store.ping(), HEALTH_TIMEOUT_MS);
        return { success: true, status: 'ok', version: FLOWHOST_VERSION, store: { kind: store.kind, status: 'ok' } };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        const failure = apiError('store_unavailable', { message: `The ${store.kind} store is unavailable: ${reason}` });
        return reply(503, {
          success: false,
          ...failure.toBody(),
          status: 'unavailable',
          store: { kind: store.kind, status: 'unavailable' },
        });
      }
    },
  };
}
