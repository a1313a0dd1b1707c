/**
 * The webhook channel: a Slack-compatible body (`{text}`) or a generic JSON body, POSTed
 * through the guarded fetch (no private address unless the host allows them). With a
 * secret, the raw body is signed: `X-Flowhost-Signature: sha256=<hex HMAC-SHA256>`.
 */
import { createHmac } from 'node:crypto';
import type { GuardedFetch } from '../../sdk/index.js';
import { details, type AlertMessage } from './message.js';
import type { AlertSettings } from './settings.js';

export const SIGNATURE_HEADER = 'X-Flowhost-Signature';
const TIMEOUT_MS = 10_000;

export function webhookBody(message: AlertMessage, format: AlertSettings['webhook_format']): string {
  if (format === 'slack') return JSON.stringify({ text: details(message) });
  return JSON.stringify({ event: `flow.${message.kind}`, ...message });
}

export function signature(secret: string, rawBody: string): string {
  return `sha256=${createHmac('sha256', secret).update(rawBody).digest('hex')}`;
}

/** Throws with the receiver's status when it does not answer 2xx. */
export async function postWebhook(fetch: GuardedFetch, settings: AlertSettings, message: AlertMessage): Promise<void> {
  if (!settings.webhook_url) throw new Error('no webhook_url is set');
  const body = webhookBody(message, settings.webhook_format);
  const headers: Record<string, string> = { 'Content-Type': 'application/json', 'User-Agent': 'Flowhost-Alerts' };
  if (settings.webhook_secret) headers[SIGNATURE_HEADER] = signature(settings.webhook_secret, body);
  const res = await fetch(settings.webhook_url, {
    method: 'POST',
    headers,
    body,
    timeoutMs: TIMEOUT_MS,
    maxBytes: 64 * 1024,
    maxRedirects: 0,
  });
  if (!res.ok) throw new Error(`the webhook receiver answered ${res.status}`);
}
