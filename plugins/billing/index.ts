/**
 * Billing: the provisioner/v1 surface. The provisioning callback and the payment
 * provider's (Stripe) events move subscriptions through their states; e-mail goes out
 * through an outbox and the SDK mail service; background jobs send due mail and delete canceled
 * subscriptions after the grace period. docs/billing.md has the state diagram.
 */
import { definePlugin, PluginError, services } from '../../sdk/index.js';
import { billingCli } from './cli.js';
import { DELIVER_JOB, Mailer } from './mailer.js';
import { billingCollections, ensureIndexes } from './repository.js';
import { billingSurface } from './routes.js';
import { Secrets } from './secrets.js';
import { BillingService } from './service.js';
import { mailDateFormatter, mailDateSettingsProblem } from './mail-dates.js';
import { settingsSchema, type BillingSettings } from './settings.js';
import { StripeGateway } from './stripe-gateway.js';
import { Subscriptions } from './subscriptions.js';

const DELETE_JOB = 'delete-due';
const RESUME_JOB = 'resume-events';
const DAY_MS = 86_400_000;

export default definePlugin({
  id: 'billing',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Provisioning and payment webhooks, subscription state and billing e-mail (provisioner/v1).',
  settingsSchema,
  deps: {
    routes: services.routes,
    store: services.store,
    scheduler: services.scheduler,
    log: services.logger,
    config: services.configOf<BillingSettings>(),
    vault: services.vault,
    clock: services.clock,
    mail: services.mail,
  },
  async setup({ routes, store, scheduler, log, config, vault, clock, mail }) {
    const dateProblem = mailDateSettingsProblem(config.timezone, config.locale);
    if (dateProblem) throw new PluginError('billing', dateProblem);
    const c = billingCollections(store);
    await ensureIndexes(c);
    const secrets = new Secrets(c.secrets, vault, config, process.env);
    const stripe = new StripeGateway(config, secrets);
    const mailer = new Mailer({ c, clock, log, scheduler, secrets, config, mail });
    const subscriptions = new Subscriptions(c, clock);
    const service = new BillingService({
      c,
      clock,
      log,
      secrets,
      stripe,
      mailer,
      subscriptions,
      payments: {
        graceMs: config.grace_period_days * DAY_MS,
        scheduleDeletion: (at) => scheduler.at(at, DELETE_JOB),
        formatDate: mailDateFormatter(config.timezone, config.locale),
      },
    });

    scheduler.define(DELIVER_JOB, async () => {
      await mailer.deliverDue();
    });
    scheduler.define(DELETE_JOB, async () => {
      for (const id of await subscriptions.deleteDue()) log.info({ subscription_id: id }, 'Subscription deleted after its grace period');
    });
    scheduler.define(RESUME_JOB, async () => {
      const n = await service.resumeStranded();
      if (n) log.info({ events: n }, 'Finished billing events left half-done');
    });
    // The periodic sweeps are the safety net: mail whose send failed, deletions whose
    // timed run was missed (a host down at the time) or fall due on a moved clock.
    await scheduler.every(config.sweep_interval, DELIVER_JOB);
    await scheduler.every(config.sweep_interval, DELETE_JOB);
    await scheduler.every(config.sweep_interval, RESUME_JOB);
    // At boot too: what a crash left half-done is finished before the first sweep.
    await scheduler.now(RESUME_JOB);

    routes.add(billingSurface(service, c, secrets));
  },
  cli: [billingCli],
});
