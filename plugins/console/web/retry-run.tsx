import type { JSX } from 'preact';
import { ApiFailure, call } from './api.js';
import { ErrorNote, useAction } from './components.js';
import type { Job } from './model.js';
import { href, navigate } from './router.js';

/** The states POST /jobs/{id}/retry accepts: a run that ended badly. */
export const RETRYABLE = new Set(['failed', 'cancelled']);

export type RetryFrom = 'failed_step' | 'start';
export const FROM_WORDS: Record<RetryFrom, string> = { failed_step: 'from the failed step', start: 'from the start' };

/** POST /jobs/{id}/retry: answers the new run's id (the API's refusal is thrown in its words). */
export async function retryJob(jobId: number, from: RetryFrom): Promise<number> {
  const res = await call<{ data: { job_id: number } }>('POST', `/jobs/${jobId}/retry`, { body: { from } });
  return res.data.job_id;
}

/** The retry a refusal names (409 job_already_retried), to link to beside the API's words. */
export function retriedByOf(error: ApiFailure | undefined): number | null {
  const by = error?.code === 'job_already_retried' ? error.data.retried_by : undefined;
  return typeof by === 'number' ? by : null;
}

/**
 * An API refusal of a retry, with a link to the run that retried it already when it names
 * one (`shown`: a retry the page links to already).
 */
export function RetryRefusal({ error, shown = null }: { error: ApiFailure | undefined; shown?: number | null }) {
  const by = retriedByOf(error);
  return (
    <>
      <ErrorNote error={error} />
      {by !== null && by !== shown ? (
        <p>
          <a href={href(`/jobs/${by}`)}>Open job {by}</a>
        </p>
      ) : null}
    </>
  );
}

/**
 * Retry on a failed or cancelled run's page: from the failed step (the primary action: the
 * earlier steps' work is kept, nothing published is published again) or from the start. A
 * retry opens the new run's page, which says what it retries. A run retried already links
 * to its retry where the buttons would be (the API allows one retry per run); a refusal
 * (retried meanwhile, elsewhere) is shown in the API's words and the run re-read.
 */
export function useRetryRun(
  job: Job | undefined,
  mayRetry: boolean,
  reload: () => Promise<void>,
): { actions: JSX.Element | null; outcome: JSX.Element } {
  const action = useAction();
  const retriedBy = job?.trigger?.retried_by ?? null;
  const retry = (from: RetryFrom) =>
    void action.run(async () => {
      if (!job) return;
      try {
        navigate(`/jobs/${await retryJob(job.job_id, from)}`);
      } catch (failure) {
        if (failure instanceof ApiFailure) await reload();
        throw failure;
      }
    });
  let actions: JSX.Element | null = null;
  if (retriedBy !== null)
    actions = (
      <p class="retried">
        Retried by <a href={href(`/jobs/${retriedBy}`)}>job {retriedBy}</a>
      </p>
    );
  else if (job && mayRetry && RETRYABLE.has(job.status))
    actions = (
      <>
        <button type="button" class="primary" disabled={action.busy} onClick={() => retry('failed_step')}>
          Retry from the failed step
        </button>
        <button type="button" disabled={action.busy} onClick={() => retry('start')}>
          Retry from the start
        </button>
      </>
    );
  return { actions, outcome: <RetryRefusal error={action.error} shown={retriedBy} /> };
}
