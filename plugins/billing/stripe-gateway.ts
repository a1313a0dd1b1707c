/**
 * The payment provider through its official SDK (`stripe`): webhook signatures verified
 * by `webhooks.constructEvent` on the raw bytes, and the API (host, port and protocol
 * configurable) for what an event does not carry.
 */
import type Stripe from 'stripe';

// The Stripe SDK loads on the first webhook or API call, not at start-up.
let stripeModule: Promise<typeof import('stripe')> | null = null;
const loadStripe = async () => (await (stripeModule ??= import('stripe'))).default;
import type { BillingSettings } from './settings.js';
import { futureTimestampProblem } from './signature-window.js';
import type { Secrets } from './secrets.js';

export interface VerifiedEvent {
  ok: true;
  event: Record<string, unknown>;
}
export interface RefusedEvent {
  ok: false;
  /** Why, for the log: never the header or the secret. */
  reason: string;
  /** The signature held but the body is no JSON event. */
  malformed?: boolean;
}

export interface SubscriptionDetails {
  plan: string | null;
  renews_at: string | null;
}

export class StripeGateway {
  /**
   * The API client of the last key used, kept: building one sets up every resource of the
   * API (about 1 ms of CPU each time), and a key rotated in the settings makes a new one.
   */
  private last: { key: string; client: Stripe } | null = null;

  constructor(
    private readonly config: BillingSettings,
    private readonly secrets: Secrets,
  ) {}

  private async client(apiKey: string): Promise<Stripe> {
    if (this.last?.key === apiKey) return this.last.client;
    const StripeClient = await loadStripe();
    const client = new StripeClient(apiKey, {
      host: this.config.stripe_api_host,
      port: this.config.stripe_api_port,
      protocol: this.config.stripe_api_protocol,
      // Called while Stripe waits for the webhook's answer: fail fast (the event is recorded
      // without the API's details) rather than make Stripe time out and retry.
      maxNetworkRetries: 0,
      timeout: 8_000,
      telemetry: false,
    });
    this.last = { key: apiKey, client };
    return client;
  }

  async verify(rawBody: Buffer, signature: string | undefined): Promise<VerifiedEvent | RefusedEvent> {
    const secret = await this.secrets.get('stripe_webhook_secret');
    if (!secret) return { ok: false, reason: 'no Stripe webhook endpoint secret is configured' };
    if (!signature) return { ok: false, reason: 'no Stripe-Signature header' };
    // Verifying needs no API client: the SDK's webhooks helper is static.
    const StripeClient = await loadStripe();
    try {
      const tolerance = this.config.stripe_tolerance_seconds;
      const event = StripeClient.webhooks.constructEvent(rawBody, signature, secret, tolerance);
      // Wall-clock time, as constructEvent's own check of the past uses: the host's clock
      // service may be a test's fake, but signatures are made by Stripe's real clock.
      const future = futureTimestampProblem(signature, Math.floor(Date.now() / 1000), tolerance);
      if (future) return { ok: false, reason: `signature refused: ${future}` };
      return { ok: true, event: event as unknown as Record<string, unknown> };
    } catch (error) {
      if (error instanceof StripeClient.errors.StripeSignatureVerificationError) {
        // Stripe's messages name what failed (no match, timestamp outside tolerance, bad header) without echoing secrets.
        return { ok: false, reason: `signature refused: ${error.message.split('\n')[0]?.slice(0, 200)}` };
      }
      return { ok: false, reason: 'the signed body is not a JSON event', malformed: true };
    }
  }

  /** Plan and period of a subscription, from the API; null when no API key is configured. */
  async subscription(id: string): Promise<SubscriptionDetails | null> {
    const key = await this.secrets.get('stripe_api_key');
    if (!key) return null;
    const sub = (await (await this.client(key)).subscriptions.retrieve(id)) as unknown as Record<string, unknown>;
    const item = ((sub.items as { data?: Array<Record<string, unknown>> } | undefined)?.data ?? [])[0] ?? {};
    const price = (item.price ?? {}) as Record<string, unknown>;
    const plan = [price.lookup_key, price.nickname, price.id].find((v): v is string => typeof v === 'string' && v !== '') ?? null;
    // The period end moved from the subscription to its items in recent API versions: read either.
    const end = [item.current_period_end, sub.current_period_end].find((v): v is number => typeof v === 'number');
    return { plan, renews_at: end === undefined ? null : new Date(end * 1000).toISOString() };
  }
}
