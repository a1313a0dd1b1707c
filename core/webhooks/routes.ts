import { allValues, mediaType, parseJsonInput } from '../kernel/request-input.js';
import { reply, type RouteRequest, type SurfaceDefinition } from '../kernel/routes.js';
import type { Clock } from '../kernel/clock.js';
import type { Registries } from '../kernel/registries.js';
import type { JobsService } from '../jobs/service.js';
import { webhookHeaders } from './header-redaction.js';
import type { InboundRequest } from './hmac-verify.js';
import type { WebhooksService } from './service.js';
import type { FlowRecord } from '../flows/model.js';
import type { TriggerLimits } from './trigger-limits.js';
import type { EventClaim, EventDedupe } from './event-dedupe.js';
import type { WebhookEvent } from '../kernel/hooks.js';
import { withResponses } from '../kernel/response-schemas.js';
import { webhookTriggerResponses } from './responses.js';
import { webhookAdminResponses } from './responses.js';
import { apiError } from '../errors/catalogue.js';

/**
 * A secret the sender chose (GitHub, Stripe... pick their own): any non-empty one up to
 * 1,024 bytes is accepted, since refusing it would only stop the user from connecting the
 * service; a short one is accepted with a warning.
 */
const senderSecret = { type: 'string', minLength: 1, maxLength: 1024 } as const;
const MAX_SECRET_BYTES = 1024;
const ADVISED_SECRET_LENGTH = 16;

function secretWarnings(secret: string | undefined): string[] {
  if (secret === undefined) return [];
  if (Buffer.byteLength(secret, 'utf8') > MAX_SECRET_BYTES) {
    throw apiError('rest_invalid_param', {
      message: `Invalid parameter(s): secret must be at most ${MAX_SECRET_BYTES} bytes`,
      data: { params: { secret: `must be at most ${MAX_SECRET_BYTES} bytes` } },
    });
  }
  return secret.length < ADVISED_SECRET_LENGTH
    ? [
        `The secret is shorter than ${ADVISED_SECRET_LENGTH} characters: anyone who guesses it can start this flow. Use a longer one where the sender allows it.`,
      ]
    : [];
}

const withWarnings = (warnings: string[]) => (warnings.length ? { warnings } : {});

/** One answer for every authentication failure: nothing tells a stranger why. */
const unauthorized = () => apiError('rest_unauthorized');

/** A form as an object: a name sent once is a string, a repeated name an array of its values. */
function formObject(text: string): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = Object.create(null);
  for (const [name, values] of Object.entries(allValues(new URLSearchParams(text)))) out[name] = values.length === 1 ? values[0]! : values;
  return out;
}

/** The payload a flow receives: a form, or JSON within the input limits (any other type is read as JSON). */
function decodePayload(raw: Buffer, contentType: string | undefined): Record<string, unknown> {
  if (raw.length === 0) return {};
  if (mediaType(contentType) === 'application/x-www-form-urlencoded') return formObject(raw.toString('utf8'));
  const parsed = parseJsonInput(raw.toString('utf8'));
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return { items: parsed };
  return parsed as Record<string, unknown>;
}

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
  /** Accepted triggers: who started a run (never the payload, headers or secrets). */
  logInfo?: (message: string, context: Record<string, unknown>) => Promise<void>;
  /** The `webhookReceived` hook, called once the job is stored. */
  received?: (event: WebhookEvent) => Promise<void>;
}

