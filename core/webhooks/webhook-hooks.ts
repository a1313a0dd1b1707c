import { AsyncSeriesHook } from 'tapable';
import type { WebhookEvent, WebhookHookSet } from '../../sdk/contract/webhook-events.js';

/** The trigger's own hook: the webhooks domain alone fires it; plugins listen through `services.webhookEvents`. */
export class WebhookHooks implements WebhookHookSet {
  readonly webhookReceived = new AsyncSeriesHook<[WebhookEvent]>(['event']);
}
