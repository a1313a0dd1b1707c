/**
 * Turns a run's end into alerts. A failure counts in `problem` mode only once the flow's
 * consecutive failures reach the site's `problem_flow_threshold` (the flow becomes a
 * problem flow), and then once until a run succeeds; in `every_failure` mode each failure
 * counts. Either way each channel sends at most once per flow per window. A success
 * after an announced failure is announced once. Sending happens in a background job, so
 * the run's end never waits for SMTP or a receiver.
 */
import type { Clock, FlowRecord, FlowsApi, JobOutcome, JobRecord, JobWaiting, JobsApi, Logger, SettingsApi } from '../../sdk/index.js';
import type { AlertLimiter } from './limiter.js';
import type { AlertKind, AlertMessage } from './message.js';
import type { AlertSettings, AlertSettingsStore } from './settings.js';

export type Channel = 'email' | 'webhook' | 'flow';

export interface Delivery extends Record<string, unknown> {
  channel: Channel;
  flow_id: number;
  message: AlertMessage;
}

/** The key under which an on-failure run gets the failure in its initial_data. */
export const FAILURE_KEY = 'failure';

export interface NotifierDeps {
  settings: AlertSettingsStore;
  limiter: AlertLimiter;
  flows: FlowsApi;
  jobs: JobsApi;
  site: SettingsApi;
  clock: Clock;
  log: Logger;
  /** Queues one delivery (a background job). */
  queue(delivery: Delivery): Promise<void>;
}

/** The channels a settings document turns on, for an alert of this kind. */
export function channelsOf(settings: AlertSettings, kind: AlertKind): Channel[] {
  const out: Channel[] = [];
  if (settings.email_to.length) out.push('email');
  if (settings.webhook_url) out.push('webhook');
  if (settings.on_failure_flow_id !== null && (kind === 'failed' || kind === 'problem')) out.push('flow');
  return out;
}

export class Notifier {
  constructor(private readonly deps: NotifierDeps) {}

  async failed(outcome: JobOutcome): Promise<void> {
    if (outcome.flowId === null) return;
    const { settings, limiter, clock } = this.deps;
    const effective = await settings.effective(outcome.flowId);
    if (!effective.enabled) return;
    const flow = await this.flowOf(outcome.flowId);
    if (!flow) return;
    const now = clock.now().getTime();
    let kind: AlertKind = 'failed';
    if (effective.notify === 'problem') {
      const threshold = (await this.deps.site.get()).problem_flow_threshold;
      if (flow.consecutive_failures < threshold) return;
      // Once per problem: the host that marks it announces it; the others (and later failures) do not.
      if (!(await limiter.markFailing(outcome.flowId, now))) return;
      kind = 'problem';
    } else await limiter.markFailing(outcome.flowId, now);
    const job = await this.deps.jobs.get(outcome.jobId).catch(() => null);
    const message = this.message(kind, flow, job, outcome.error ?? null);
    const windowMs = effective.window_minutes * 60_000;
    for (const channel of channelsOf(effective, kind)) {
      // An on-failure run that fails itself starts nothing more: no chain of error flows.
      if (channel === 'flow' && (job?.engine_data?.[FAILURE_KEY] !== undefined || effective.on_failure_flow_id === outcome.flowId))
        continue;
      if (await limiter.claimWindow(outcome.flowId, channel, now, windowMs)) await this.queue(channel, outcome.flowId, message);
    }
  }

  async finished(outcome: JobOutcome): Promise<void> {
    if (outcome.flowId === null || !['completed', 'completed_no_items'].includes(outcome.status)) return;
    const now = this.deps.clock.now().getTime();
    if (!(await this.deps.limiter.markRecovered(outcome.flowId, now))) return;
    const effective = await this.deps.settings.effective(outcome.flowId);
    const flow = await this.flowOf(outcome.flowId);
    if (!effective.enabled || !flow) return;
    const message = this.message('recovered', flow, null, null);
    message.job_id = outcome.jobId;
    for (const channel of channelsOf(effective, 'recovered')) await this.queue(channel, outcome.flowId, message);
  }

  /**
   * A run began to wait for review: each wait is announced (not rate-limited: every one
   * asks a person for a decision), with its signed link, on the email and webhook channels.
   */
  async waiting(event: JobWaiting): Promise<void> {
    if (event.flowId === null) return;
    const effective = await this.deps.settings.effective(event.flowId);
    const flow = await this.flowOf(event.flowId);
    if (!effective.enabled || !flow) return;
    const message = this.message('waiting', flow, null, null);
    message.job_id = event.jobId;
    message.review = {
      position: event.position,
      mode: event.mode,
      items: event.items,
      review_url: event.reviewUrl,
      webhook_url: event.webhookUrl ?? null,
      timeout_at: event.timeoutAt ? event.timeoutAt.toISOString() : null,
      on_timeout: event.onTimeout,
    };
    for (const channel of channelsOf(effective, 'waiting')) await this.queue(channel, event.flowId, message);
  }

  message(kind: AlertKind, flow: FlowRecord | null, job: JobRecord | null, error: string | null): AlertMessage {
    const failed = job?.steps.find((step) => step.status === 'failed');
    return {
      kind,
      flow_id: flow?.flow_id ?? null,
      flow_name: flow?.flow_name ?? null,
      job_id: job?.job_id ?? null,
      error,
      failed_step: failed
        ? { position: failed.position ?? null, step_type: failed.step_type, handler_slug: failed.handler_slug, error: failed.error ?? null }
        : null,
      consecutive_failures: flow?.consecutive_failures ?? 0,
      at: this.deps.clock.now().toISOString(),
    };
  }

  private async queue(channel: Channel, flowId: number, message: AlertMessage): Promise<void> {
    await this.deps
      .queue({ channel, flow_id: flowId, message })
      .catch((err: unknown) => this.deps.log.error({ err, channel, flow_id: flowId, kind: message.kind }, 'An alert could not be queued'));
  }

  private async flowOf(flowId: number): Promise<FlowRecord | null> {
    return this.deps.flows.get(flowId).catch(() => null);
  }
}
