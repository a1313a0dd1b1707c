import { call } from './api.js';
import { CancelRowButton } from './cancel-run.js';
import { useRetrySelected } from './retry-selected.js';
import { ErrorNote, Loading, Page, Status, useLoad } from './components.js';
import { duration, when } from './format.js';
import type { Job } from './model.js';
import { href, navigate, type Route } from './router.js';

const STATUSES = ['pending', 'processing', 'waiting', 'completed', 'completed_no_items', 'failed', 'skipped', 'cancelled'];
/** Until the first page answers: the API's own default (the site setting jobs_per_page) sizes the pages. */
const PER_PAGE = 50;

/**
 * The runs, newest first, with the API's filters in the address; status updates live. For a
 * user who may (`mayManage`: manage_options): Cancel on a pending or running one, and Retry
 * selected for the failed or cancelled ones ticked.
 */
export function Jobs({ route, mayManage }: { route: Route; mayManage: boolean }) {
  const status = route.query.get('status') ?? '';
  const flowId = route.query.get('flow_id') ?? '';
  const offset = Number(route.query.get('offset') ?? 0) || 0;
  const list = useLoad(
    () =>
      call<{ data: Job[]; total: number; per_page: number }>('GET', '/jobs', {
        query: { offset, status, flow_id: flowId, hide_children: true },
      }),
    [status, flowId, offset],
    2000,
  );
  const retry = useRetrySelected(list.reload, `${status}|${flowId}|${offset}`);
  const filter = (changes: Record<string, string>) =>
    navigate('/jobs', { status, flow_id: flowId, ...changes, offset: undefined as unknown as string });
  return (
    <Page title="Runs" actions={mayManage ? retry.button : undefined}>
      <form class="inline card filters" aria-label="Filter runs" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select name="status" value={status} onChange={(e) => filter({ status: (e.target as HTMLSelectElement).value })}>
            <option value="">Any</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replace(/_/g, ' ')}
              </option>
            ))}
          </select>
        </label>
        <label>
          Flow id
          <input
            name="flow_id"
            type="number"
            min={1}
            value={flowId}
            onChange={(e) => filter({ flow_id: (e.target as HTMLInputElement).value })}
          />
        </label>
      </form>
      {retry.report}
      <ErrorNote error={list.error} />
      {!list.data ? (
        list.error ? null : (
          <Loading />
        )
      ) : list.data.data.length === 0 ? (
        <p class="empty">No runs match.</p>
      ) : (
        <table aria-live="polite">
          <thead>
            <tr>
              {mayManage ? (
                <th scope="col">
                  <span class="sr-only">Select</span>
                </th>
              ) : null}
              <th scope="col">Job</th>
              <th scope="col">Flow</th>
              <th scope="col">Status</th>
              <th scope="col">Started</th>
              <th scope="col">Took</th>
              {mayManage ? (
                <th scope="col">
                  <span class="sr-only">Actions</span>
                </th>
              ) : null}
            </tr>
          </thead>
          <tbody>
            {list.data.data.map((job) => (
              <tr key={job.job_id}>
                {mayManage ? <td class="select">{retry.checkbox(job)}</td> : null}
                <td>
                  <a href={href(`/jobs/${job.job_id}`)}>{job.job_id}</a>
                </td>
                <td>{job.flow_id ? <a href={href(`/flows/${job.flow_id}`)}>{job.flow_name ?? job.flow_id}</a> : (job.label ?? '—')}</td>
                <td>
                  <Status value={job.status} />
                  {job.status === 'waiting' && job.review ? (
                    <span class="muted">
                      {' '}
                      {job.review.pending} item{job.review.pending === 1 ? '' : 's'} to <a href={href('/review')}>review</a>
                    </span>
                  ) : null}
                  {job.retried_by != null ? (
                    <span class="muted">
                      {' '}
                      retried by <a href={href(`/jobs/${job.retried_by}`)}>job {job.retried_by}</a>
                    </span>
                  ) : null}
                </td>
                <td>{when(job.started_at ?? job.created_at)}</td>
                <td>{duration(job.duration_ms)}</td>
                {mayManage ? (
                  <td>
                    <CancelRowButton jobId={job.job_id} status={job.status} reload={list.reload} />
                  </td>
                ) : null}
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {list.data ? (
        <nav class="pager" aria-label="Pages of runs">
          {offset > 0 ? (
            <a href={href('/jobs', { status, flow_id: flowId, offset: Math.max(0, offset - (list.data.per_page ?? PER_PAGE)) })}>Newer</a>
          ) : null}
          <span class="muted">{list.data.total === 0 ? '' : `${offset + 1}–${offset + list.data.data.length} of ${list.data.total}`}</span>
          {offset + (list.data.per_page ?? PER_PAGE) < list.data.total ? (
            <a href={href('/jobs', { status, flow_id: flowId, offset: offset + (list.data.per_page ?? PER_PAGE) })}>Older</a>
          ) : null}
        </nav>
      ) : null}
    </Page>
  );
}
