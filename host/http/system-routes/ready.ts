/**
 * GET /readyz. Liveness (/healthz) and readiness differ: a host that is starting or stopping
 * is alive and must not be restarted, but a load balancer should send it nothing.
 */
import { reply, type RouteDefinition } from '../../../core/kernel/routes.js';
import { successBody } from '../../../core/kernel/response-schemas.js';
import { apiError } from '../../../core/errors/catalogue.js';
import type { SystemContext } from './context.js';
import { HEALTH_TIMEOUT_MS, storeState, withTimeout } from './probe.js';

export function readyRoute(ctx: SystemContext): RouteDefinition {
  const { store } = ctx;
  return {
    method: 'GET',
    path: '/readyz',
    permission: 'public',
    summary: 'Readiness: 200 when started and the store answers; 503 while starting, stopping or when the store does not answer',
    schema: {
      responses: {
        200: successBody({ status: { const: 'ready' }, store: storeState('ok') }),
        503: {
          type: 'object',
          required: ['success', 'code', 'message', 'data', 'status'],
          properties: {
            success: { const: false },
            code: { enum: ['host_starting', 'host_stopping', 'store_unavailable'] },
            message: { type: 'string' },
            data: { type: 'object', required: ['status'], properties: { status: { const: 503 } } },
            status: { enum: ['starting', 'stopping', 'unavailable'] },
            store: storeState('unavailable'),
          },
        },
      },
    },
    handle: async () => {
      const state = ctx.readiness();
      if (state !== 'ready') {
        const failure = state === 'starting' ? apiError('host_starting') : apiError('host_stopping');
        return reply(503, { success: false, ...failure.toBody(), status: state }, { 'Retry-After': '1' });
      }
      try {
        await withTimeout(store.ping(), HEALTH_TIMEOUT_MS);
        return { success: true, status: 'ready', store: { kind: store.kind, status: 'ok' } };
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
