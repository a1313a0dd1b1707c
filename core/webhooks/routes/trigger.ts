/** POST /trigger/{flow_id}: an inbound webhook, authenticated per flow, queues a run. */
import { allValues } from '../../kernel/request-input.js';
import type { RouteRequest, RouteSchema, SurfaceDefinition } from '../../kernel/routes.js';
import type { Clock } from '../../kernel/clock.js';
import type { JobsService } from '../../jobs/service.js';
import { webhookHeaders } from '../header-redaction.js';
import type { InboundRequest } from '../hmac-verify.js';
import type { WebhooksService } from '../service.js';
import type { FlowRecord } from '../../flows/model.js';
import type { TriggerLimits } from '../trigger-limits.js';
import type { EventClaim, EventDedupe } from '../event-dedupe.js';
import type { WebhookEvent } from '../../../sdk/contract/webhook-events.js';
import { withResponses } from '../../kernel/response-schemas.js';
import { webhookTriggerResponses } from '../responses.js';
import { apiError } from '../../errors/catalogue.js';
import { decodePayload } from './payload.js';
import { IDEMPOTENCY_KEY_MAX } from '../idempotency-key.js';
import { claimDelivery, deliveryIdentity, duplicateAnswer } from './trigger-dedupe.js';

/** One answer for every authentication failure: nothing tells a stranger why. */
const unauthorized = () => apiError('rest_unauthorized');

export interface TriggerDeps {
  webhooks: WebhooksService;
  limits: TriggerLimits;
  dedupe: EventDedupe;
  jobs: JobsService;
  /** Starts the flow's oldest queued job unless the flow is running (whose end starts it). */
  startQueued: (flowId: number) => void;
  clock: Clock;
  /** The URL senders see (FLOWHOST_PUBLIC_URL, else the listening URL). */
  publicUrl: () => string;
  logWarning: (message: string, context: Record<string, unknown>) => Promise<void>;
  /**
   * Accepted triggers: who started a run (never the payload, headers or secrets).
   * Resolves once the line is stored (it never rejects: a line that cannot be stored
   * is reported, and the sender still gets its 200, since the job is stored).
   */
  logInfo?: (message: string, context: Record<string, unknown>) => Promise<void>;
  /**
   * The `webhookReceived` hook, called once the job is stored; null when nobody listens.
   * Given the event to build, so a host without listeners builds nothing per request.
   */
  received?: (event: () => WebhookEvent) => Promise<void> | null;
}

const TRIGGER_SCHEMA: RouteSchema = {
  params: { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } },
  requestHeaders: {
    'Idempotency-Key': {
      description: 'Makes a retried delivery start the flow once (see the description); e.g. a UUID.',
      schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
    },
  },
};

/**
 * POST /trigger/{flow_id}: size limit while reading → authentication (a failure is counted
 * against the client's failure budgets: 401, or 429 past one) → Idempotency-Key check
 * (400) → (dedupe: an event id, or the Idempotency-Key) → rate
 * limit → job persisted as pending in the flow's queue → 200; the run happens after the
 * response, in order, one at a time per flow.
 */
