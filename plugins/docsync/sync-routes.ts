/** /sync: repository syncs (as background jobs), token and repository diagnostics, and pushed docs. */
import { Type } from '../../sdk/index.js';
import {
  ApiError,
  canReadPost,
  defineRoute,
  errorBody,
  ksesPost,
  ksesTitle,
  maskSecret,
  parameterValidators,
  successBody,
  type ContentStore,
  type JsonSchema,
  type Principal,
  type RouteDefinition,
  apiError,
} from '../../sdk/index.js';
import { requireEditable, requirePublishRight, requireTermCreation } from './access.js';
import type { DocsService, SyncedDocInput } from './docs-service.js';
import { SourceClient, SourceError, parseRepoUrl } from './github.js';
import type { JobDoc, SyncJobs } from './jobs.js';
import { ALL_STATUSES, POST_META, POST_TYPE, type DocsyncSettings } from './model.js';
import type { Projects } from './projects.js';
import { repositoryInfo } from './project-routes.js';
import { MAX_CONTENT, isoDateTime, progressSchema, segment, syncErrorSchema } from './schemas.js';
import type { AccessToken } from './token.js';
import { docsyncError } from './errors.js';

const int = { type: 'integer' } as const;
const str = { type: 'string' } as const;
const strings = { type: 'array', items: str } as const;
const jobFields: Record<string, JsonSchema> = {
  job_id: str,
  status: { enum: ['queued', 'running', 'completed', 'failed'] },
  progress: progressSchema,
};
// The request schemas are TypeBox so the routes (defineRoute) read them typed. A default
// is applied by the host before a handler runs; the field stays optional in the schema (a
// client may leave it out), so handlers fall back to the same value.
const waitProperty = Type.Optional(
  Type.Integer({
    minimum: 0,
    maximum: 300,
    description: 'Seconds to wait for the job before answering with its id (default: the configured sync_wait_seconds)',
  }),
);
const force = Type.Optional(Type.Boolean({ default: false }));
const slugPattern = Type.String({ minLength: 1, maxLength: 200 });
const idParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

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

/** A source-hosting failure as the API's error: the spec lets its data carry owner, repo and sso_url. */
function sourceFailure(error: SourceError): ApiError {
  // One declared code per kind: the catalogue (errors.ts) holds each kind's status.
  return docsyncError(`docsync_${error.kind}`, { message: error.message, data: { ...error.details } });
}

