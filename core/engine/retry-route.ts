import type { SurfaceDefinition } from '../kernel/routes.js';
import { withResponses } from '../kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import type { RetryService } from './retry.js';
import { retryResponses } from './responses.js';

/** POST /jobs/{id}/retry: a failed or cancelled run again, from its failed step or from the start (docs/api.md). */
export function retrySurface(retries: RetryService): SurfaceDefinition {
  return withResponses(
    {
      id: 'job-retry',
      routes: [
        defineRoute({
          method: 'POST',
          path: '/jobs/{job_id}/retry',
          permission: { capability: 'manage_options' },
          summary: 'Retry a failed or cancelled job from its failed step (with the input it had) or from the start',
          schema: {
            params: { type: 'object', required: ['job_id'], properties: { job_id: { type: 'integer', minimum: 1 } } },
            body: {
              type: 'object',
              additionalProperties: false,
              properties: {
                from: {
                  enum: ['failed_step', 'start'],
                  default: 'failed_step',
                  description:
                    '`failed_step`: earlier steps are not run again, the failed step gets the input it had and items already published are not published again; `start`: the flow as it is now, with the run’s data',
                },
              },
            },
          },
          async handle(request) {
            const { job, retried, from } = await retries.retry(request.params.job_id, request.body.from, 'execute', request.user);
            const where = from === 'failed_step' ? 'from the failed step' : 'from the start';
            return {
              success: true,
              message: `Job ${retried.job_id} retried ${where}: job ${job.job_id}.`,
              data: { job_id: job.job_id, retry_of: retried.job_id, from, status: job.status, flow_id: job.flow_id },
            };
          },
        }),
      ],
    },
    retryResponses,
  );
}
