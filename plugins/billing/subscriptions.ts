/**
 * Subscription state transitions. Each is one conditional update on the subscription
 * document, so it is atomic and a retry of the same event changes nothing: the filter
 * says from which states (and, for payment events, from which event time on) it applies.
 * An event older than the last one applied (`last_event_created`) matches nothing — an
 * `invoice.paid` delivered late, after a newer failure, does not reactivate.
 */
import type { Clock } from '../../sdk/index.js';
import type { SubscriptionDoc, SubscriptionStatus } from './model.js';
import type { BillingCollections } from './repository.js';

/** States a payment (paid or failed invoice) may still move; canceled and deleted are final. */
const LIVE: SubscriptionStatus[] = ['pending', 'active', 'payment_failed'];

export interface KnownFields {
  customer_id?: string | null;
  email?: string | null;
  plan?: string | null;
  renews_at?: string | null;
}

export class Subscriptions {
  constructor(
    private readonly c: BillingCollections,
    private readonly clock: Clock,
  ) {}

  get(id: string): Promise<SubscriptionDoc | null> {
    return this.c.subscriptions.findOne({ _id: id });
  }

  /**
   * Creates the subscription (status `pending`) unless it exists, then fills fields it
   * lacks. Events arrive in any order (Stripe often sends invoice.paid before
   * checkout.session.completed), so whichever comes first creates it.
   */
  async ensure(id: string, fields: KnownFields): Promise<SubscriptionDoc> {
    const now = this.clock.now().toISOString();
    const blank: Omit<SubscriptionDoc, '_id'> = {
      customer_id: null,
      email: null,
      plan: null,
      status: 'pending',
      provisioned: false,
      site_id: null,
      site_url: null,
      provisioned_at: null,
      renews_at: null,
      canceled_at: null,
      deletion_due_at: null,
      deleted_at: null,
      last_event_created: 0,
      created_at: now,
      updated_at: now,
    };
    try {
      await this.c.subscriptions.updateOne({ _id: id }, { $setOnInsert: blank }, { upsert: true });
    } catch (error) {
      // Two first events at once: the other one created it.
      if ((error as Error).name !== 'DuplicateKeyError') throw error;
    }
    for (const [key, value] of Object.entries(fields)) {
      if (value === null || value === undefined) continue;
      // Only where still unknown: a later event never overwrites what an earlier one recorded.
      await this.c.subscriptions.updateOne({ _id: id, [key]: null }, { $set: { [key]: value, updated_at: now } });
    }
    return (await this.get(id))!;
  }

  /** invoice.paid / invoice.payment_failed: true when applied, false when stale or final. */
  async paymentStatus(
    id: string,
    status: 'active' | 'payment_failed',
    created: number,
    set: Record<string, unknown> = {},
  ): Promise<boolean> {
    const updated = await this.c.subscriptions.findOneAndUpdate(
      { _id: id, status: { $in: LIVE }, last_event_created: { $lte: created } },
      { $set: { ...set, status, last_event_created: created, updated_at: this.clock.now().toISOString() } },
    );
    return updated !== null;
  }

  /** customer.subscription.deleted: canceled, its deletion due after the grace period. */
  async cancel(id: string, created: number, eventId: string, graceMs: number): Promise<SubscriptionDoc | null> {
    const now = this.clock.now();
    return this.c.subscriptions.findOneAndUpdate(
      { _id: id, status: { $in: LIVE } },
      {
        $set: {
          status: 'canceled',
          canceled_at: now.toISOString(),
          deletion_due_at: new Date(now.getTime() + graceMs).toISOString(),
          canceled_by_event: eventId,
          last_event_created: Math.max(created, 0),
          updated_at: now.toISOString(),
        },
      },
    );
  }

  /** provisioning_complete: the site exists. Allowed in any state but `deleted`. */
  async provision(
    id: string,
    eventId: string,
    fields: { site_id: string | null; site_url: string; plan: string | null; provisioned_at: string },
  ): Promise<SubscriptionDoc | null> {
    const set: Record<string, unknown> = {
      provisioned: true,
      site_id: fields.site_id,
      site_url: fields.site_url,
      provisioned_at: fields.provisioned_at,
      provisioned_by_event: eventId,
      updated_at: this.clock.now().toISOString(),
    };
    if (fields.plan) set.plan = fields.plan;
    return this.c.subscriptions.findOneAndUpdate({ _id: id, status: { $ne: 'deleted' } }, { $set: set });
  }

  /** The grace period is over: canceled subscriptions due by now become `deleted`. Returns their ids. */
  async deleteDue(): Promise<string[]> {
    const now = this.clock.now().toISOString();
    const due = await this.c.subscriptions.find({ status: 'canceled', deletion_due_at: { $lte: now } }, { limit: 500 });
    const deleted: string[] = [];
    for (const sub of due) {
      const done = await this.c.subscriptions.findOneAndUpdate(
        { _id: sub._id, status: 'canceled' },
        { $set: { status: 'deleted', deleted_at: now, updated_at: now } },
      );
      if (done) deleted.push(sub._id);
    }
    return deleted;
  }
}
