/** What the webhook administration routes share: the permission and the parameters. */
import type { RouteRequest } from '../../kernel/routes.js';

export const admin = { capability: 'manage_options' } as const;
export const dedupeWindow = { type: 'integer', minimum: 0, maximum: 2592000 } as const;
export const idParams = { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } as const;
export const flowIdOf = (request: RouteRequest) => Number(request.params.flow_id);