export function syncRoutes(deps: {
  content: ContentStore;
  docs: DocsService;
  projects: Projects;
  jobs: SyncJobs;
  token: AccessToken;
  settings: DocsyncSettings;
}): RouteDefinition[] {
  const { docs, projects, jobs, token, settings } = deps;
  const baseUrl = settings.github_base_url.replace(/\/+$/, '');
  const client = async () => new SourceClient(baseUrl, await token.current());
  const jobView = (job: JobDoc) => ({ job_id: job._id, status: job.status, progress: job.progress });
  const waitFor = async (job: JobDoc, seconds: number | undefined) =>
    (await jobs.wait(job._id, 1000 * (seconds ?? settings.sync_wait_seconds))) ?? job;
  const stillRunning = (job: JobDoc) =>
    `The sync is still running (job ${job._id}: ${job.progress.files_done} of ${job.progress.files_total} files of ${job.progress.repository || 'the first repository'}); follow GET /sync/jobs/${job._id}.`;
  const failed = (job: JobDoc) =>
    docsyncError('docsync_sync_failed', {
      message: `The sync job ${job._id} failed: ${job.error ?? 'unknown error'}`,
      data: { job_id: job._id },
    });

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
  const perPostErrors = {
    401: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
    403: errorBody('rest_cannot_edit', 'rest_cannot_publish', 'rest_forbidden'),
  };

  return [
    defineRoute({
      method: 'POST',
      path: '/sync/all',
      permission: { capability: 'manage_options' },
      summary: 'Sync every project with a repository address (a background job; waits for it up to `wait` seconds)',
      schema: {
        body: Type.Object({ force, wait: waitProperty }),
        responses: {
          200: successBody(
            {
              repos_synced: int,
              total_added: int,
              total_updated: int,
              total_removed: int,
              total_unchanged: int,
              errors: { type: 'array', items: syncErrorSchema },
              message: str,
              complete: { type: 'boolean' },
              ...jobFields,
            },
            [
              'repos_synced',
              'total_added',
              'total_updated',
              'total_removed',
              'errors',
              'message',
              'complete',
              'job_id',
              'status',
              'progress',
            ],
          ),
          500: errorBody('docsync_sync_failed'),
        },
      },
      async handle(request) {
        const body = request.body;
        const job = await waitFor(await jobs.start(null, body.force ?? false), body.wait);
        if (job.status === 'failed') throw failed(job);
        const r = job.result;
        if (job.status !== 'completed' || !r)
          return {
            repos_synced: 0,
            total_added: 0,
            total_updated: 0,
            total_removed: 0,
            errors: [],
            message: stillRunning(job),
            complete: false,
            ...jobView(job),
          };
        return {
          repos_synced: r.repos_synced,
          total_added: r.total_added,
          total_updated: r.total_updated,
          total_removed: r.total_removed,
          total_unchanged: r.total_unchanged,
          errors: r.errors,
          message: r.message,
          complete: true,
          ...jobView(job),
        };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/sync/term/{id}',
      permission: { capability: 'manage_options' },
      summary: "Sync one project term's repository (force: fetch and read every file again; unchanged ones stay unchanged)",
      schema: {
        params: idParams,
        body: Type.Object({ id: Type.Optional(Type.Integer({ minimum: 1 })), force, wait: waitProperty }),
        responses: {
          200: successBody(
            {
              added: int,
              updated: int,
              removed: int,
              unchanged: int,
              errors: { type: 'array', items: syncErrorSchema },
              message: str,
              complete: { type: 'boolean' },
              ...jobFields,
            },
            ['added', 'updated', 'removed', 'errors', 'message', 'complete', 'job_id', 'status', 'progress'],
          ),
          400: errorBody('docsync_no_repository'),
          404: errorBody('not_found'),
          500: errorBody('docsync_sync_failed'),
        },
      },
      async handle(request) {
        const id = request.params.id;
        const body = request.body;
        const term = await projects.get(id);
        if (!term) throw docsyncError('not_found', { message: `Project term ${id} not found`, data: { id } });
        if (!repositoryInfo(term))
          throw docsyncError('docsync_no_repository', {
            message: `Project term '${term.slug}' has no repository address (PUT /project/${id} with meta.github_url)`,
            data: { id },
          });
        const job = await waitFor(await jobs.start([id], body.force ?? false), body.wait);
        if (job.status === 'failed') throw failed(job);
        const r = job.result;
        if (job.status !== 'completed' || !r)
          return { added: 0, updated: 0, removed: 0, errors: [], message: stillRunning(job), complete: false, ...jobView(job) };
        return {
          added: r.total_added,
          updated: r.total_updated,
          removed: r.total_removed,
          unchanged: r.total_unchanged,
          errors: r.errors,
          message: r.message,
          complete: true,
          ...jobView(job),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/sync/jobs/{id}',
      permission: { capability: 'manage_options' },
      summary: 'A sync job: its progress, and its totals once completed',
      schema: {
        params: Type.Object({ id: Type.String({ pattern: '^sync-[0-9]{1,15}$' }) }),
        responses: {
          200: successBody({
            ...jobFields,
            force: { type: 'boolean' },
            created_at: str,
            finished_at: { anyOf: [str, { type: 'null' }] },
            error: { anyOf: [str, { type: 'null' }] },
            result: {
              anyOf: [
                { type: 'null' },
                {
                  type: 'object',
                  required: [
                    'repos_synced',
                    'total_added',
                    'total_updated',
                    'total_removed',
                    'total_unchanged',
                    'blobs_fetched',
                    'added',
                    'updated',
                    'removed',
                    'errors',
                    'message',
                  ],
                  properties: {
                    repos_synced: int,
                    total_added: int,
                    total_updated: int,
                    total_removed: int,
                    total_unchanged: int,
                    blobs_fetched: int,
                    added: strings,
                    updated: strings,
                    removed: strings,
                    errors: { type: 'array', items: syncErrorSchema },
                    message: str,
                  },
                },
              ],
            },
          }),
          404: errorBody('not_found'),
        },
      },
      async handle(request) {
        const id = request.params.id;
        const job = await jobs.get(id);
        if (!job) throw docsyncError('not_found', { message: `No sync job ${id}`, data: { id } });
        return {
          ...jobView(job),
          force: job.force,
          created_at: new Date(job.created_at).toISOString(),
          finished_at: job.finished_at ? new Date(job.finished_at).toISOString() : null,
          error: job.error,
          result: job.result,
        };
      },
    }),
    {
      method: 'GET',
      path: '/sync/token',
      permission: { capability: 'manage_options' },
      summary: 'Whether a source-hosting access token is configured (masked)',
      schema: { responses: { 200: successBody({ configured: { type: 'boolean' }, token: str, base_url: str }) } },
      async handle() {
        const current = await token.current();
        return { configured: current !== '', token: maskSecret(current), base_url: baseUrl };
      },
    },
    defineRoute({
      method: 'PUT',
      path: '/sync/token',
      permission: { capability: 'manage_options' },
      summary: "Save the source-hosting access token (sealed; '' removes it, the masked value keeps it)",
      schema: {
        body: Type.Object({ token: Type.String({ maxLength: 4096 }) }, { additionalProperties: false }),
        responses: { 200: successBody({ configured: { type: 'boolean' }, token: str, base_url: str }) },
      },
      async handle(request) {
        await token.save(request.body.token);
        const current = await token.current();
        return { configured: current !== '', token: maskSecret(current), base_url: baseUrl };
      },
    }),
    {
      method: 'GET',
      path: '/sync/test-token',
      permission: { capability: 'manage_options' },
      summary: "The configured token's account, scopes and rate limit (never the token)",
      schema: {
        responses: {
          200: successBody({
            configured: { type: 'boolean' },
            valid: { type: 'boolean' },
            login: str,
            scopes: strings,
            rate_limit: {
              type: 'object',
              required: ['limit', 'remaining', 'reset'],
              properties: { limit: int, remaining: int, reset: str },
            },
            token: str,
          }),
          400: errorBody('docsync_token_missing', 'docsync_unauthorized', 'docsync_rate_limited', 'docsync_upstream'),
          403: errorBody('docsync_forbidden', 'docsync_sso_required'),
          404: errorBody('docsync_not_found'),
        },
      },
      async handle() {
        const current = await token.current();
        if (!current) throw docsyncError('docsync_token_missing');
        try {
          const info = await (await client()).tokenInfo();
          return { configured: true, valid: true, ...info, token: maskSecret(current) };
        } catch (error) {
          if (error instanceof SourceError) throw sourceFailure(error);
          throw error;
        }
      },
    },
    defineRoute({
      method: 'POST',
      path: '/sync/test-repo',
      permission: { capability: 'manage_options' },
      summary: 'Whether the repository can be read, its default branch and markdown files',
      schema: {
        body: Type.Object({ repo_url: Type.String({ minLength: 1, maxLength: 500 }) }),
        responses: {
          200: successBody({
            owner: str,
            repo: str,
            full_name: str,
            default_branch: str,
            private: { type: 'boolean' },
            html_url: str,
            markdown_files: int,
            tree_truncated: { type: 'boolean' },
          }),
          400: errorBody('docsync_invalid_repo_url', 'docsync_unauthorized', 'docsync_rate_limited', 'docsync_upstream'),
          403: errorBody('docsync_forbidden', 'docsync_sso_required'),
          404: errorBody('docsync_not_found'),
        },
      },
      async handle(request) {
        const url = request.body.repo_url;
        const ref = parseRepoUrl(url);
        if (!ref)
          throw docsyncError('docsync_invalid_repo_url', {
            message: `'${url.slice(0, 200)}' is not a repository address (https://host/owner/repo or owner/repo)`,
          });
        try {
          const source = await client();
          const repo = await source.repository(ref);
          const tree = await source.tree(ref, repo.default_branch);
          const markdown = tree.files.filter((f) => /\.(md|markdown|mdx)$/i.test(f.path)).length;
          return {
            owner: ref.owner,
            repo: ref.repo,
            full_name: repo.full_name,
            default_branch: repo.default_branch,
            private: repo.private,
            html_url: repo.html_url,
            markdown_files: markdown,
            tree_truncated: tree.truncated,
          };
        } catch (error) {
          if (error instanceof SourceError) throw sourceFailure(error);
          throw error;
        }
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/sync/setup',
      permission: { capability: 'manage_categories' },
      summary: 'Ensure a category term and a project term under it',
      schema: {
        body: Type.Object({ project_slug: slugPattern, project_name: segment, category_slug: slugPattern, category_name: segment }),
        responses: {
          200: successBody({ category_term_id: int, category_slug: str, project_term_id: int, project_slug: str }),
          400: errorBody('docsync_term_slug_taken', 'invalid_term', 'term_exists'),
        },
      },
      async handle(request) {
        const b = request.body;
        const category = (await projects.ensureNamed(null, b.category_slug, b.category_name, 'category')).term;
        const project = (await projects.ensureNamed(category, b.project_slug, b.project_name, 'project')).term;
        return {
          category_term_id: category.term_id,
          category_slug: category.slug,
          project_term_id: project.term_id,
          project_slug: project.slug,
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/sync/status',
      permission: { capability: 'edit_posts' },
      summary: 'The synced documentation of a project (its term and the terms below it)',
      schema: {
        query: Type.Object({ project: slugPattern }),
        responses: {
          200: successBody({
            total_docs: int,
            synced_docs: int,
            project_slug: str,
            project_term: int,
            docs: {
              type: 'array',
              items: {
                type: 'object',
                required: ['post_id', 'title', 'source_file', 'sync_filesize', 'sync_timestamp', 'status'],
                properties: { post_id: int, title: str, source_file: str, sync_filesize: str, sync_timestamp: str, status: str },
              },
            },
          }),
          404: errorBody('not_found'),
        },
      },
      async handle(request) {
        const slug = request.query.project;
        const terms = await projects.all();
        const term = [...terms.values()].find((t) => t.slug === slug);
        if (!term)
          throw docsyncError('not_found', {
            message: `No project term with the slug '${slug.slice(0, 200)}'`,
            data: { project: slug.slice(0, 200) },
          });
        const ids = projects.descendants(term.term_id, terms);
        const entries = [];
        for (let offset = 0; ; offset += 100) {
          const page = await deps.content.findPosts({
            post_type: POST_TYPE,
            status: ALL_STATUSES.filter((s) => s !== 'trash'),
            terms: [{ taxonomy: 'project', term_ids: ids }],
            per_page: 100,
            offset,
            orderby: 'post_id',
            order: 'asc',
          });
          for (const post of page.items) {
            // Others' drafts and private documentation are not listed to those who may not read them.
            if (!canReadPost(post, request.user)) continue;
            const source = String(post.meta[POST_META.sourceFile] ?? '');
            entries.push({
              post_id: post.post_id,
              title: post.title,
              source_file: source,
              sync_filesize: String(post.meta[POST_META.filesize] ?? ''),
              sync_timestamp: String(post.meta[POST_META.timestamp] ?? ''),
              status: source ? 'synced' : 'manual',
            });
          }
          if (offset + 100 >= page.total || page.items.length === 0) break;
        }
        return {
          total_docs: entries.length,
          synced_docs: entries.filter((e) => e.status === 'synced').length,
          project_slug: term.slug,
          project_term: term.term_id,
          docs: entries,
        };
      },
    }),
    defineRoute({
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
    }),
    defineRoute({
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
    }),
  ];
}
