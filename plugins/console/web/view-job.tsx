import { useEffect, useState } from 'preact/hooks';
import { call } from './api.js';
import { ErrorNote, Loading, Page, Status, useLoad } from './components.js';
import { duration, when } from './format.js';
import type { Job } from './model.js';
import { href } from './router.js';
import { StepRecords, TriggerNote } from './view-job-record.js';
import { CANCELLABLE, useCancelRun } from './cancel-run.js';
import { useRetryRun } from './retry-run.js';
import { ReviewCard } from './review-card.js';

const FINISHED = new Set(['completed', 'completed_no_items', 'failed', 'skipped', 'cancelled']);

/**
 * One run: each step's outcome and items, its error naming the step by position, its AI
 * usage; a run at an approval step shows its items to approve or reject (and keeps their
 * decisions once decided); Cancel while it is pending or running, Retry once it failed or was cancelled, for a
 * user who may (`mayManage`: the routes' manage_options).
 */
export function JobView({ id, mayManage }: { id: number; mayManage: boolean }) {
  // Read again every 1.5 s until the run has ended: an ended run does not change, and its
  // items can be a few hundred kilobytes.
  const [endedId, setEndedId] = useState<number | null>(null);
  const job = useLoad(
    () => call<{ data: Job }>('GET', `/jobs/${id}`, { query: { include: 'packets' } }),
    [id],
    endedId === id ? undefined : 1500,
  );
  const shown = job.data?.data;
  const cancel = useCancelRun(id, job.reload);
  useEffect(() => {
    if (shown && shown.job_id === id && FINISHED.has(shown.status)) setEndedId(id);
  }, [shown?.job_id, shown?.status, id]);
  const retry = useRetryRun(shown, mayManage, job.reload);
  if (!job.data) return <Page title={`Job ${id}`}>{job.error ? <ErrorNote error={job.error} /> : <Loading />}</Page>;
  const j = job.data.data;
  const usage = (j.engine_data?.ai_usage ?? j.engine_data?.usage) as Record<string, unknown> | undefined;
  return (
    <Page title={`Job ${id}`} actions={mayManage && CANCELLABLE.has(j.status) ? cancel.button : (retry.actions ?? undefined)}>
      {cancel.outcome}
      {retry.outcome}
      <p>
        <Status value={j.status} />{' '}
        {j.flow_id ? (
          <>
            of <a href={href(`/flows/${j.flow_id}`)}>{j.flow_name ?? `flow ${j.flow_id}`}</a>
          </>
        ) : (
          j.label
        )}{' '}
        · started {when(j.started_at ?? j.created_at)} · took {duration(j.duration_ms)}
        {FINISHED.has(j.status) ? null : <span class="muted"> (updating)</span>}
      </p>
      {j.trigger ? <TriggerNote trigger={j.trigger} /> : null}
      {j.error ? (
        <p class="error" role="alert">
          {j.error}
        </p>
      ) : null}
      {j.review ? (
        <section aria-labelledby="review-heading">
          <h2 id="review-heading">Review</h2>
          {j.status === 'waiting' ? (
            <p>
              This run waits for {j.review.pending} item{j.review.pending === 1 ? '' : 's'} to be approved or rejected.{' '}
              <a href={href('/review')}>All runs waiting for review</a>
            </p>
          ) : null}
          <ReviewCard job={j} mayDecide={mayManage} reload={job.reload} heading={false} />
        </section>
      ) : null}
      <h2>Steps</h2>
      <table>
        <thead>
          <tr>
            <th scope="col">#</th>
            <th scope="col">Step</th>
            <th scope="col">Status</th>
            <th scope="col">Items in → out</th>
            <th scope="col">Error</th>
          </tr>
        </thead>
        <tbody>
          {(j.steps ?? []).map((step, index) => (
            <tr key={step.flow_step_id}>
              <td>{step.position ?? index + 1}</td>
              <td>
                {step.step_type}
                {step.handler_slug ? ` (${step.handler_slug})` : ''}
              </td>
              <td>
                <Status value={step.status} />
              </td>
              <td>
                {step.items_in} → {step.items_out}
              </td>
              <td>{step.error ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {j.steps?.length ? <StepRecords steps={j.steps} /> : null}
      {usage ? (
        <>
          <h2>AI usage</h2>
          <pre>{JSON.stringify(usage, null, 2)}</pre>
        </>
      ) : null}
      <p>
        <a href={href('/logs', { job_id: id })}>This run's logs</a>
      </p>
    </Page>
  );
}
