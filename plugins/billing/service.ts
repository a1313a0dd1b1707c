/**
 * The billing service: both webhooks' authentication and processing, and replay. Routes
 * only translate HTTP; everything a webhook does is here.
 */
import { isApiError, safeEqual, type Clock, type Logger } from '../../sdk/index.js';
import { EventLog, type IncomingEvent } from './events.js';
import type { EventDoc, ReplayDoc, SubscriptionDoc } from './model.js';
import { ReplayLog } from './replay-log.js';
import type { Mailer } from './mailer.js';
import { applyPaymentEvent, PAYMENT_EVENT_TYPES, subscriptionIdOf, type PaymentEventDeps } from './payment-events.js';
import { parseProvisioningPayload, type ProvisioningPayload } from './provisioning.js';
import type { BillingCollections } from './repository.js';
import type { Secrets } from './secrets.js';
import type { StripeGateway } from './stripe-gateway.js';
import type { Subscriptions } from './subscriptions.js';
import { billingError } from './errors.js';

export interface WebhookOutcome {
  event_id: string;
  type: string;
  duplicate: boolean;
  outcome: string;
  subscription: SubscriptionDoc | null;
}

export interface BillingServiceDeps {
  c: BillingCollections;
  clock: Clock;
  log: Logger;
  secrets: Secrets;
  stripe: StripeGateway;
  mailer: Mailer;
  subscriptions: Subscriptions;
  payments: Omit<PaymentEventDeps, 'c' | 'subscriptions' | 'mailer' | 'stripe' | 'log' | 'now'>;
}

export class BillingService {
  readonly events: EventLog;
  readonly replays: ReplayLog;
  private readonly paymentDeps: PaymentEventDeps;

  constructor(private readonly deps: BillingServiceDeps) {
    this.events = new EventLog(deps.c, deps.clock);
    this.replays = new ReplayLog(deps.c, deps.clock);
    this.paymentDeps = {
      ...deps.payments,
      c: deps.c,
      subscriptions: deps.subscriptions,
      mailer: deps.mailer,
      stripe: deps.stripe,
      log: deps.log,
      now: () => deps.clock.now(),
    };
  }

  /**
   * Both provisioner credentials, before anything else is read. Each is compared in
   * constant time, and both always are (no early exit telling which one was wrong);
   * the log says why, never what was sent or expected.
   */
  async authenticateProvisioner(headers: Readonly<Record<string, string | undefined>>, ip: string): Promise<void> {
    const [key, token] = await Promise.all([this.deps.secrets.get('internal_key'), this.deps.secrets.get('provisioner_token')]);
    const sentKey = headers['x-provisioner-internal-key'] ?? '';
    const bearer = /^Bearer\s+(.+)$/i.exec(headers.authorization ?? '')?.[1]?.trim() ?? '';
    const reasons: string[] = [];
    if (!key || !token) reasons.push('the provisioner internal key and token are not both configured');
    const keyOk = safeEqual(sentKey, key || '\0unset');
    const tokenOk = safeEqual(bearer, token || '\0unset');
    if (!sentKey) reasons.push('no X-Provisioner-Internal-Key header');
    else if (!keyOk) reasons.push('wrong internal key');
    if (!bearer) reasons.push('no bearer token');
    else if (!tokenOk) reasons.push('wrong bearer token');
    if (reasons.length === 0 && keyOk && tokenOk) return;
    this.deps.log.warn({ remote_ip: ip, reason: reasons.join('; ') }, 'Provisioner webhook refused');
    throw billingError('provisioner_unauthorized');
  }

