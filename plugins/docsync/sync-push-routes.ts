/** /sync/doc and /sync/batch: documents pushed one at a time or many at once. */
import { Type } from '../../sdk/index.js';
import {
  ApiError,
  apiError,
  defineRoute,
  errorBody,
  ksesPost,
  ksesTitle,
  parameterValidators,
  successBody,
  type Principal,
  type RouteDefinition,
} from '../../sdk/index.js';
import { requireEditable, requirePublishRight, requireTermCreation } from './access.js';
import type { SyncedDocInput, SyncedDocResult } from './docs-service.js';
import { MAX_CONTENT, isoDateTime, segment } from './schemas.js';
import { force, int, str, type SyncRouteDeps } from './sync-route-pieces.js';

// The field order and the required list are the spec's (the openapi document shows them).
const docInput = Type.Object({
  source_file: Type.String({ minLength: 1, maxLength: 1000 }),
  title: Type.String({ minLength: 1, maxLength: 1000 }),
  content: Type.String({ maxLength: MAX_CONTENT }),
  project_term_id: Type.Integer({ minimum: 1 }),
  filesize: Type.Integer({ minimum: 0 }),
  timestamp: Type.Unsafe<string>(isoDateTime),
  subpath: Type.Optional(Type.Array(segment, { maxItems: 10 })),
  excerpt: Type.Optional(Type.String({ maxLength: 10_000 })),
  force,
});

/**
 * A batch checks each document on its own: one lacking a field fails alone (counted in
 * `failed`, its result saying why) instead of refusing the whole batch, as the spec's
 * answer shape has it. Codes as WordPress's REST validation names them.
 */
// A plain copy: the validator cache takes JSON Schema, which a TypeBox interface is not to tsc.
const batchDoc = { parameters: { ...docInput } };
const validatorOf = parameterValidators<typeof batchDoc>();
function batchDocProblem(value: unknown): ApiError | null {
  const validate = validatorOf(batchDoc);
  if (validate(value)) return null;
  const errors = validate.errors ?? [];
  const missing = errors
    .filter((e) => e.keyword === 'required')
    .map((e) => String((e.params as { missingProperty?: string }).missingProperty));
  if (missing.length)
    return apiError('rest_missing_callback_param', { message: `Missing parameter(s): ${missing.join(', ')}`, data: { params: missing } });
  const where = errors.map((e) => `${e.instancePath.split('/').filter(Boolean).join('.') || 'document'} ${e.message ?? 'is invalid'}`);
  return apiError('rest_invalid_param', { message: `Invalid parameter(s): ${[...new Set(where)].join('; ')}` });
}

type PushDoc = (input: SyncedDocInput, user: Principal | null) => Promise<SyncedDocResult>;

export function syncPushRoutes(deps: SyncRouteDeps): RouteDefinition[] {
  const { docs } = deps;
  /**
   * A pushed document, written as its pusher may write it (WordPress's rights, as on
   * /docs and wp/v2): a document already there needs edit_post on it (an author: one they
   * pushed or wrote themselves; a repository sync's documents have no author, so they are
   * editors'), a new or re-published one publish_posts; without unfiltered_html the text
   * gets kses. A new document is the pusher's own.
   */
  const pushDoc = async (input: SyncedDocInput, user: Principal | null) => {
    const trusted = user?.can('unfiltered_html') === true;
    const text = trusted
      ? input
      : {
          ...input,
          title: ksesTitle(input.title),
          content: ksesPost(input.content),
          ...(input.excerpt !== undefined ? { excerpt: ksesPost(input.excerpt) } : {}),
        };
    return docs.upsertSynced(text, undefined, {
      author_id: user?.userId ?? null,
      check: (existing) => {
        if (existing) requireEditable(user, existing);
        if (!existing || existing.status === 'trash') requirePublishRight(user, 'publish');
      },
      mayCreate: (segment) => requireTermCreation(user, segment),
    });
  };
  return [pushDocRoute(pushDoc), pushBatchRoute(pushDoc)];
}

/** Refusals of a write to one post: not allowed to edit it, or to publish. */
const perPostErrors = {
  401: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
  403: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
};

function pushDocRoute(pushDoc: PushDoc): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/sync/doc',
    permission: { capability: 'edit_posts' },
    summary: 'Create or update the post of one source file under a project term (unchanged unless forced)',
    schema: {
      body: docInput,
      responses: {
        200: successBody({ post_id: int, action: str, term_id: int, term_path: str }),
        400: errorBody('invalid_post', 'docsync_term_slug_taken', 'invalid_term', 'term_exists'),
        404: errorBody('not_found'),
        ...perPostErrors,
      },
    },
    async handle(request) {
      return { ...(await pushDoc(request.body, request.user)) };
    },
  });
}

function pushBatchRoute(pushDoc: PushDoc): RouteDefinition {
  return defineRoute({
    method: 'POST',
    path: '/sync/batch',
    permission: { capability: 'edit_posts' },
    summary: 'POST /sync/doc for many files; one failing does not stop the others',
    schema: {
      // Items are checked one by one in the handler (see batchDocProblem), not here.
      // Unsafe: the array as it was, with no `items` (Type.Array(Type.Unknown()) adds `items: {}`).
      body: Type.Object({ docs: Type.Unsafe<unknown[]>({ type: 'array', minItems: 1, maxItems: 500 }) }),
      responses: {
        200: successBody({
          total: int,
          created: int,
          updated: int,
          unchanged: int,
          failed: int,
          results: {
            type: 'array',
            items: {
              type: 'object',
              required: ['success', 'post_id', 'action', 'source_file'],
              properties: {
                success: { type: 'boolean' },
                post_id: { anyOf: [int, { type: 'null' }] },
                action: str,
                source_file: { anyOf: [str, { type: 'null' }] },
                error: { type: 'object', required: ['code', 'message'], properties: { code: str, message: str } },
              },
            },
          },
        }),
      },
    },
    async handle(request) {
      const list = request.body.docs;
      const counts = { created: 0, updated: 0, unchanged: 0, failed: 0 };
      const results = [];
      for (const item of list) {
        const named =
          typeof item === 'object' && item !== null && 'source_file' in item && typeof item.source_file === 'string'
            ? item.source_file
            : null;
        const problem = batchDocProblem(item);
        if (problem) {
          counts.failed++;
          results.push({
            success: false,
            post_id: null,
            action: 'failed',
            source_file: named,
            error: { code: problem.code, message: problem.message },
          });
          continue;
        }
        const input = item as SyncedDocInput;
        try {
          const done = await pushDoc(input, request.user);
          counts[done.action]++;
          results.push({ success: true, post_id: done.post_id, action: done.action, source_file: input.source_file });
        } catch (error) {
          counts.failed++;
          const code = error instanceof ApiError ? error.code : 'docsync_doc_failed';
          const message = error instanceof ApiError ? error.message : 'The document could not be written';
          if (!(error instanceof ApiError)) request.log.error({ err: error }, 'docsync: batch document failed');
          results.push({ success: false, post_id: null, action: 'failed', source_file: input.source_file, error: { code, message } });
        }
      }
      return { total: list.length, ...counts, results };
    },
  });
}
