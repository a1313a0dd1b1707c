import type { JSX } from 'preact';
import { useState } from 'preact/hooks';
import { call } from './api.js';
import { ConfirmButton, ErrorNote, useAction } from './components.js';

/** The states POST /jobs/{id}/cancel accepts: a run not yet started, under way, or waiting for review. */
export const CANCELLABLE = new Set(['pending', 'processing', 'waiting']);

/**
 * Cancel, asked in place: the run ends `cancelled` and its flow is free. The button goes
 * with the page's actions, the outcome under the heading: the API's message, or its refusal
 * in its words (the run ended meanwhile: 409 job_finished). `reload` re-reads the run
 * either way, so the page shows what it now is.
 */
export function useCancelRun(
  jobId: number,
  reload: () => Promise<void>,
  question = `Cancel job ${jobId}? Its flow is freed; a step under way finishes first.`,
): { button: JSX.Element; outcome: JSX.Element } {
  const action = useAction();
  const [message, setMessage] = useState('');
  const cancel = () =>
    void action.run(async () => {
      setMessage('');
      try {
        const res = await call<{ message?: string }>('POST', `/jobs/${jobId}/cancel`);
        setMessage(res.message ?? `Job ${jobId} cancelled.`);
      } finally {
        await reload();
      }
    });
  return {
    button: (
      <ConfirmButton label="Cancel run" confirmLabel={question} dismissLabel="Keep it running" busy={action.busy} onConfirm={cancel} />
    ),
    outcome: (
      <>
        <ErrorNote error={action.error} />
        {message ? (
          <p class="ok" role="status">
            {message}
          </p>
        ) : null}
      </>
    ),
  };
}

/**
 * Cancel in a row of the runs list, asked in place. Drawn for every row, so what it said
 * (cancelled, or why not) stays in the row after the run has ended and the button has gone.
 */
export function CancelRowButton({ jobId, status, reload }: { jobId: number; status: string; reload: () => Promise<void> }) {
  // The short question: the row is narrow.
  const { button, outcome } = useCancelRun(jobId, reload, `Cancel job ${jobId}?`);
  return (
    <>
      {CANCELLABLE.has(status) ? button : null}
      {outcome}
    </>
  );
}
