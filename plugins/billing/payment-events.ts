/**
 * What each payment event does (the spec's table). Every handler is idempotent for its
 * event id and answers an outcome word, stored with the event and shown in its history.
 */
import type { Logger } from '../../sdk/index.js';
import type { BillingCollections } from './repository.js';
import type { Mailer } from './mailer.js';
import type { StripeGateway } from './stripe-gateway.js';
import type { Subscriptions } from './subscriptions.js';

export const PAYMENT_EVENT_TYPES = [
  'checkout.session.completed',
  'invoice.paid',
  'invoice.payment_failed',
  'customer.subscription.deleted',
] as const;

export interface PaymentEventDeps {
  c: BillingCollections;
  subscriptions: Subscriptions;
  mailer: Mailer;
  stripe: StripeGateway;
  log: Logger;
  now: () => Date;
  graceMs: number;
  /** Schedules the deletion job for when the grace period ends. */
  scheduleDeletion: (at: Date) => Promise<void>;
  /** An instant as the site's readers read it (time zone and language from the settings). */
  formatDate: (iso: string) => string;
}

type Obj = Record<string, unknown>;
const obj = (v: unknown): Obj => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
/** An id field that may be expanded into an object. */
const idOf = (v: unknown): string | null => str(v) ?? str(obj(v).id);
const iso = (seconds: unknown): string | null =>
  typeof seconds === 'number' && Number.isFinite(seconds) ? new Date(seconds * 1000).toISOString() : null;

/** The subscription an event concerns (for the event log), whatever its type. */
export function subscriptionIdOf(type: string, object: Obj): string | null {
  if (type === 'customer.subscription.deleted') return str(object.id);
  if (type.startsWith('invoice.')) return invoiceSubscription(object);
  if (type === 'checkout.session.completed') return idOf(object.subscription);
  return null;
}

// Older API versions put the subscription on the invoice; newer ones under parent.subscription_details.
function invoiceSubscription(invoice: Obj): string | null {
  return idOf(invoice.subscription) ?? idOf(obj(obj(invoice.parent).subscription_details).subscription);
}

export async function applyPaymentEvent(
  deps: PaymentEventDeps,
  eventId: string,
  type: string,
  created: number,
  object: Obj,
): Promise<string> {
  switch (type) {
    case 'checkout.session.completed':
      return checkoutCompleted(deps, eventId, object);
    case 'invoice.paid':
      return invoicePaid(deps, created, object);
    case 'invoice.payment_failed':
      return invoiceFailed(deps, created, object);
    case 'customer.subscription.deleted':
      return subscriptionDeleted(deps, eventId, created, object);
    default:
      return 'ignored';
  }
}

