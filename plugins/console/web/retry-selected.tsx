import type { JSX } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { ApiFailure } from './api.js';
import { asFailure, useAction } from './components.js';
import type { Job } from './model.js';
import { href } from './router.js';
import { RETRYABLE, retriedByOf, retryJob } from './retry-run.js';

/** How one selected run's retry went: its new run, or the API's refusal. */
type Outcome = { jobId: number; newId: number } | { jobId: number; error: ApiFailure };

/**
 * "Retry selected" on the runs list: a checkbox on each failed or cancelled row, and one
 * action retrying them all from the failed step (POST /jobs/{id}/retry, one at a time, so
 * each run's answer is its own). What happened to each is listed (its new run, or the
 * API's refusal in its words), then the list is read again. The selection outlives the
 * list's refreshes, so a row that ended meanwhile is sent too and the API says why not; it
 * is cleared when `shown` (the filters and page) changes, so nothing out of sight is sent.
 */
export function useRetrySelected(
  reload: () => Promise<void>,
  shown: string,
): {
  checkbox: (job: Job) => JSX.Element | null;
  button: JSX.Element;
  report: JSX.Element | null;
} {
  const [selected, setSelected] = useState<ReadonlySet<number>>(new Set());
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const action = useAction();
  useEffect(() => setSelected(new Set()), [shown]);
  const toggle = (jobId: number, on: boolean) =>
    setSelected((was) => {
      const next = new Set(was);
      if (on) next.add(jobId);
      else next.delete(jobId);
      return next;
    });
  const retrySelected = () =>
    void action.run(async () => {
      const done: Outcome[] = [];
      for (const jobId of [...selected].sort((a, b) => a - b)) {
        try {
          done.push({ jobId, newId: await retryJob(jobId, 'failed_step') });
        } catch (failure) {
          done.push({ jobId, error: asFailure(failure) });
        }
      }
      setOutcomes(done);
      setSelected(new Set());
      await reload();
    });
  const checkbox = (job: Job) =>
    RETRYABLE.has(job.status) && job.retried_by == null ? (
      <input
        type="checkbox"
        aria-label={`Select job ${job.job_id}`}
        checked={selected.has(job.job_id)}
        onChange={(e) => toggle(job.job_id, (e.target as HTMLInputElement).checked)}
      />
    ) : null;
  const button = (
    <button
      type="button"
      class="primary"
      disabled={action.busy || selected.size === 0}
      title="Each selected failed or cancelled run, from its failed step"
      onClick={retrySelected}
    >
      Retry selected{selected.size ? ` (${selected.size})` : ''}
    </button>
  );
  const report = outcomes.length ? (
    <section class="card retry-report" aria-label="Retried runs">
      <ul class="plain" role="status">
        {outcomes.map((o) => (
          <li key={o.jobId}>{'newId' in o ? <Retried jobId={o.jobId} newId={o.newId} /> : <Refused jobId={o.jobId} error={o.error} />}</li>
        ))}
      </ul>
    </section>
  ) : null;
  return { checkbox, button, report };
}

function Retried({ jobId, newId }: { jobId: number; newId: number }) {
  return (
    <span class="ok">
      Job {jobId} retried from the failed step: <a href={href(`/jobs/${newId}`)}>job {newId}</a>
    </span>
  );
}

function Refused({ jobId, error }: { jobId: number; error: ApiFailure }) {
  const by = retriedByOf(error);
  return (
    <span class="error-text">
      Job {jobId} not retried: {error.message} <span class="muted">({error.code})</span>
      {by !== null ? (
        <>
          {' '}
          <a href={href(`/jobs/${by}`)}>Open job {by}</a>
        </>
      ) : null}
    </span>
  );
}
