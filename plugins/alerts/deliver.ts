/**
 * Sends one queued alert on its channel, with the settings as they are now (the secret is
 * never in the queued job): e-mail through the SDK mail service, the webhook through the
 * guarded fetch, the on-failure flow through the public execute service.
 */
import type { ExecuteApi, GuardedFetch, MailMessage } from '../../sdk/index.js';
import { details, headline, type AlertMessage } from './message.js';
import { FAILURE_KEY, type Channel } from './notifier.js';
import type { AlertSettings } from './settings.js';
import { postWebhook } from './webhook.js';

/** Plain-text e-mail through the configured SMTP server (the SDK mail service). */
export type SendMail = (message: MailMessage) => Promise<unknown>;

export interface DeliverDeps {
  fetch: GuardedFetch;
  execute: ExecuteApi;
  sendMail: SendMail;
}

/** Throws what went wrong; the caller logs it. Answers the on-failure job's id for `flow`. */
export async function deliver(deps: DeliverDeps, channel: Channel, settings: AlertSettings, message: AlertMessage): Promise<number | null> {
  if (channel === 'webhook') {
    await postWebhook(deps.fetch, settings, message);
    return null;
  }
  if (channel === 'email') {
    await deps.sendMail({ to: settings.email_to, subject: `[Flowhost] ${headline(message)}`, text: details(message) });
    return null;
  }
  if (settings.on_failure_flow_id === null) return null;
  const { kind: _kind, ...context } = message;
  const answer = await deps.execute.execute({ flow_id: settings.on_failure_flow_id, initial_data: { [FAILURE_KEY]: context } });
  return typeof answer.job_id === 'number' ? answer.job_id : null;
}
