/** What the admin routes answer, and the JSON Schemas that declare it. */
import type { JsonSchema } from '../../sdk/index.js';
import type { CreditEntryDoc, DomainDoc, EventDoc, MailDoc, ReplayDoc, SubscriptionDoc } from './model.js';
import { SUBSCRIPTION_STATUSES } from './model.js';

const s = { type: 'string' } as const;
const ns = { type: ['string', 'null'] } as const;

export const subscriptionSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'customer_id',
    'email',
    'plan',
    'status',
    'provisioned',
    'site_id',
    'site_url',
    'provisioned_at',
    'renews_at',
    'canceled_at',
    'deletion_due_at',
    'deleted_at',
    'created_at',
    'updated_at',
  ],
  properties: {
    id: s,
    customer_id: ns,
    email: ns,
    plan: ns,
    status: { enum: [...SUBSCRIPTION_STATUSES] },
    provisioned: { type: 'boolean' },
    site_id: ns,
    site_url: ns,
    provisioned_at: ns,
    renews_at: ns,
    canceled_at: ns,
    deletion_due_at: ns,
    deleted_at: ns,
    created_at: s,
    updated_at: s,
  },
};

export function subscriptionView(d: SubscriptionDoc): Record<string, unknown> {
  return {
    id: d._id,
    customer_id: d.customer_id,
    email: d.email,
    plan: d.plan,
    status: d.status,
    provisioned: d.provisioned,
    site_id: d.site_id,
    site_url: d.site_url,
    provisioned_at: d.provisioned_at,
    renews_at: d.renews_at,
    canceled_at: d.canceled_at,
    deletion_due_at: d.deletion_due_at,
    deleted_at: d.deleted_at,
    created_at: d.created_at,
    updated_at: d.updated_at,
  };
}

export const eventSchema: JsonSchema = {
  type: 'object',
  required: ['id', 'source', 'type', 'created', 'subscription_id', 'status', 'outcome', 'error', 'received_at', 'processed_at', 'replays'],
  properties: {
    id: s,
    source: { enum: ['payments', 'provisioner'] },
    type: s,
    created: s,
    subscription_id: ns,
    status: { enum: ['received', 'processed', 'failed'] },
    outcome: ns,
    error: ns,
    received_at: s,
    processed_at: ns,
    replays: { type: 'integer' },
  },
};

/** The stored payload is not answered: it carries customer data and is only for replay. */
export function eventView(d: EventDoc): Record<string, unknown> {
  return {
    id: d._id,
    source: d.source,
    type: d.type,
    created: new Date(d.created * 1000).toISOString(),
    subscription_id: d.subscription_id,
    status: d.status,
    outcome: d.outcome,
    error: d.error,
    received_at: d.received_at,
    processed_at: d.processed_at,
    replays: d.replays ?? 0,
  };
}

export const replaySchema: JsonSchema = {
  type: 'object',
  required: ['id', 'replay_of', 'type', 'attempt', 'status', 'outcome', 'error', 'started_at', 'finished_at'],
  properties: {
    id: s,
    replay_of: s,
    type: s,
    attempt: { type: 'integer' },
    status: { enum: ['running', 'processed', 'failed'] },
    outcome: ns,
    error: ns,
    started_at: s,
    finished_at: ns,
  },
};

export function replayView(d: ReplayDoc): Record<string, unknown> {
  return {
    id: d._id,
    replay_of: d.replay_of,
    type: d.type,
    attempt: d.attempt,
    status: d.status,
    outcome: d.outcome,
    error: d.error,
    started_at: d.started_at,
    finished_at: d.finished_at,
  };
}

/** One event in detail: its own record, and its replays (the newest 100, oldest first). */
export const eventDetailSchema: JsonSchema = {
  allOf: [
    eventSchema,
    { type: 'object', required: ['replay_attempts'], properties: { replay_attempts: { type: 'array', items: replaySchema } } },
  ],
};

export const domainSchema: JsonSchema = {
  type: 'object',
  required: ['domain', 'customer_id', 'expires_at', 'renewals', 'updated_at'],
  properties: { domain: s, customer_id: ns, expires_at: s, renewals: { type: 'integer' }, updated_at: s },
};

export function domainView(d: DomainDoc): Record<string, unknown> {
  return { domain: d._id, customer_id: d.customer_id, expires_at: d.expires_at, renewals: d.renewals, updated_at: d.updated_at };
}

export const creditsSchema: JsonSchema = {
  type: 'object',
  required: ['customer_id', 'balance', 'purchase_count', 'purchases'],
  properties: {
    customer_id: s,
    balance: { type: 'integer' },
    purchase_count: { type: 'integer' },
    purchases: {
      type: 'array',
      items: {
        type: 'object',
        required: ['event_id', 'credits', 'session_id', 'created_at'],
        properties: { event_id: s, credits: { type: 'integer' }, session_id: s, created_at: s },
      },
    },
  },
};

/** Balance and count are over every purchase; `entries` is only the page being shown. */
export function creditsView(
  customer: string,
  total: { balance: number; purchases: number },
  entries: CreditEntryDoc[],
): Record<string, unknown> {
  return {
    customer_id: customer,
    balance: total.balance,
    purchase_count: total.purchases,
    purchases: entries.map((e) => ({ event_id: e._id, credits: e.credits, session_id: e.session_id, created_at: e.created_at })),
  };
}

export const webhookResultSchema: JsonSchema = {
  type: 'object',
  required: ['event_id', 'type', 'duplicate', 'outcome', 'subscription'],
  properties: {
    event_id: s,
    type: s,
    duplicate: { type: 'boolean' },
    outcome: s,
    subscription: { anyOf: [subscriptionSchema, { type: 'null' }] },
  },
};

export const mailSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'template',
    'to',
    'subject',
    'subscription_id',
    'status',
    'attempts',
    'next_attempt_at',
    'last_error',
    'created_at',
    'sent_at',
  ],
  properties: {
    id: s,
    template: s,
    to: s,
    subject: s,
    subscription_id: ns,
    status: { enum: ['pending', 'sent'] },
    attempts: { type: 'integer' },
    next_attempt_at: ns,
    last_error: ns,
    created_at: s,
    sent_at: ns,
  },
};

/** The body is not answered (it is the rendered template); the SMTP error is, for support. */
export function mailView(d: MailDoc): Record<string, unknown> {
  return {
    id: d._id,
    template: d.template,
    to: d.to,
    subject: d.subject,
    subscription_id: d.subscription_id,
    status: d.status,
    attempts: d.attempts,
    next_attempt_at: d.status === 'pending' ? new Date(d.next_attempt_at).toISOString() : null,
    last_error: d.last_error,
    created_at: d.created_at,
    sent_at: d.sent_at,
  };
}
