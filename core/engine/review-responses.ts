/** The bodies the waiting-job routes answer (see docs/api.md, "Waiting jobs"). */
import type { JsonSchema } from '../kernel/json-schema.js';
import { JOB_STATUSES } from '../jobs/model.js';
import { bool, errorBody, int, isoDate, list, nullable, obj, str, successBody } from '../kernel/response-schemas.js';

const decided = successBody({
  message: str,
  data: obj({
    job_id: int,
    status: { enum: JOB_STATUSES },
    decision: { enum: ['approved', 'rejected'] },
    decided: list(str),
    pending: int,
    resumed: bool,
  }),
});
const html: JsonSchema = { type: 'string', contentMediaType: 'text/html' };
const linkRefusals = {
  403: errorBody('review_link_invalid'),
  404: errorBody('job_not_found'),
  409: errorBody('job_not_waiting', 'review_link_used', 'review_step_removed'),
  410: errorBody('review_link_expired'),
};
const byAdmin = {
  200: decided,
  400: errorBody('rest_invalid_param', 'review_items_unknown'),
  404: errorBody('job_not_found'),
  409: errorBody('job_not_waiting', 'review_step_removed'),
};

export const reviewResponses: Record<string, Record<number, JsonSchema>> = {
  'POST /jobs/{job_id}/approve': byAdmin,
  'POST /jobs/{job_id}/reject': byAdmin,
  'GET /jobs/{job_id}/review-links': {
    200: successBody({ data: obj({ job_id: int, review_url: str, webhook_url: nullable(str), expires_at: isoDate }) }),
    404: errorBody('job_not_found'),
    409: errorBody('job_not_waiting'),
  },
  'GET /jobs/{job_id}/review': { 200: html, 403: html, 404: html, 409: html, 410: html },
  'POST /jobs/{job_id}/review': {
    // The page's own form (form-encoded, Accept text/html) gets its refusals as pages.
    ...Object.fromEntries(Object.entries(linkRefusals).map(([status, body]) => [status, { anyOf: [body, html] }])),
    200: { anyOf: [decided, html] },
    400: errorBody('rest_invalid_param', 'rest_missing_callback_param'),
  },
  'POST /jobs/{job_id}/webhook': { ...linkRefusals, 200: decided, 400: errorBody('rest_invalid_param', 'rest_missing_callback_param') },
};
