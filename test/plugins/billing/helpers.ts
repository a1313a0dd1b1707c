// Shared by the billing suites: a local SMTP server that records what arrives, Stripe
// events signed with the stripe package's own test-header helper, and the provisioner call.
import { SMTPServer } from 'smtp-server';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import type { TestClient, TestResponse } from '../../../sdk/testing/index.js';

export type Body = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- reads API JSON
export const NS = 'provisioner/v1';
export const INTERNAL_KEY = 'internal-key-0123456789abcdef';
export const TOKEN = 'provisioner-token-abcdef0123456789';
export const WHSEC = 'whsec_test_secret_0123456789';

export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

export interface SmtpCapture {
  port: number;
  mails: ReceivedMail[];
  close(): Promise<void>;
}

/** A free loopback port (nothing listens on it once this returns). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** An SMTP server on 127.0.0.1 (no TLS, auth optional but checked when given). */
export async function startSmtp(port = 0, mails: ReceivedMail[] = [], credentials?: { user: string; pass: string }): Promise<SmtpCapture> {
  const server = new SMTPServer({
    secure: false,
    disabledCommands: ['STARTTLS'],
    authOptional: !credentials,
    allowInsecureAuth: true,
    logger: false,
    onAuth(auth, _session, callback) {
      if (credentials && auth.username === credentials.user && auth.password === credentials.pass) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  const actual = (server.server.address() as AddressInfo).port;
  return { port: actual, mails, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export async function waitFor<T>(
  what: string,
  probe: () => T | undefined | null | false | Promise<T | undefined | null | false>,
  timeoutMs = 10_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const stripe = new Stripe('sk_test_unused');

export interface StripeEvent {
  id: string;
  type: string;
  created: number;
  data: { object: Record<string, unknown> };
}

export function event(id: string, type: string, created: number, object: Record<string, unknown>): StripeEvent {
  return { id, type, created, data: { object } };
}

/** POST /webhook/payments signed as Stripe does (`generateTestHeaderString`). */
export function sendEvent(
  t: TestClient,
  ev: StripeEvent | string,
  options: { secret?: string; tamper?: (payload: string) => string; timestamp?: number } = {},
): Promise<TestResponse<Body>> {
  const payload =
    typeof ev === 'string' ? ev : JSON.stringify({ object: 'event', api_version: '2026-10-28.endive', livemode: false, ...ev });
  const header = stripe.webhooks.generateTestHeaderString({
    payload,
    secret: options.secret ?? WHSEC,
    ...(options.timestamp ? { timestamp: options.timestamp } : {}),
  });
  const body = options.tamper ? options.tamper(payload) : payload;
  return t.request<Body>('POST', '/webhook/payments', {
    namespace: NS,
    as: 'anonymous',
    body,
    headers: { 'Content-Type': 'application/json', 'Stripe-Signature': header },
  });
}

export function provision(
  t: TestClient,
  body: unknown,
  headers: Record<string, string> = { 'X-Provisioner-Internal-Key': INTERNAL_KEY, Authorization: `Bearer ${TOKEN}` },
): Promise<TestResponse<Body>> {
  return t.request<Body>('POST', '/webhook/provisioner', {
    namespace: NS,
    as: 'anonymous',
    body: typeof body === 'string' ? body : JSON.stringify(body),
    headers: { 'Content-Type': 'application/json', ...headers },
  });
}

export const checkoutSubscription = (id: string, sub: string, created: number, email: string, plan = 'pro') =>
  event(id, 'checkout.session.completed', created, {
    id: `cs_${id}`,
    object: 'checkout.session',
    mode: 'subscription',
    subscription: sub,
    customer: 'cus_1',
    customer_details: { email },
    metadata: { plan },
  });

export const invoice = (
  id: string,
  type: 'invoice.paid' | 'invoice.payment_failed',
  sub: string,
  created: number,
  periodEnd = 1_800_000_000,
) =>
  event(id, type, created, {
    id: `in_${id}`,
    object: 'invoice',
    customer: 'cus_1',
    parent: { type: 'subscription_details', subscription_details: { subscription: sub } },
    lines: { object: 'list', data: [{ period: { start: periodEnd - 2_592_000, end: periodEnd } }] },
  });

export const subscriptionDeleted = (id: string, sub: string, created: number) =>
  event(id, 'customer.subscription.deleted', created, { id: sub, object: 'subscription', customer: 'cus_1', status: 'canceled' });

export async function subscription(t: TestClient, id: string): Promise<Body> {
  const res = await t.request<Body>('GET', `/subscriptions/${id}`, { namespace: NS });
  if (res.status !== 200) throw new Error(`GET /subscriptions/${id}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data;
}

/**
 * The text a mail reader shows for a single-part plain-text mail: the body, with
 * quoted-printable undone (nodemailer uses it for lines over 76 characters, breaking them
 * with soft `=` line ends, so a phrase can be split across lines of the raw message).
 */
export function mailText(raw: string): string {
  const split = raw.search(/\r?\n\r?\n/);
  const headers = split < 0 ? raw : raw.slice(0, split);
  const body = split < 0 ? '' : raw.slice(split).replace(/^\r?\n\r?\n/, '');
  if (!/^content-transfer-encoding:\s*quoted-printable/im.test(headers)) return body;
  const latin1 = body.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  return Buffer.from(latin1, 'latin1').toString('utf8');
}
