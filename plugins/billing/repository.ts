/** The plugin's collections (namespaced to it by services.store) and their indexes. */
import type { Collection, PluginStore } from '../../sdk/index.js';
import type { CreditEntryDoc, DomainDoc, EventDoc, MailDoc, ReplayDoc, SubscriptionDoc } from './model.js';
import type { SecretsDoc } from './secrets.js';

export interface BillingCollections {
  subscriptions: Collection<SubscriptionDoc>;
  events: Collection<EventDoc>;
  /** Replays of stored events, each its own record (never written onto the event). */
  replays: Collection<ReplayDoc>;
  credits: Collection<CreditEntryDoc>;
  domains: Collection<DomainDoc>;
  mail: Collection<MailDoc>;
  secrets: Collection<SecretsDoc>;
}

export function billingCollections(store: PluginStore): BillingCollections {
  return {
    subscriptions: store.collection<SubscriptionDoc>('subscriptions'),
    // `_id` is the sender's event id: the store's unique key is the dedupe.
    events: store.collection<EventDoc>('events'),
    replays: store.collection<ReplayDoc>('replays'),
    credits: store.collection<CreditEntryDoc>('credits'),
    domains: store.collection<DomainDoc>('domains'),
    mail: store.collection<MailDoc>('mail'),
    secrets: store.collection<SecretsDoc>('settings'),
  };
}

export async function ensureIndexes(c: BillingCollections): Promise<void> {
  await c.subscriptions.createIndex({ fields: { status: 1, created_at: -1 } });
  await c.subscriptions.createIndex({ fields: { status: 1, deletion_due_at: 1 } });
  await c.events.createIndex({ fields: { subscription_id: 1, received_at: 1 } });
  await c.events.createIndex({ fields: { status: 1 } });
  await c.replays.createIndex({ fields: { replay_of: 1, attempt: 1 } });
  await c.credits.createIndex({ fields: { customer_id: 1 } });
  await c.mail.createIndex({ fields: { status: 1, next_attempt_at: 1 } });
}

export interface CreditTotal {
  balance: number;
  purchases: number;
}

/**
 * A customer's balance and purchase count, added up by the store over every ledger entry
 * (never a page of them). The ledger is insert-only and keyed by event id, so this sum is
 * exact after any crash or retry: there is no running total to fall out of step.
 */
export async function creditTotal(c: BillingCollections, customerId: string): Promise<CreditTotal> {
  const [all] = await c.credits.totals({ customer_id: customerId }, { sum: ['credits'] });
  return { balance: all?.sums.credits ?? 0, purchases: all?.count ?? 0 };
}