/** Routes a completed checkout by its mode and metadata: a subscription, a domain renewal or a credit purchase. */
async function checkoutCompleted(deps: PaymentEventDeps, eventId: string, session: Obj): Promise<string> {
  const metadata = obj(session.metadata);
  const kind = str(metadata.kind);
  const customer = idOf(session.customer);
  const email = str(obj(session.customer_details).email) ?? str(session.customer_email);
  if (session.mode === 'subscription' || kind === 'subscription') {
    const id = idOf(session.subscription);
    if (!id) return 'ignored_no_subscription';
    let details = { plan: str(metadata.plan), renews_at: null as string | null };
    try {
      const fromApi = await deps.stripe.subscription(id);
      if (fromApi) details = { plan: details.plan ?? fromApi.plan, renews_at: fromApi.renews_at };
    } catch (error) {
      // The checkout is recorded without the plan's details; invoice.paid brings the period.
      deps.log.warn({ subscription_id: id, reason: (error as Error).message }, 'Could not read the subscription from the payment provider');
    }
    await deps.subscriptions.ensure(id, { customer_id: customer, email, plan: details.plan, renews_at: details.renews_at });
    return 'subscription_created';
  }
  if (kind === 'domain_renewal' || (kind === null && str(metadata.domain))) {
    const domain = str(metadata.domain)?.toLowerCase();
    if (!domain) return 'ignored_no_domain';
    const years = Math.min(Math.max(Number.parseInt(String(metadata.years ?? '1'), 10) || 1, 1), 10);
    const current = await deps.c.domains.findOne({ _id: domain });
    if (current?.last_event_id === eventId) return 'domain_renewed';
    const now = deps.now();
    // From the current expiry if still in the future, else from today: a late renewal buys whole years from now.
    const base = current && new Date(current.expires_at) > now ? new Date(current.expires_at) : now;
    const expires = new Date(base);
    expires.setUTCFullYear(expires.getUTCFullYear() + years);
    if (current) {
      await deps.c.domains.updateOne(
        { _id: domain, last_event_id: current.last_event_id },
        {
          $set: {
            expires_at: expires.toISOString(),
            last_event_id: eventId,
            updated_at: now.toISOString(),
            customer_id: customer ?? current.customer_id,
          },
          $inc: { renewals: 1 },
        },
      );
    } else {
      await deps.c.domains.insertOne({
        _id: domain,
        customer_id: customer,
        expires_at: expires.toISOString(),
        last_event_id: eventId,
        renewals: 1,
        updated_at: now.toISOString(),
      });
    }
    return 'domain_renewed';
  }
  if (kind === 'credits' || (kind === null && metadata.credits !== undefined)) {
    const credits = Number.parseInt(String(metadata.credits ?? ''), 10);
    if (!customer || !Number.isSafeInteger(credits) || credits <= 0) return 'ignored_bad_credits';
    try {
      await deps.c.credits.insertOne({
        _id: eventId,
        customer_id: customer,
        credits,
        session_id: str(session.id) ?? '',
        created_at: deps.now().toISOString(),
      });
    } catch (error) {
      if ((error as Error).name !== 'DuplicateKeyError') throw error;
    }
    return 'credits_added';
  }
  deps.log.debug({ event_id: eventId }, 'Checkout session with no billing kind: ignored');
  return 'ignored';
}

async function invoicePaid(deps: PaymentEventDeps, created: number, invoice: Obj): Promise<string> {
  const id = invoiceSubscription(invoice);
  if (!id) return 'ignored_no_subscription';
  await deps.subscriptions.ensure(id, { customer_id: idOf(invoice.customer), email: str(invoice.customer_email) });
  const line = obj(((obj(invoice.lines).data as unknown[]) ?? [])[0]);
  const renews = iso(obj(line.period).end) ?? iso(invoice.period_end);
  const applied = await deps.subscriptions.paymentStatus(id, 'active', created, renews ? { renews_at: renews } : {});
  return applied ? 'activated' : 'ignored_stale';
}

async function invoiceFailed(deps: PaymentEventDeps, created: number, invoice: Obj): Promise<string> {
  const id = invoiceSubscription(invoice);
  if (!id) return 'ignored_no_subscription';
  await deps.subscriptions.ensure(id, { customer_id: idOf(invoice.customer), email: str(invoice.customer_email) });
  const applied = await deps.subscriptions.paymentStatus(id, 'payment_failed', created);
  return applied ? 'payment_failed' : 'ignored_stale';
}

async function subscriptionDeleted(deps: PaymentEventDeps, eventId: string, created: number, object: Obj): Promise<string> {
  const id = str(object.id);
  if (!id) return 'ignored_no_subscription';
  await deps.subscriptions.ensure(id, { customer_id: idOf(object.customer) });
  let sub = await deps.subscriptions.cancel(id, created, eventId, deps.graceMs);
  if (!sub) {
    // Already canceled: by this very event (a retry after a crash: finish its work) or earlier (nothing to do).
    const current = await deps.subscriptions.get(id);
    if (current?.canceled_by_event !== eventId) return 'ignored_already_canceled';
    sub = current;
  }
  await deps.scheduleDeletion(new Date(sub.deletion_due_at!));
  if (sub.email) {
    await deps.mailer.enqueue(
      `${eventId}:cancellation`,
      'cancellation',
      sub.email,
      {
        subscription_id: sub._id,
        plan: sub.plan ?? '',
        site_url: sub.site_url ?? '',
        deletion_due_at: sub.deletion_due_at ? deps.formatDate(sub.deletion_due_at) : '',
      },
      sub._id,
    );
  } else {
    deps.log.warn({ subscription_id: sub._id }, 'Subscription canceled but no e-mail address is known: no cancellation e-mail');
  }
  return 'deletion_scheduled';
}
