/** An alert as every channel carries it: what happened to which flow, in which run. */
export type AlertKind = 'failed' | 'problem' | 'recovered' | 'test';

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
}

const HEADLINES: Record<AlertKind, string> = {
  failed: 'failed',
  problem: 'is failing repeatedly (a problem flow)',
  recovered: 'recovered: its last run succeeded',
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
  if (m.kind !== 'recovered' && m.consecutive_failures) lines.push(`Consecutive failures: ${m.consecutive_failures}`);
  lines.push(`At: ${m.at}`);
  return lines.join('\n');
}