export function triggerSurface(deps: TriggerDeps): SurfaceDefinition {
  const flowId = (request: RouteRequest) => Number(request.params.flow_id);
  // The body limit and the authentication need the same flow: read it once per request
  // (never across requests, so a regenerated token or rotated secret applies at once).
  const flows = new WeakMap<RouteRequest, Promise<FlowRecord | null>>();
  const flowOf = (request: RouteRequest) => {
    let loaded = flows.get(request);
    if (!loaded) {
      const id = flowId(request);
      loaded = Number.isInteger(id) && id > 0 ? deps.webhooks.triggerFlow(id) : Promise.resolve(null);
      flows.set(request, loaded);
    }
    return loaded;
  };
  return withResponses(
    {
      id: 'webhook-trigger',
      routes: [
        {
          method: 'POST',
          path: '/trigger/{flow_id}',
          permission: 'public',
          // The flow's verifier decides; a sender's URL may carry Basic credentials meant for a proxy.
          credentials: 'ignored',
          summary: 'Start a flow from an inbound webhook (bearer token or HMAC signature per flow)',
          description:
            'Optional request header `Idempotency-Key` (1 to 255 visible ASCII characters, no spaces, commas or quotes; every mode): a repeat of an accepted key on the flow within its duplicate window (default 24 h) answers 200 with the first job and `duplicate: true`, starts nothing; another body under the same key answers 422 `idempotency_key_reused`; a bad key 400 `invalid_idempotency_key`. Read only after authentication.',
          schema: TRIGGER_SCHEMA,
          decodeBody: false,
          // Senders post at volume: skip restify's per-request setup (see fastPath).
          fastPath: true,
          bodyLimit: async (request) => deps.webhooks.bodyLimitOf(await flowOf(request)),
          async handle(request) {
            const id = flowId(request);
            const query = request.url.includes('?') ? allValues(new URL(request.url, 'http://x').searchParams) : {};
            const contentType = request.headers['content-type'];
            // Decoded once: the verifier sees the parameters (null when the body does not
            // decode), and a body that does not decode is refused only after authentication.
            let decoded: { payload: ReturnType<typeof decodePayload> } | { error: unknown };
            try {
              decoded = { payload: decodePayload(request.rawBody, contentType) };
            } catch (error) {
              decoded = { error };
            }
            const bodyParams = 'payload' in decoded ? decoded.payload : null;
            const inbound: InboundRequest = {
              rawBody: request.rawBody,
              headers: request.headers,
              query,
              bodyParams,
              url: `${deps.publicUrl()}${request.url}`,
            };
            // Verified first: earlier failures never refuse a delivery that authenticates (a
            // sender that fixed its secret is not locked out); the failure budgets decide only
            // how a failure is answered (401, or 429 past a budget).
            const outcome = await deps.webhooks.verify(await flowOf(request), inbound);
            if (!outcome.ok) {
              const refusal = await deps.limits.failed(request.ip, id);
              // Logged for the owner within the budgets only: a guesser cannot fill the log.
              if (outcome.flow && !refusal)
                await deps.logWarning(`Webhook authentication failed for flow ${id}: ${outcome.reason}`, {
                  flow_id: id,
                  remote_ip: request.ip,
                });
              throw refusal ?? unauthorized();
            }
            const flow = outcome.flow;
            // A repeat of an accepted delivery key answers the original job and starts nothing.
            const identity = deliveryIdentity(outcome.config, outcome.eventId, request.headers);
            let claim: EventClaim | null = null;
            if (identity.claimed) {
              const claimed = await claimDelivery(deps.dedupe, id, identity.claimed, request.rawBody);
              if (!claimed.claimed) return duplicateAnswer(flow, identity.claimed.key, claimed.jobId);
              claim = claimed.claim;
            }
            // What the flow may see of the request's headers (credentials left out), once.
            const flowHeaders = webhookHeaders(request.headers);
            let job;
            try {
              await deps.limits.take(id, outcome.config.rate_limit);
              if ('error' in decoded) throw decoded.error;
              const payload = decoded.payload;
              job = await deps.jobs.create({
                flow_id: flow.flow_id,
                pipeline_id: flow.pipeline_id,
                label: flow.flow_name,
                source: 'webhook',
                // Webhook jobs run one after another in the order accepted, never skipped.
                queued: true,
                engine_data: {
                  webhook_trigger: {
                    payload,
                    received_at: deps.clock.now().toISOString(),
                    remote_ip: request.ip,
                    request_id: request.requestId,
                    headers: flowHeaders,
                    auth_mode: outcome.config.mode,
                    // What a claim left without its job is matched with (see EventDedupe).
                    ...(outcome.eventId !== null ? { event_id: outcome.eventId } : {}),
                    ...(identity.idempotencyKey !== null ? { idempotency_key: identity.idempotencyKey } : {}),
                  },
                },
              });
            } catch (error) {
              // Refused (429, 400) or not stored: the sender's retry must not count as a duplicate.
              await claim?.release();
              throw error;
            }
            if (claim) await claim.settle(job.job_id);
            // Stored before the answer: a 200 means the job and its trigger line are both in
            // the store (they go out with the turn's batches of jobs and of log lines).
            await deps.logInfo?.(
              `Flow ${flow.flow_id} "${flow.flow_name}" triggered by webhook (request ${request.requestId}, ${outcome.config.mode}): job ${job.job_id} queued`,
              {
                job_id: job.job_id,
                flow_id: flow.flow_id,
                pipeline_id: flow.pipeline_id,
                trigger: 'webhook',
                request_id: request.requestId,
                auth_mode: outcome.config.mode,
                remote_ip: request.ip,
                ...(outcome.eventId !== null ? { event_id: outcome.eventId } : {}),
                ...(identity.idempotencyKey !== null ? { idempotency_key: identity.idempotencyKey } : {}),
              },
            );
            deps.startQueued(flow.flow_id);
            // Listeners learn of the accepted event; one that fails cannot fail the sender.
            const told = deps.received?.(() => ({ flowId: flow.flow_id, jobId: job.job_id, headers: { ...flowHeaders } }));
            if (told) await told.catch((error: unknown) => request.log.warn({ err: error }, 'A webhookReceived listener failed'));
            return {
              success: true,
              flow_id: flow.flow_id,
              flow_name: flow.flow_name,
              job_id: job.job_id,
              message: `Flow "${flow.flow_name}" triggered.`,
            };
          },
        },
      ],
    },
    webhookTriggerResponses,
  );
}
