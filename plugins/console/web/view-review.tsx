import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import { ApiFailure, call } from './api.js';
import { ErrorNote, Loading, Page, useLoad } from './components.js';
import type { Job } from './model.js';
import { ReviewCard } from './review-card.js';
import { href } from './router.js';

/** How many waiting jobs the page shows; the runs list (status waiting) pages through more. */
const PER_PAGE = 50;
/** Statuses a run that left its wait no longer leaves: read no more. */
const SETTLED = new Set(['completed', 'completed_no_items', 'failed', 'skipped', 'cancelled', 'deleted']);

interface Shown {
  waiting: Job[];
  total: number;
  /** Jobs this page showed waiting that no longer wait (decided here or elsewhere), as they now are. */
  left: Job[];
}

/**
 * The cards as one flat keyed list, the heading between the waiting and the left ones: a
 * card that moves from one part to the other keeps what it said (its message, a refusal).
 * (Two arrays would be two fragments, and a card moving between them would start afresh.)
 */
function cards(shown: Shown, mayDecide: boolean, reload: () => Promise<void>): JSX.Element[] {
  const card = (job: Job) =>
    job.status === 'deleted' ? (
      <p key={job.job_id} class="muted">
        Job {job.job_id} was deleted.
      </p>
    ) : (
      <ReviewCard key={job.job_id} job={job} mayDecide={mayDecide} reload={reload} />
    );
  const heading = (
    <h2 key="left-heading" id="left-heading">
      No longer waiting
    </h2>
  );
  return [...shown.waiting.map(card), ...(shown.left.length ? [heading] : []), ...shown.left.map(card)];
}

/**
 * "Waiting for review": every waiting job (GET /jobs?status=waiting, each with its
 * review) and its items as they will be published, to approve or reject item by item or
 * all at once. Read again every 3 s and after each decision. A job that leaves its wait
 * while the page is open (the last item decided here, or someone decided elsewhere) stays
 * on the page under "No longer waiting" with its decisions and how its run went, instead
 * of vanishing from under the reviewer's pointer.
 */
export function Review({ mayDecide }: { mayDecide: boolean }) {
  const seen = useRef(new Map<number, Job>());
  const list = useLoad(
    async (): Promise<Shown> => {
      const res = await call<{ data: Job[]; total: number }>('GET', '/jobs', { query: { status: 'waiting', per_page: PER_PAGE } });
      const waiting = new Set(res.data.map((job) => job.job_id));
      const gone = [...seen.current.values()].filter((job) => !waiting.has(job.job_id) && !SETTLED.has(job.status));
      const reread = await Promise.all(
        gone.map((job) =>
          call<{ data: Job }>('GET', `/jobs/${job.job_id}`).then(
            (one) => one.data,
            (failure) => (failure instanceof ApiFailure && failure.status === 404 ? { ...job, status: 'deleted' } : job),
          ),
        ),
      );
      for (const job of [...res.data, ...reread]) seen.current.set(job.job_id, job);
      const left = [...seen.current.values()].filter((job) => !waiting.has(job.job_id)).sort((a, b) => b.job_id - a.job_id);
      return { waiting: res.data, total: res.total, left };
    },
    [],
    3000,
  );
  const shown = list.data;
  return (
    <Page title="Waiting for review">
      <p class="muted">
        Runs paused at an approval step. Approved items go on to the next step (usually the publish step); rejected ones are dropped and not
        fetched again. Once every item of a run is decided, the run goes on.
      </p>
      <ErrorNote error={list.error} />
      {!shown ? (
        list.error ? null : (
          <Loading />
        )
      ) : (
        <>
          {shown.waiting.length === 0 ? <p class="empty">Nothing waits for review.</p> : null}
          <div class="review-list">{cards(shown, mayDecide, list.reload)}</div>
          {shown.total > shown.waiting.length ? (
            <p>
              {shown.total - shown.waiting.length} more waiting: <a href={href('/jobs', { status: 'waiting' })}>see them in Runs</a>
            </p>
          ) : null}
        </>
      )}
    </Page>
  );
}
