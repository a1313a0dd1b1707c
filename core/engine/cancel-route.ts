import type { SurfaceDefinition } from '../kernel/routes.js';
import { withResponses } from '../kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import type { Engine } from './engine.js';
import { cancelResponses } from './responses.js';

/** POST /jobs/{id}/cancel: a stuck or unwanted run ends, and its flow is free again (docs/api.md). */
export function cancelSurface(engine: Engine): SurfaceDefinition {
  return withResponses(
    {
      id: 'job-cancel',
      routes: [
        defineRoute({
          method: 'POST',
          path: '/jobs/{job_id}/cancel',
          permission: { capability: 'manage_options' },
          summary: 'Cancel a pending, queued or running job; a running one frees its flow and stops at its next step',
          schema: { params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'integer', minimum: 1 } } } },
          async handle(request) {
            const who = request.user ? `${request.user.login} (user ${request.user.userId})` : 'an administrator';
            const job = await engine.cancel(request.params.job_id, `Cancelled by ${who}`);
            return {
              success: true,
              message: `Job ${job.job_id} cancelled${job.status === 'processing' ? '; its run stops at its next step' : ''}.`,
              data: { job_id: job.job_id, status: 'cancelled', previous_status: job.status, flow_id: job.flow_id },
            };
          },
        }),
      ],
    },
    cancelResponses,
  );
}
