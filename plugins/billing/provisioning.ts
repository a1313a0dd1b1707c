/**
 * The provisioner's callback: its payload checked field by field (a malformed body is a
 * 400 naming the field), and `provisioning_complete` applied to the subscription.
 */
import { billingError } from './errors.js';

export const PROVISIONING_EVENT_TYPES = ['provisioning_complete'] as const;

export interface ProvisioningPayload {
  event: 'provisioning_complete';
  event_id: string;
  subscription_id: string;
  site_id: string | null;
  site_url: string;
  plan: string | null;
  email: string | null;
  provisioned_at: string | null;
}

const ID = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,199}$/;
const EMAIL = /^[^\s@]{1,64}@[^\s@]{1,255}$/;

const invalid = (field: string, message: string) =>
  billingError('invalid_payload', { message: `Invalid provisioning payload: ${field} ${message}.`, data: { field } });

export function parseProvisioningPayload(raw: Buffer): ProvisioningPayload {
  let body: unknown;
  try {
    body = JSON.parse(raw.toString('utf8'));
  } catch {
    throw invalid('body', 'is not valid JSON');
  }
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('body', 'must be a JSON object');
  const b = body as Record<string, unknown>;
  if (typeof b.event !== 'string' || b.event === '') throw invalid('event', 'is required (a string)');
  if (!(PROVISIONING_EVENT_TYPES as readonly string[]).includes(b.event)) {
    throw billingError('unsupported_event', {
      message: `Unsupported provisioning event "${b.event.slice(0, 100)}". Supported: ${PROVISIONING_EVENT_TYPES.join(', ')}.`,
      data: { supported: [...PROVISIONING_EVENT_TYPES] },
    });
  }
  const id = (field: string, required: boolean): string | null => {
    const v = b[field];
    if (v === undefined || v === null) {
      if (required) throw invalid(field, 'is required');
      return null;
    }
    if (typeof v !== 'string' || !ID.test(v)) throw invalid(field, 'must be 1-200 letters, digits or . _ : -');
    return v;
  };
  const eventId = id('event_id', true)!;
  const subscriptionId = id('subscription_id', true)!;
  const siteId = id('site_id', false);
  const siteUrl = b.site_url;
  if (typeof siteUrl !== 'string' || siteUrl.length > 2000 || !/^https?:\/\/[^\s/]+/.test(siteUrl) || !URL.canParse(siteUrl))
    throw invalid('site_url', 'must be an http(s) URL of at most 2000 characters');
  const plan = b.plan;
  if (plan !== undefined && plan !== null && (typeof plan !== 'string' || plan.length < 1 || plan.length > 100))
    throw invalid('plan', 'must be a string of 1-100 characters');
  const email = b.email;
  if (email !== undefined && email !== null && (typeof email !== 'string' || email.length > 320 || !EMAIL.test(email)))
    throw invalid('email', 'must be an e-mail address');
  const at = b.provisioned_at;
  let provisionedAt: string | null = null;
  if (at !== undefined && at !== null) {
    const parsed = typeof at === 'string' && at.length <= 40 && /^\d{4}-\d{2}-\d{2}T/.test(at) ? new Date(at) : null;
    if (!parsed || Number.isNaN(parsed.getTime())) throw invalid('provisioned_at', 'must be an ISO 8601 date-time');
    provisionedAt = parsed.toISOString();
  }
  return {
    event: 'provisioning_complete',
    event_id: eventId,
    subscription_id: subscriptionId,
    site_id: siteId,
    site_url: siteUrl,
    plan: typeof plan === 'string' ? plan : null,
    email: typeof email === 'string' ? email : null,
    provisioned_at: provisionedAt,
  };
}
