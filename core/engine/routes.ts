import { unixSecondsSchema } from '../kernel/input-limits.js';
import type { SurfaceDefinition } from '../kernel/routes.js';
import type { ExecuteService } from './execute.js';
import { withResponses } from '../kernel/response-schemas.js';
import { executeResponses } from './responses.js';
import { defineRoute } from '../../sdk/define.js';

const workflowStep = {
  type: 'object',
  required: ['type'],
  properties: {
    type: { type: 'string', minLength: 1 },
    handler_slug: { type: 'string' },
    handler_config: { type: 'object' },
    provider: { type: 'string' },
    model: { type: 'string' },
    system_prompt: { type: 'string' },
    user_message: { type: 'string' },
  },
} as const;

export function executeSurface(execute: ExecuteService): SurfaceDefinition {
  return withResponses(
    {
      id: 'execute',
      routes: [
        defineRoute({
          method: 'POST',
          path: '/execute',
          permission: { capability: 'manage_options' },
          summary: 'Run a saved flow or an ephemeral workflow, now or once at `timestamp`',
          schema: {
            body: {
              type: 'object',
              properties: {
                flow_id: { type: 'integer', minimum: 1 },
                workflow: {
                  type: 'object',
                  required: ['steps'],
                  properties: { steps: { type: 'array', minItems: 1, maxItems: 50, items: workflowStep } },
                },
                timestamp: unixSecondsSchema,
                initial_data: { type: 'object' },
              },
            },
          },
          handle: (request) => execute.execute(request.body, 'execute', request.user),
        }),
      ],
    },
    executeResponses,
  );
}
