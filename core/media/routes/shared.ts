/** The schemas, limits and refusals the wp/v2/media routes share (WordPress's wording). */
import type { Principal } from '../../kernel/principal.js';
import { errorBody } from '../../kernel/response-schemas.js';
import type { JsonSchema } from '../../kernel/json-schema.js';
import { apiError } from '../../errors/catalogue.js';

export const TEXT_MAX = 10_000;
export const TITLE_MAX = 1000;

export const invalidId = () => apiError('rest_post_invalid_id', { status: 404 });
/** WordPress's rest_authorization_required_code(): 401 for strangers, 403 for users. */
export const forbidden = (user: Principal | null) => apiError('rest_forbidden', { user });
/** A per-attachment refusal, as WordPress words it, 401 or 403. */
export const refusals: Record<number, JsonSchema> = {
  401: errorBody('rest_forbidden', 'rest_cannot_edit', 'rest_cannot_delete'),
  403: errorBody('rest_forbidden', 'rest_cannot_edit', 'rest_cannot_delete'),
};

/** The refusals of the routes that read: the same, and `context=edit` without the right to edit. */
export const readRefusals: Record<number, JsonSchema> = {
  401: errorBody('rest_forbidden', 'rest_forbidden_context'),
  403: errorBody('rest_forbidden', 'rest_forbidden_context'),
};

/** WordPress's `context`: view (default), edit (raw texts, for those who may edit), embed (short). */
export const contextQuery = {
  type: 'object',
  properties: { context: { type: 'string', enum: ['view', 'edit', 'embed'], default: 'view' } },
} as const satisfies JsonSchema;

/** The errors every route can give before its handler runs (authentication, validation). */
// 401, 403 and 429 (and the validators' 400s) are the dispatcher's, added to every route.
export const common: Record<number, JsonSchema> = {
  400: errorBody(
    'rest_invalid_param',
    'rest_post_invalid_id',
    'rest_post_invalid_page_number',
    'rest_orderby_include_missing_include',
    'rest_upload_no_data',
    'rest_upload_invalid',
    'rest_upload_no_content_disposition',
    'rest_upload_invalid_disposition',
    'rest_upload_sideload_error',
  ),
};

export const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: { type: 'integer', minimum: 1 } },
} as const satisfies JsonSchema;

export const editable = {
  title: { type: 'string', maxLength: TITLE_MAX },
  alt_text: { type: 'string', maxLength: TITLE_MAX },
  caption: { type: 'string', maxLength: TEXT_MAX },
  description: { type: 'string', maxLength: TEXT_MAX },
  post: { type: ['integer', 'null'], minimum: 1 },
} as const satisfies Record<string, JsonSchema>;

export interface Fields {
  title?: string;
  alt_text?: string;
  caption?: string;
  description?: string;
  post?: number | null;
}
