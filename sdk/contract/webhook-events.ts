/**
 * The webhook trigger's event (issue 54): the webhooks domain owns `webhookReceived` and
 * alone fires it, once per accepted delivery; a plugin listens through
 * `deps: { webhookEvents: services.webhookEvents }`.
 */
import type { AsyncSeriesHook } from 'tapable';
import type { ListenOnly } from '../kernel/domain-hooks.js';
import { createServiceRef } from '../kernel/service-ref.js';

export interface WebhookEvent {
  flowId: number;
  jobId: number;
  headers: Readonly<Record<string, string | undefined>>;
}

/** The webhooks domain's hooks as it holds them (core/webhooks/webhook-hooks.ts). */
export interface WebhookHookSet {
  /** A delivery was accepted and its job stored (credentials left out of the headers). */
  readonly webhookReceived: AsyncSeriesHook<[WebhookEvent]>;
}

/** What a plugin sees of the webhook trigger's hooks. */
export type WebhookEvents = ListenOnly<WebhookHookSet>;

/** `deps: { webhookEvents: services.webhookEvents }`: provided by the core webhooks plugin. */
export const webhookEventsService = createServiceRef<WebhookEvents, 'root'>({ id: 'webhookEvents', scope: 'root' });