/**
 * POST /trigger/{flow_id}: size limit while reading → authentication → (dedupe) → rate
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
          schema: { params: { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } },
          decodeBody: false,
          // Senders post at volume: skip restify's per-request setup (see fastPath).
          fastPath: true,
          bodyLimit: async (request) => deps.webhooks.bodyLimitOf(await flowOf(request)),
          async handle(request) {
            const id = flowId(request);
            await deps.limits.checkAddress(request.ip, id);
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
            const outcome = await deps.webhooks.verify(await flowOf(request), inbound);
            if (!outcome.ok) {
              await deps.limits.failed(request.ip, id);
              if (outcome.flow)
                await deps.logWarning(`Webhook authentication failed for flow ${id}: ${outcome.reason}`, {
                  flow_id: id,
                  remote_ip: request.ip,
                });
              throw unauthorized();
            }
            const flow = outcome.flow;
            // Opt-in: a repeat of an accepted event id answers the original job, starts nothing.
            let claim: EventClaim | null = null;
            const window = outcome.config.dedupe_window_seconds ?? 0;
            if (window > 0 && outcome.eventId !== null) {
              const claimed = await deps.dedupe.claim(id, outcome.eventId, window);
              if (!claimed.claimed) {
                return {
                  success: true,
                  flow_id: flow.flow_id,
                  flow_name: flow.flow_name,
                  job_id: claimed.jobId,
                  message: `Event ${outcome.eventId} was already accepted; flow "${flow.flow_name}" not triggered again.`,
                  duplicate: true,
                };
              }
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
                  },
                },
              });
            } catch (error) {
              // Refused (429, 400) or not stored: the sender's retry must not count as a duplicate.
              await claim?.release();
              throw error;
            }
            await claim?.settle(job.job_id);
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
              },
            );
            deps.startQueued(flow.flow_id);
            // Listeners learn of the accepted event; one that fails cannot fail the sender.
            if (deps.received) {
              await deps
                .received({ flowId: flow.flow_id, jobId: job.job_id, headers: { ...flowHeaders } })
                .catch((error: unknown) => request.log.warn({ err: error }, 'A webhookReceived listener failed'));
            }
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

const admin = { capability: 'manage_options' } as const;
const dedupeWindow = { type: 'integer', minimum: 0, maximum: 2592000 } as const;
const idParams = { type: 'object', required: ['flow_id'], properties: { flow_id: { type: 'integer', minimum: 1 } } } as const;

/** Webhook administration over REST (the CLI's operations), manage_options. */
export function webhookAdminSurface(webhooks: WebhooksService, registries: Registries): SurfaceDefinition {
  const id = (request: RouteRequest) => Number(request.params.flow_id);
  return withResponses(
    {
      id: 'webhook-admin',
      routes: [
        {
          method: 'GET',
          path: '/flows/{flow_id}/webhook',
          permission: admin,
          summary: 'Webhook status (secrets masked)',
          schema: { params: idParams },
          handle: async (r) => ({ success: true, data: await webhooks.status(id(r)) }),
        },
        {
          method: 'PUT',
          path: '/flows/{flow_id}/webhook',
          permission: admin,
          summary:
            'Enable the trigger: bearer, or hmac with a preset or template (+ overrides); the token or secret is in this answer only',
          schema: {
            params: idParams,
            body: {
              type: 'object',
              required: ['mode'],
              additionalProperties: false,
              properties: {
                mode: { type: 'string', minLength: 1 },
                preset: { type: 'string' },
                template: { type: 'object' },
                overrides: { type: 'object' },
                secret: senderSecret,
                dedupe_window_seconds: dedupeWindow,
              },
            },
          },
          async handle(r) {
            const warnings = secretWarnings((r.body as { secret?: string }).secret);
            const result = await webhooks.enable(id(r), r.body as { mode: string }, r.user);
            return {
              success: true,
              message: 'Webhook trigger enabled.',
              data: {
                ...result.status,
                ...(result.token ? { token: result.token } : {}),
                ...(result.secret ? { secret: result.secret } : {}),
              },
              ...withWarnings(warnings),
            };
          },
        },
        {
          method: 'DELETE',
          path: '/flows/{flow_id}/webhook',
          permission: admin,
          summary: 'Disable the trigger (token and secrets are forgotten)',
          schema: { params: idParams },
          async handle(r) {
            await webhooks.disable(id(r), r.user);
            return { success: true, message: 'Webhook trigger disabled.' };
          },
        },
        {
          method: 'POST',
          path: '/flows/{flow_id}/webhook/regenerate',
          permission: admin,
          summary: 'A new bearer token; the old one stops working at once',
          schema: { params: idParams },
          async handle(r) {
            return { success: true, message: 'Token regenerated.', data: { token: await webhooks.regenerate(id(r), r.user) } };
          },
        },
        {
          method: 'POST',
          path: '/flows/{flow_id}/webhook/secrets',
          permission: admin,
          summary: 'Rotate: a new secret; current ones stay valid for ttl_seconds (default 7 days)',
          schema: {
            params: idParams,
            body: {
              type: 'object',
              additionalProperties: false,
              properties: { ttl_seconds: { type: 'integer', minimum: 0, maximum: 31536000 }, secret: senderSecret },
            },
          },
          async handle(r) {
            const body = r.body as { ttl_seconds?: number; secret?: string };
            const warnings = secretWarnings(body.secret);
            const secret = await webhooks.rotate(id(r), { ttlSeconds: body.ttl_seconds, value: body.secret }, r.user);
            return reply(201, { success: true, message: 'Secret rotated.', data: { secret }, ...withWarnings(warnings) });
          },
        },
        {
          method: 'PUT',
          path: '/flows/{flow_id}/webhook/secrets',
          permission: admin,
          summary: 'Replace every secret with one (given or generated); no grace period',
          schema: { params: idParams, body: { type: 'object', additionalProperties: false, properties: { secret: senderSecret } } },
          async handle(r) {
            const warnings = secretWarnings((r.body as { secret?: string }).secret);
            const secret = await webhooks.setSecret(id(r), (r.body as { secret?: string }).secret, r.user);
            return { success: true, message: 'Secret set.', data: { secret }, ...withWarnings(warnings) };
          },
        },
        {
          method: 'DELETE',
          path: '/flows/{flow_id}/webhook/secrets/{secret_id}',
          permission: admin,
          summary: 'Forget a secret',
          schema: {
            params: {
              type: 'object',
              required: ['flow_id', 'secret_id'],
              properties: { flow_id: { type: 'integer', minimum: 1 }, secret_id: { type: 'string', minLength: 1 } },
            },
          },
          async handle(r) {
            await webhooks.forget(id(r), String(r.params.secret_id), r.user);
            return { success: true, message: 'Secret forgotten.' };
          },
        },
        {
          method: 'PUT',
          path: '/flows/{flow_id}/webhook/rate-limit',
          permission: admin,
          summary: "The flow's trigger rate limit",
          schema: {
            params: idParams,
            body: {
              type: 'object',
              required: ['max', 'window_seconds'],
              additionalProperties: false,
              properties: {
                max: { type: 'integer', minimum: 1, maximum: 100000 },
                window_seconds: { type: 'integer', minimum: 1, maximum: 86400 },
              },
            },
          },
          async handle(r) {
            const body = r.body as { max: number; window_seconds: number };
            await webhooks.setRateLimit(id(r), body.max, body.window_seconds, r.user);
            return { success: true, message: 'Rate limit saved.', data: { rate_limit: body } };
          },
        },
        {
          method: 'PUT',
          path: '/flows/{flow_id}/webhook/dedupe',
          permission: admin,
          summary: 'Duplicate event-id protection: repeats within window_seconds answer the original job (0 turns it off)',
          schema: {
            params: idParams,
            body: {
              type: 'object',
              required: ['window_seconds'],
              additionalProperties: false,
              properties: { window_seconds: dedupeWindow },
            },
          },
          async handle(r) {
            const windowSeconds = (r.body as { window_seconds: number }).window_seconds;
            await webhooks.setDedupe(id(r), windowSeconds, r.user);
            return {
              success: true,
              message: windowSeconds > 0 ? 'Duplicate protection on.' : 'Duplicate protection off.',
              data: { dedupe_window_seconds: windowSeconds },
            };
          },
        },
        {
          method: 'GET',
          path: '/webhook-presets',
          permission: admin,
          summary: 'Loaded webhook presets',
          handle: () => ({
            success: true,
            data: registries.presets().map((p) => ({ slug: p.slug, label: p.label, template: p.template })),
          }),
        },
      ],
    },
    webhookAdminResponses,
  );
}
