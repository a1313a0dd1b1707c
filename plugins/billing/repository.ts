/** The plugin's collections (namespaced to it by services.store) and their indexes. */
import type { Collection, PluginStore } from '../../sdk/index.js';
import type { CreditEntryDoc, DomainDoc, EventDoc, MailDoc, SubscriptionDoc } from './model.js';
import type { SecretsDoc } from './secrets.js';

export interface BillingCollections {
  subscriptions: Collection<SubscriptionDoc>;
  events: Collection<EventDoc>;
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
  await c.credits.createIndex({ fields: { customer_id: 1 } });
  await c.mail.createIndex({ fields: { status: 1, next_attempt_at: 1 } });
}