  async provisioningCallback(rawBody: Buffer): Promise<WebhookOutcome> {
    const payload = parseProvisioningPayload(rawBody);
    const sub = await this.deps.subscriptions.get(payload.subscription_id);
    if (!sub)
      throw billingError('subscription_not_found', {
        message: `No subscription ${payload.subscription_id}.`,
        data: { subscription_id: payload.subscription_id },
      });
    const event: IncomingEvent = {
      id: `provisioner:${payload.event_id}`,
      source: 'provisioner',
      type: payload.event,
      created: Math.floor(this.deps.clock.now().getTime() / 1000),
      subscription_id: payload.subscription_id,
      payload: { ...payload },
    };
    return this.run(event, () => this.applyProvisioning(event.id, payload));
  }

  private async applyProvisioning(eventId: string, payload: ProvisioningPayload): Promise<string> {
    const at = payload.provisioned_at ?? this.deps.clock.now().toISOString();
    let sub = await this.deps.subscriptions.provision(payload.subscription_id, eventId, {
      site_id: payload.site_id,
      site_url: payload.site_url,
      plan: payload.plan,
      provisioned_at: at,
    });
    if (!sub)
      throw billingError('subscription_deleted', {
        message: `Subscription ${payload.subscription_id} has been deleted; it cannot be provisioned.`,
        data: { subscription_id: payload.subscription_id },
      });
    if (payload.email && !sub.email) {
      await this.deps.subscriptions.ensure(sub._id, { email: payload.email });
      sub = (await this.deps.subscriptions.get(sub._id)) ?? sub;
    }
    if (sub.email) {
      await this.deps.mailer.enqueue(
        `${eventId}:welcome`,
        'welcome',
        sub.email,
        { subscription_id: sub._id, plan: sub.plan ?? '', site_url: sub.site_url ?? '', site_id: sub.site_id ?? '' },
        sub._id,
      );
    } else {
      this.deps.log.warn({ subscription_id: sub._id }, 'Subscription provisioned but no e-mail address is known: no welcome e-mail');
    }
    return 'provisioned';
  }

  async paymentWebhook(rawBody: Buffer, signature: string | undefined, ip: string): Promise<WebhookOutcome> {
    const verdict = await this.deps.stripe.verify(rawBody, signature);
    if (!verdict.ok) {
      if (verdict.malformed)
        throw billingError('invalid_payload', { message: 'The signed body is not a JSON event.', data: { field: 'body' } });
      this.deps.log.warn({ remote_ip: ip, reason: verdict.reason }, 'Payment webhook refused');
      throw billingError('payment_signature_invalid');
    }
    const e = verdict.event;
    const object = e.data && typeof e.data === 'object' ? (e.data as Record<string, unknown>).object : undefined;
    if (typeof e.id !== 'string' || !/^[A-Za-z0-9_]{1,200}$/.test(e.id))
      throw billingError('invalid_payload', { message: 'The event has no valid id.', data: { field: 'id' } });
    if (typeof e.type !== 'string' || e.type.length > 200)
      throw billingError('invalid_payload', { message: 'The event has no type.', data: { field: 'type' } });
    if (typeof e.created !== 'number' || !Number.isSafeInteger(e.created))
      throw billingError('invalid_payload', { message: 'The event has no created time.', data: { field: 'created' } });
    if (!object || typeof object !== 'object' || Array.isArray(object))
      throw billingError('invalid_payload', { message: 'The event has no data.object.', data: { field: 'data.object' } });
    const type = e.type;
    if (!(PAYMENT_EVENT_TYPES as readonly string[]).includes(type)) {
      // Acknowledged, so the provider stops retrying; nothing stored.
      this.deps.log.debug({ event_id: e.id, type }, 'Payment event of an unhandled type: acknowledged and ignored');
      return { event_id: e.id, type, duplicate: false, outcome: 'ignored', subscription: null };
    }
    const obj = object as Record<string, unknown>;
    const event: IncomingEvent = {
      id: e.id,
      source: 'payments',
      type,
      created: e.created,
      subscription_id: subscriptionIdOf(type, obj),
      payload: e,
    };
    return this.run(event, () => applyPaymentEvent(this.paymentDeps, e.id as string, type, e.created as number, obj));
  }

