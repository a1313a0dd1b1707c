/** The bodies the user preference routes answer (see docs/api.md). */
import type { JsonSchema } from '../kernel/json-schema.js';
import { errorBody, int, nullable, successBody } from '../kernel/response-schemas.js';

const preference = successBody({ user_id: int, selected_pipeline_id: nullable(int) });

export const preferencesResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /users/me': { 200: preference, 404: errorBody('rest_user_invalid_id') },
  'POST /users/me': { 200: preference, 404: errorBody('rest_user_invalid_id', 'pipeline_not_found') },
  'GET /users/{id}': { 200: preference, 404: errorBody('rest_user_invalid_id') },
  'POST /users/{id}': { 200: preference, 404: errorBody('rest_user_invalid_id', 'pipeline_not_found') },
};
