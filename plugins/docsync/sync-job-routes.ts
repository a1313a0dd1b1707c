/** /sync/all, /sync/term/{id} and /sync/jobs/{id}: repository syncs run as background jobs, and their progress. */
import { Type } from '../../sdk/index.js';
import { defineRoute, errorBody, successBody, type RouteDefinition } from '../../sdk/index.js';
import { docsyncError } from './errors.js';
import type { JobDoc } from './jobs.js';
import { repositoryInfo } from './project-routes.js';
import { syncErrorSchema } from './schemas.js';
import { force, idParams, int, jobFields, str, strings, type SyncRouteDeps, waitProperty } from './sync-route-pieces.js';

/** What the job routes share: waiting for a job, and the words for one still running or failed. */
function jobAnswers(deps: SyncRouteDeps) {
  const { jobs, settings } = deps;
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
  return { jobView, waitFor, stillRunning, failed };
}
type JobAnswers = ReturnType<typeof jobAnswers>;

export function syncJobRoutes(deps: SyncRouteDeps): RouteDefinition[] {
  const answers = jobAnswers(deps);
  return [syncAllRoute(deps, answers), syncTermRoute(deps, answers), syncJobRoute(deps, answers)];
}

function syncAllRoute({ jobs }: SyncRouteDeps, { waitFor, failed, stillRunning, jobView }: JobAnswers): RouteDefinition {
  return defineRoute({
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
  });
}

function syncTermRoute({ jobs, projects }: SyncRouteDeps, { waitFor, failed, stillRunning, jobView }: JobAnswers): RouteDefinition {
  return defineRoute({
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
  });
}

function syncJobRoute({ jobs }: SyncRouteDeps, { jobView }: JobAnswers): RouteDefinition {
  return defineRoute({
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
  });
}
