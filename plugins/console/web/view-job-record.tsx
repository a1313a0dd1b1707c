import { href } from './router.js';
import type { Job, RecordedItems } from './model.js';

type Step = NonNullable<Job['steps']>[number];
type Item = RecordedItems['items'][number];

/** An item's title for its summary line: data.title, else its identity, else its place. */
function itemTitle(item: Item, index: number): string {
  const data = item.data ?? {};
  const meta = item.metadata ?? {};
  for (const value of [data.title, meta.item_id, data.guid, data.link]) if (typeof value === 'string' && value) return value;
  return `Item ${index + 1}`;
}

/** One side of a step: each item expands to its JSON; what the record could not keep is said. */
function Items({ label, record }: { label: string; record: RecordedItems | null | undefined }) {
  if (!record) return <p class="muted">{label}: not recorded</p>;
  return (
    <section aria-label={label}>
      <h4>
        {label}: {record.count} item{record.count === 1 ? '' : 's'}
      </h4>
      {record.items.length ? (
        <ol>
          {record.items.map((item, index) => (
            <li key={index}>
              <details>
                <summary>{itemTitle(item, index)}</summary>
                <pre>{JSON.stringify(item, null, 2)}</pre>
              </details>
            </li>
          ))}
        </ol>
      ) : null}
      {record.truncated ? (
        <p class="muted">
          {record.truncated.items} more item{record.truncated.items === 1 ? '' : 's'} ({record.truncated.bytes} bytes) not kept: the record
          of a step is limited in size
        </p>
      ) : null}
      {record.masked ? <p class="muted">Secret-looking fields are masked.</p> : null}
    </section>
  );
}

/** Each step of a run expands to the items it was given and passed on, and what it published. */
export function StepRecords({ steps }: { steps: Step[] }) {
  return (
    <>
      <h2>Items</h2>
      {steps.map((step, index) => (
        <details key={step.flow_step_id} class="step-record">
          <summary>
            Step {step.position ?? index + 1}: {step.step_type}
            {step.handler_slug ? ` (${step.handler_slug})` : ''} · {step.items_in} in → {step.items_out} out
            {step.items_reused ? ` (${step.items_reused} done by the retried run, not again)` : ''}
            {step.error ? ` · ${step.error}` : ''}
          </summary>
          <Items label="Input" record={step.input} />
          {step.status === 'failed' ? null : <Items label="Output" record={step.output} />}
          {step.published?.length ? (
            <p>
              Published:{' '}
              {step.published.map((p, n) => (
                <span key={p.id}>
                  {n ? ', ' : ''}
                  {p.url ? (
                    <a href={p.url} rel="noreferrer">
                      {p.id}
                    </a>
                  ) : (
                    p.id
                  )}
                </span>
              ))}
            </p>
          ) : null}
        </details>
      ))}
    </>
  );
}

/** What started a run: `Started by a webhook (request …)`, with the payload it brought; a retry links to the run it retries. */
export function TriggerNote({ trigger }: { trigger: NonNullable<Job['trigger']> }) {
  const webhook = trigger.webhook;
  const who = trigger.user_login ? ` (${trigger.user_login})` : '';
  return (
    <>
      {trigger.kind === 'retry' && trigger.retry_of !== null ? (
        <p class="retry-of">
          Retry of <a href={href(`/jobs/${trigger.retry_of}`)}>job {trigger.retry_of}</a> (
          {trigger.retry_from === 'start' ? 'from the start' : 'from the failed step'})
          {trigger.user_login ? `, by ${trigger.user_login}` : ''}
        </p>
      ) : (
        <p>
          Started by {startedBy(trigger.kind)}
          {who}
          {webhook?.request_id ? `, request ${webhook.request_id}` : ''}
        </p>
      )}
      {webhook ? (
        <details>
          <summary>Webhook payload</summary>
          {webhook.truncated ? (
            <p class="muted">The payload was {webhook.truncated.bytes} bytes, too large to show.</p>
          ) : (
            <pre>{JSON.stringify(webhook.payload, null, 2)}</pre>
          )}
        </details>
      ) : null}
    </>
  );
}

function startedBy(kind: string): string {
  if (kind === 'webhook') return 'a webhook';
  if (kind === 'schedule') return 'its schedule';
  if (kind === 'cli') return 'the command line';
  if (kind === 'chat') return 'the chat assistant';
  return 'Run now';
}
