/** An alert as every channel carries it: what happened to which flow, in which run. */
export type AlertKind = 'failed' | 'problem' | 'recovered' | 'waiting' | 'test';

export interface AlertMessage {
  kind: AlertKind;
  flow_id: number | null;
  flow_name: string | null;
  job_id: number | null;
  /** The run's error (failures only). */
  error: string | null;
  /** The step that failed: its place in the pipeline, type and handler. */
  failed_step: { position: number | null; step_type: string; handler_slug: string | null; error: string | null } | null;
  consecutive_failures: number;
  at: string;
  /** A run waiting for review (approval step): its items, the signed one-time link, the timeout. */
  review?: {
    position: number;
    mode: 'review' | 'webhook';
    items: number;
    review_url: string;
    webhook_url: string | null;
    timeout_at: string | null;
    on_timeout: 'approve' | 'reject';
  };
}

const HEADLINES: Record<AlertKind, string> = {
  failed: 'failed',
  problem: 'is failing repeatedly (a problem flow)',
  recovered: 'recovered: its last run succeeded',
  waiting: 'is waiting for review',
  test: 'test alert',
};

/** One line for a human (e-mail subject, Slack text). */
export function headline(m: AlertMessage): string {
  const flow = m.flow_id === null ? 'Flowhost' : `Flow ${m.flow_id}${m.flow_name ? ` "${m.flow_name}"` : ''}`;
  return `${flow} ${HEADLINES[m.kind]}`;
}

/** The plain-text body (e-mail, and Slack's `text` after the headline). */
export function details(m: AlertMessage): string {
  const lines = [headline(m)];
  if (m.job_id !== null) lines.push(`Job: ${m.job_id}`);
  if (m.failed_step)
    lines.push(
      `Failed step: ${m.failed_step.position ?? '?'} (${m.failed_step.step_type}${m.failed_step.handler_slug ? `/${m.failed_step.handler_slug}` : ''})`,
    );
  if (m.error) lines.push(`Error: ${m.error}`);
  if (m.review) {
    lines.push(`Waiting at step ${m.review.position}: ${m.review.items} item${m.review.items === 1 ? '' : 's'}`);
    lines.push(`Review (works once): ${m.review.review_url}`);
    if (m.review.webhook_url) lines.push(`Webhook delivery URL (works once): ${m.review.webhook_url}`);
    if (m.review.timeout_at) lines.push(`On ${m.review.timeout_at} the rest are ${m.review.on_timeout}d`);
  }
  if (m.kind !== 'recovered' && m.kind !== 'waiting' && m.consecutive_failures)
    lines.push(`Consecutive failures: ${m.consecutive_failures}`);
  lines.push(`At: ${m.at}`);
  return lines.join('\n');
}
