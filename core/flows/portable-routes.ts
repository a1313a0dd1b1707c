import { reply, type SurfaceDefinition } from '../kernel/routes.js';
import { errorBody, successBody } from '../kernel/response-schemas.js';
import { pipelineIdParams } from '../pipelines/schemas.js';
import { flowIdParams } from './schemas.js';
import { exportDocumentSchema, importBody } from './portable-schemas.js';
import type { PortableFlows } from './portable.js';
import { defineRoute } from '../../sdk/define.js';

const admin = { capability: 'manage_options' } as const;

const authErrors = {
  401: errorBody('rest_not_logged_in', 'rest_invalid_credentials'),
  403: errorBody('rest_forbidden', 'rest_cookie_invalid_nonce'),
  429: errorBody('rest_too_many_requests'),
} as const;

const exportResponses = (notFoundCodes: string[]) => ({
  200: successBody({ data: exportDocumentSchema }),
  400: errorBody('rest_invalid_param', 'rest_missing_callback_param', 'rest_invalid_url'),
  ...authErrors,
  404: errorBody(...notFoundCodes),
});

/** Portable export (a flow or a pipeline, by position, without secrets) and import as a new pipeline. */
export function portableSurface(portable: PortableFlows): SurfaceDefinition {
  return {
    id: 'flows-portable',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/flows/{flow_id}/export',
        permission: admin,
        summary: "Export a flow with its pipeline's steps (steps by position; no secrets)",
        schema: { params: flowIdParams, responses: exportResponses(['flow_not_found', 'pipeline_not_found']) },
        async handle(request) {
          return { success: true, data: await portable.exportFlow(request.params.flow_id) };
        },
      }),
      defineRoute({
        method: 'GET',
        path: '/pipelines/{id}/export',
        permission: admin,
        summary: 'Export a pipeline with all its flows (steps by position; no secrets)',
        schema: { params: pipelineIdParams, responses: exportResponses(['pipeline_not_found']) },
        async handle(request) {
          return { success: true, data: await portable.exportPipeline(request.params.id) };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/flows/import',
        permission: admin,
        summary: 'Import an export document as a new pipeline with its flows (never merges)',
        schema: {
          body: importBody,
          responses: {
            201: successBody({
              message: { type: 'string' },
              data: {
                type: 'object',
                required: ['pipeline_id', 'pipeline_name', 'flow_ids', 'secrets_omitted'],
                properties: {
                  pipeline_id: { type: 'integer' },
                  pipeline_name: { type: 'string' },
                  flow_ids: { type: 'array', items: { type: 'integer' } },
                  secrets_omitted: { type: 'array', items: { type: 'string' } },
                },
              },
            }),
            400: errorBody(
              'invalid_import',
              'rest_invalid_json',
              'rest_invalid_param',
              'rest_invalid_document',
              'rest_missing_callback_param',
              'rest_invalid_url',
            ),
            ...authErrors,
            413: errorBody('rest_payload_too_large'),
            // A store failure while writing (what was written is removed first).
            500: errorBody('internal_error'),
          },
        },
        async handle(request) {
          const result = await portable.import(request.body, request.user);
          const secrets = result.secrets_omitted.length
            ? ` Set the ${result.secrets_omitted.length} secret(s) it left out before running.`
            : '';
          return reply(201, {
            success: true,
            message: `Imported as pipeline ${result.pipeline_id} with ${result.flow_ids.length} flow(s).${secrets}`,
            data: result,
          });
        },
      }),
    ],
  };
}
