import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, Status, useAction } from './components.js';
import { when } from './format.js';
import type { Job, ReviewItem } from './model.js';
import { href } from './router.js';

export type Decision = 'approve' | 'reject';

/** Fired after any decision, so what counts waiting jobs (the navigation's badge) reads again at once. */
export const REVIEW_CHANGED = 'flowhost:review-changed';

/** POST /jobs/{id}/approve or /reject: no items decides every pending one. Answers the API's message. */
async function decide(jobId: number, decision: Decision, items?: string[]): Promise<string> {
  const res = await call<{ message?: string }>('POST', `/jobs/${jobId}/${decision}`, { body: items ? { items } : {} });
  return res.message ?? `Job ${jobId}: ${decision === 'approve' ? 'approved' : 'rejected'}.`;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);

/**
 * One item as it will be published: its title, its content as the next step gets it (the
 * AI step's output when one came before), shown as text: an HTML body shows its tags, the
 * console never renders HTML it did not write. The whole packet (secrets masked by the
 * API) expands below.
 */
function ItemPacket({ item }: { item: ReviewItem }) {
  if (!item.packet)
    return <p class="muted">The item is too large to show here (over 32 KiB); open the run's record for its steps' items.</p>;
  const data = item.packet.data ?? {};
  const meta = item.packet.metadata ?? {};
  const content = text(data.content) ?? text(data.text) ?? text(data.excerpt);
  const model = text(meta.ai_model);
  return (
    <>
      {model ? (
        <p class="muted">
          Written by the AI step ({text(meta.ai_provider) ?? 'provider'} · {model})
        </p>
      ) : null}
      {content !== null ? <div class="review-content">{content}</div> : <p class="muted">No content.</p>}
      {(text(data.link) ?? text(data.url)) ? <p class="muted">Link: {text(data.link) ?? text(data.url)}</p> : null}
      <details>
        <summary>The whole item</summary>
        <pre>{JSON.stringify(item.packet, null, 2)}</pre>
      </details>
    </>
  );
}

function DecisionNote({ item }: { item: ReviewItem }) {
  if (!item.decision) return null;
  return (
    <p class={`decision decision-${item.decision}`}>
      {item.decision === 'approved' ? 'Approved' : 'Rejected'}
      {item.decided_by ? ` by ${item.decided_by}` : ''}
      {item.decided_at ? `, ${when(item.decided_at)}` : ''}
    </p>
  );
}

/**
 * A job's review: each item as it will be published with Approve / Reject while it is
 * pending (its decision once decided), and Approve all / Reject all for the job's pending
 * items. After a decision, or a refusal (someone decided first: 409 job_not_waiting, shown
 * in the API's words), `reload` reads the job again. `mayDecide`: the routes' manage_options.
 */
export function ReviewCard({
  job,
  mayDecide,
  reload,
  heading = true,
}: {
  job: Job;
  mayDecide: boolean;
  reload: () => Promise<void>;
  heading?: boolean;
}) {
  const review = job.review;
  const action = useAction();
  const [message, setMessage] = useState('');
  if (!review) return null;
  const waiting = job.status === 'waiting';
  const open = waiting && mayDecide;
  const run = (decision: Decision, items?: string[]) =>
    void action.run(async () => {
      setMessage('');
      try {
        setMessage(await decide(job.job_id, decision, items));
      } finally {
        dispatchEvent(new Event(REVIEW_CHANGED));
        await reload().catch(() => undefined);
      }
    });
  const label = `Job ${job.job_id}`;
  return (
    <article class="card review" aria-label={`Review of job ${job.job_id}`}>
      {heading ? (
        <h2>
          <a href={href(`/jobs/${job.job_id}`)}>{label}</a>
          {job.flow_id ? <> · {job.flow_name ?? `flow ${job.flow_id}`}</> : job.label ? <> · {job.label}</> : null}{' '}
          <Status value={job.status} />
        </h2>
      ) : null}
      <p class="muted">
        {waiting ? `Waiting since ${when(review.since)}` : `Waited from ${when(review.since)}`}
        {review.ended_at ? ` to ${when(review.ended_at)}` : ''} at step {review.position}
        {waiting && review.timeout_at ? ` · on ${when(review.timeout_at)} the pending items are ${review.on_timeout}d` : ''}
        {review.mode === 'webhook' ? ' · waits for a webhook delivery (its URL is in the alert), which approves every pending item' : ''}
        {!waiting ? ' · no longer waiting' : ''}
      </p>
      {open && review.pending > 0 ? (
        <div class="actions">
          <button type="button" class="primary" disabled={action.busy} onClick={() => run('approve')}>
            Approve all ({review.pending})
          </button>
          <ConfirmButton
            label={`Reject all (${review.pending})`}
            confirmLabel={`Reject the ${review.pending} pending item${review.pending === 1 ? '' : 's'} of job ${job.job_id}?`}
            dismissLabel="Keep them"
            busy={action.busy}
            onConfirm={() => run('reject')}
          />
        </div>
      ) : null}
      <ErrorNote error={action.error} />
      {message ? (
        <p class="ok" role="status">
          {message}
        </p>
      ) : null}
      <ol class="review-items">
        {review.items.map((item) => {
          const name = item.title ?? text(item.packet?.data?.title) ?? item.item_id;
          return (
            <li key={item.item_id} aria-label={name}>
              <h3>{name}</h3>
              <p class="muted">
                Identifier: <code>{item.item_id}</code>
              </p>
              <ItemPacket item={item} />
              <DecisionNote item={item} />
              {open && item.decision === null ? (
                <div class="actions">
                  <button
                    type="button"
                    class="primary"
                    aria-label={`Approve ${name}`}
                    disabled={action.busy}
                    onClick={() => run('approve', [item.item_id])}
                  >
                    Approve
                  </button>
                  <button
                    type="button"
                    class="danger"
                    aria-label={`Reject ${name}`}
                    disabled={action.busy}
                    onClick={() => run('reject', [item.item_id])}
                  >
                    Reject
                  </button>
                </div>
              ) : null}
            </li>
          );
        })}
      </ol>
    </article>
  );
}