  /**
   * Claim, apply, record. An event id already claimed answers `duplicate` and does
   * nothing: processed (its recorded outcome), or still being applied by another delivery
   * (`in_progress`; should that one die, the lease lets a later retry or the resume job finish it).
   */
  private async run(event: IncomingEvent, apply: () => Promise<string>): Promise<WebhookOutcome> {
    const { claim, doc } = await this.events.claim(event);
    const subscription = async () => (event.subscription_id ? this.deps.subscriptions.get(event.subscription_id) : null);
    if (claim === 'duplicate') {
      const outcome = doc.status === 'processed' ? (doc.outcome ?? 'processed') : 'in_progress';
      this.deps.log.info({ event_id: event.id, type: event.type, outcome }, 'Event already claimed: acknowledged, nothing done');
      return { event_id: event.id, type: event.type, duplicate: true, outcome, subscription: await subscription() };
    }
    const outcome = await this.apply(event.id, apply, claim === 'new');
    return { event_id: event.id, type: event.type, duplicate: false, outcome, subscription: await subscription() };
  }

  /** Applies a claimed event and records the outcome on it: its first (and only) recorded outcome. */
  private async apply(eventId: string, apply: () => Promise<string>, fresh: boolean): Promise<string> {
    let outcome: string;
    try {
      outcome = await apply();
    } catch (error) {
      if (isApiError(error) && error.status === 400 && fresh) await this.events.release(eventId);
      else await this.events.failed(eventId, (error as Error).message ?? String(error));
      throw error;
    }
    await this.events.processed(eventId, outcome);
    this.deps.log.info({ event_id: eventId, outcome }, 'Billing event processed');
    return outcome;
  }

  /**
   * Finishes events whose request died between claim and processed (a crash, a lost
   * host): the repair that does not wait for the sender's retry. Only claims whose lease
   * has run out, so a request still in flight is left alone; each is taken over
   * atomically, so two hosts sweeping at once finish it once. Returns how many were finished.
   */
  async resumeStranded(): Promise<number> {
    let done = 0;
    for (const event of await this.events.stranded()) {
      const taken = await this.events.takeOver(event._id);
      if (!taken) continue;
      try {
        await this.apply(taken._id, this.applierFor(taken), false);
        done += 1;
      } catch (error) {
        this.deps.log.warn({ event_id: event._id, reason: (error as Error).message }, 'A stranded billing event could not be finished');
      }
    }
    return done;
  }

  /** What applying a stored event does: its effect, from the payload kept for this. */
  private applierFor(stored: EventDoc): () => Promise<string> {
    const p = stored.payload;
    if (stored.source === 'provisioner') return () => this.applyProvisioning(stored._id, p as unknown as ProvisioningPayload);
    const object = (p.data as Record<string, unknown>).object as Record<string, unknown>;
    return () => applyPaymentEvent(this.paymentDeps, stored._id, stored.type, stored.created, object);
  }

  /**
   * Re-processes a stored event (support) as a new attempt: its effects are idempotent,
   * so only what is missing is done, and its outcome goes on its own record, linked to
   * the original. The original's status and outcome stay what its delivery recorded — a
   * replay runs against today's state and may well read differently (`ignored_stale`).
   */
  async replay(eventId: string): Promise<ReplayDoc> {
    const missing = () => billingError('event_not_found', { message: `No stored event ${eventId}.`, data: { event_id: eventId } });
    const stored = await this.events.get(eventId);
    if (!stored) throw missing();
    const attempt = await this.replays.begin(eventId, stored.type);
    if (!attempt) throw missing();
    let outcome: string;
    try {
      outcome = await this.applierFor(stored)();
    } catch (error) {
      await this.replays.failed(attempt._id, (error as Error).message ?? String(error));
      throw error;
    }
    this.deps.log.info({ event_id: eventId, replay: attempt._id, outcome }, 'Billing event replayed');
    return this.replays.finished(attempt._id, outcome);
  }
}
