/** The bodies the webhook routes answer (see docs/api.md), as checked in tests and published in openapi.json. */
import type { JsonSchema } from '../kernel/json-schema.js';
import { anyObject, bool, errorBody, int, isoDate, list, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

const rateLimit = obj({ max: int, window_seconds: int });
const maskedSecret = obj({
  id: str,
  value: { type: 'string', description: 'masked: the last characters only' },
  expires_at: nullable(isoDate),
  created_at: isoDate,
});

/** A flow's webhook trigger, secrets masked; only flow_id and enabled when there is none. */
export const webhookStatus: JsonSchema = obj(
  {
    flow_id: int,
    enabled: bool,
    mode: str,
    preset: nullable(str),
    token: { type: 'string', description: 'bearer mode, masked' },
    secrets: list(maskedSecret),
    template: nullable(anyObject),
    rate_limit: rateLimit,
    max_body_bytes: int,
    dedupe_window_seconds: int,
    idempotency_window_seconds: {
      type: 'integer',
      description: 'how long an Idempotency-Key is remembered: dedupe_window_seconds, or 86400 when that is 0',
    },
  },
  ['flow_id', 'enabled'],
);

/** Right after enabling: the status plus the new token or secret, once, in clear. */
const enabled: JsonSchema = obj(
  { ...(webhookStatus.properties as Record<string, JsonSchema>), token: str, secret: obj({ id: str, value: str }) },
  ['flow_id', 'enabled'],
);

const warnings: JsonSchema = {
  type: 'array',
  items: str,
  description: 'Advice (a weak secret, a duplicate window on a trigger with no event id); absent when none',
};
const secretAnswer = (status: number) => ({
  [status]: successBody({ message: str, data: obj({ secret: obj({ id: str, value: str }) }), warnings }, ['message', 'data']),
});
const flowNotFound = errorBody('flow_not_found');
const noWebhook = errorBody('flow_not_found', 'webhook_not_enabled');

export const webhookAdminResponses: Record<string, Record<number, JsonSchema>> = {
  'GET /flows/{flow_id}/webhook': { 200: successBody({ data: webhookStatus }), 404: flowNotFound },
  'PUT /flows/{flow_id}/webhook': {
    200: successBody({ message: str, data: enabled, warnings }, ['message', 'data']),
    400: errorBody('preset_not_found', 'template_required', 'invalid_template', 'invalid_mode', 'rest_invalid_param'),
    404: flowNotFound,
  },
  'DELETE /flows/{flow_id}/webhook': { 200: successBody({ message: str }), 404: flowNotFound },
  'POST /flows/{flow_id}/webhook/regenerate': {
    200: successBody({ message: str, data: obj({ token: str }) }),
    400: errorBody('not_bearer'),
    404: noWebhook,
  },
  'POST /flows/{flow_id}/webhook/secrets': { ...secretAnswer(201), 400: errorBody('not_hmac', 'rest_invalid_param'), 404: noWebhook },
  'PUT /flows/{flow_id}/webhook/secrets': { ...secretAnswer(200), 400: errorBody('not_hmac', 'rest_invalid_param'), 404: noWebhook },
  'DELETE /flows/{flow_id}/webhook/secrets/{secret_id}': {
    200: successBody({ message: str }),
    404: errorBody('flow_not_found', 'webhook_not_enabled', 'secret_not_found'),
  },
  'PUT /flows/{flow_id}/webhook/rate-limit': { 200: successBody({ message: str, data: obj({ rate_limit: rateLimit }) }), 404: noWebhook },
  'PUT /flows/{flow_id}/webhook/dedupe': {
    200: successBody({ message: str, data: obj({ dedupe_window_seconds: int }), warnings }, ['message', 'data']),
    404: noWebhook,
  },
  'GET /webhook-presets': { 200: successBody({ data: list(obj({ slug: str, label: str, template: anyObject })) }) },
};

export const webhookTriggerResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /trigger/{flow_id}': {
    200: successBody({ flow_id: int, flow_name: str, job_id: nullable(int), message: str, duplicate: { const: true } }, [
      'flow_id',
      'flow_name',
      'job_id',
      'message',
    ]),
    400: errorBody('rest_invalid_json', 'invalid_idempotency_key'),
    401: errorBody('rest_unauthorized'),
    409: errorBody('webhook_event_in_progress'),
    422: errorBody('idempotency_key_reused'),
    429: errorBody('rest_too_many_requests'),
  },
};
