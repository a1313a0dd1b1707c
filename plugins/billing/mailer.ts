/**
 * Outgoing e-mail as an outbox in the store: a webhook only enqueues (one document per
 * event and template, so a retried event queues nothing twice) and answers; the delivery
 * job sends through the SDK mail service with billing's own SMTP settings and, on failure,
 * tries again later with a doubling delay. Mail is never dropped: it stays pending until
 * the server takes it.
 */
import { smtpTransportOf, type Clock, type Logger, type MailApi, type PluginScheduler } from '../../sdk/index.js';
import type { MailDoc } from './model.js';
import type { BillingCollections } from './repository.js';
import type { Secrets } from './secrets.js';
import type { BillingSettings } from './settings.js';
import { renderTemplate, type TemplateName } from './templates.js';

export const DELIVER_JOB = 'deliver-mail';
/** How long one worker owns a mail it is sending (other hosts leave it alone meanwhile). */
const LEASE_MS = 2 * 60_000;
const BATCH = 50;

export interface MailerDeps {
  c: BillingCollections;
  clock: Clock;
  log: Logger;
  scheduler: PluginScheduler;
  secrets: Secrets;
  config: BillingSettings;
  mail: MailApi;
}

export class Mailer {
  constructor(private readonly deps: MailerDeps) {}

  /** Queues a templated e-mail; false when one was already queued for this key. */
  async enqueue(
    key: string,
    template: TemplateName,
    to: string,
    values: Record<string, string>,
    subscriptionId: string | null,
  ): Promise<boolean> {
    const { c, clock } = this.deps;
    if (await c.mail.findOne({ _id: key })) return false;
    const rendered = await renderTemplate(template, values, this.deps.config.templates_dir);
    const now = clock.now();
    const doc: MailDoc = {
      _id: key,
      template,
      to,
      subject: rendered.subject,
      text: rendered.text,
      subscription_id: subscriptionId,
      status: 'pending',
      attempts: 0,
      next_attempt_at: now.getTime(),
      lease_until: 0,
      last_error: null,
      message_id: null,
      created_at: now.toISOString(),
      sent_at: null,
    };
    try {
      await c.mail.insertOne(doc);
    } catch (error) {
      if ((error as Error).name === 'DuplicateKeyError') return false;
      throw error;
    }
    // Try at once, off the request: the webhook's answer never waits for SMTP.
    this.deps.scheduler
      .now(DELIVER_JOB)
      .catch((err: unknown) => this.deps.log.warn({ err }, 'Could not schedule mail delivery; the periodic sweep will send it'));
    return true;
  }

  /** Sends every due pending mail once; failures are rescheduled. Returns how many were sent. */
  async deliverDue(): Promise<number> {
    const { c, clock } = this.deps;
    const now = clock.now().getTime();
    const due = await c.mail.find({ status: 'pending', next_attempt_at: { $lte: now } }, { sort: { next_attempt_at: 1 }, limit: BATCH });
    let sent = 0;
    for (const mail of due) {
      // Claim it: only one host sends a given mail at a time.
      const claimed = await c.mail.findOneAndUpdate(
        { _id: mail._id, status: 'pending', lease_until: { $lte: now } },
        { $set: { lease_until: now + LEASE_MS } },
      );
      if (!claimed) continue;
      if (await this.sendOne(claimed)) sent += 1;
    }
    return sent;
  }

  private async sendOne(mail: MailDoc): Promise<boolean> {
    const { c, clock, log, config } = this.deps;
    const attempts = mail.attempts + 1;
    try {
      const password = await this.deps.secrets.get('smtp_password');
      const info = await this.deps.mail.send({ to: mail.to, subject: mail.subject, text: mail.text }, smtpTransportOf(config, password));
      await c.mail.updateOne(
        { _id: mail._id },
        {
          $set: {
            status: 'sent',
            attempts,
            sent_at: clock.now().toISOString(),
            message_id: info.message_id,
            last_error: null,
            lease_until: 0,
          },
        },
      );
      log.info({ mail_id: mail._id, template: mail.template, attempts }, 'E-mail sent');
      return true;
    } catch (error) {
      const delay = Math.min(config.mail_retry_seconds * 2 ** (attempts - 1), config.mail_retry_max_seconds) * 1000;
      const reason = (error as Error).message ?? String(error);
      await c.mail.updateOne(
        { _id: mail._id },
        { $set: { attempts, last_error: reason.slice(0, 500), next_attempt_at: clock.now().getTime() + delay, lease_until: 0 } },
      );
      log.warn(
        { mail_id: mail._id, template: mail.template, attempts, retry_in_seconds: delay / 1000, reason },
        'E-mail not sent; will retry',
      );
      return false;
    }
  }
}
