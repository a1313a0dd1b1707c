/**
 * Alerts: tells someone when a flow fails or waits for review. Listens to the engine's
 * jobFailed/jobFinished/jobWaiting hooks; sends by e-mail, a webhook POST (Slack-compatible or signed JSON) and "on
 * failure, run flow X"; rate-limited per flow and channel with its state in the store, so
 * it holds across hosts. Built on the public SDK only. docs/api.md#alerts.
 */
import { definePlugin, services, type MailMessage } from '../../sdk/index.js';
import { alertsCli } from './cli.js';
import { configSchema, smtpOf, type AlertsConfig } from './config.js';
import { deliver } from './deliver.js';
import { AlertLimiter, type SentDoc, type StateDoc } from './limiter.js';
import { channelsOf, Notifier, type Delivery } from './notifier.js';
import { alertsSurface, type TestResult } from './routes.js';
import { AlertSettingsStore, type AlertSettingsDoc } from './settings.js';

const DELIVER_JOB = 'deliver';

export default definePlugin({
  id: 'alerts',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Alerts when a flow fails, recovers or waits for review: e-mail, webhook, or an on-failure flow.',
  settingsSchema: configSchema,
  deps: {
    routes: services.routes,
    store: services.store,
    scheduler: services.scheduler,
    log: services.logger,
    vault: services.vault,
    clock: services.clock,
    engine: services.engineEvents,
    fetch: services.fetch,
    flows: services.flows,
    jobs: services.jobs,
    execute: services.execute,
    site: services.settings,
    mail: services.mail,
    config: services.configOf<AlertsConfig>(),
  },
  async setup({ routes, store, scheduler, log, vault, clock, engine, fetch, flows, jobs, execute, site, mail, config }) {
    const settings = new AlertSettingsStore(store.collection<AlertSettingsDoc>('settings'), vault);
    const limiter = new AlertLimiter(store.collection<SentDoc>('sent'), store.collection<StateDoc>('state'));
    const deliverDeps = { fetch, execute, sendMail: (message: MailMessage) => mail.send(message, smtpOf(config, process.env)) };
    const notifier = new Notifier({
      settings,
      limiter,
      flows,
      jobs,
      site,
      clock,
      log,
      queue: (delivery) => scheduler.now(DELIVER_JOB, delivery),
    });

    scheduler.define<Delivery>(DELIVER_JOB, async ({ data }) => {
      const effective = await settings.effective(data.flow_id);
      try {
        const jobId = await deliver(deliverDeps, data.channel, effective, data.message);
        log.info(
          { channel: data.channel, flow_id: data.flow_id, kind: data.message.kind, ...(jobId ? { job_id: jobId } : {}) },
          'Alert sent',
        );
      } catch (err) {
        log.warn({ err, channel: data.channel, flow_id: data.flow_id, kind: data.message.kind }, 'Alert not sent');
      }
    });

    // An alert that cannot be worked out never fails the run it is about.
    const guarded = (what: string, work: () => Promise<void>) =>
      work().catch((err: unknown) => log.error({ err }, `Alerts: could not handle ${what}`));
    engine.jobFailed.tap('alerts', (outcome) => guarded('a failed run', () => notifier.failed(outcome)));
    engine.jobFinished.tap('alerts', (outcome) => guarded('a finished run', () => notifier.finished(outcome)));
    engine.jobWaiting.tap('alerts', (waiting) => guarded('a waiting run', () => notifier.waiting(waiting)));

    const test = async (flowId: number | null): Promise<TestResult[]> => {
      const effective = flowId === null ? await settings.site() : await settings.effective(flowId);
      const flow = flowId === null ? null : await flows.get(flowId);
      const message = notifier.message('test', flow, null, null);
      const results: TestResult[] = [];
      for (const channel of channelsOf(effective, 'test')) {
        try {
          await deliver(deliverDeps, channel, effective, message);
          results.push({ channel, ok: true });
        } catch (err) {
          results.push({ channel, ok: false, error: (err as Error).message });
        }
      }
      return results;
    };
    routes.add(alertsSurface({ settings, flows, test }));
  },
  cli: [alertsCli],
});
