/**
 * The provisioner/v1 surface: the two webhooks (public, each authenticated by its own
 * secret before anything else) and the admin routes (manage_options).
 */
import { Type } from '../../sdk/index.js';
import {
  defineRoute,
  defineSurface,
  errorBody,
  reply,
  successBody,
  type Collection,
  type JsonSchema,
  type RouteDefinition,
  type StoredDocument,
  type SurfaceDefinition,
} from '../../sdk/index.js';
import { SUBSCRIPTION_STATUSES } from './model.js';
import { creditTotal, type BillingCollections } from './repository.js';
import { SECRET_NAMES, type Secrets, type SecretName } from './secrets.js';
import type { BillingService, WebhookOutcome } from './service.js';
import {
  creditsSchema,
  creditsView,
  domainSchema,
  domainView,
  eventDetailSchema,
  eventSchema,
  eventView,
  mailSchema,
  mailView,
  replaySchema,
  replayView,
  subscriptionSchema,
  subscriptionView,
  webhookResultSchema,
} from './views.js';
import { billingError } from './errors.js';

export const NAMESPACE = 'provisioner/v1';
const WEBHOOK_BODY_LIMIT = 256 * 1024;
const MANAGE = { capability: 'manage_options' } as const;

// One string path parameter; each route names its own in a TypeBox object so the handler
// reads it typed (a computed key would lose the name).
const idString = (pattern: string, maxLength: number) => Type.String({ minLength: 1, maxLength, pattern });
const SUB_ID = '^[A-Za-z0-9][A-Za-z0-9._:-]*$';
const eventIdParams = Type.Object({ event_id: idString(SUB_ID, 220) });

// The host applies these defaults before a handler runs; the fields stay optional in the
// schema (a client may leave them out), so handlers fall back to the same constants.
const FIRST_PAGE = 1;
// Every secret optional; `satisfies` below keeps the list in step with SECRET_NAMES.
const secretValue = Type.Optional(Type.String({ maxLength: 4096 }));
const PAGE_SIZE = 20;
const CREDITS_PAGE_SIZE = 100;
const page = Type.Optional(Type.Integer({ minimum: 1, maximum: 100_000, default: FIRST_PAGE }));

/** The query of a newest-first list filtered by status (subscriptions, the outbox). */
const statusListQuery = (statuses: readonly string[]) =>
  Type.Object({
    status: Type.Optional(Type.Enum([...statuses])),
    page,
    per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGE_SIZE })),
  });

type ListQuery = { status?: string; page?: number; per_page?: number };
type Listed<T> = { total: number; docs: T[]; page: number; per_page: number };

/** One page of a collection, newest first, filtered by status when asked. */
async function newestFirst<T extends StoredDocument>(collection: Collection<T>, query: ListQuery): Promise<Listed<T>> {
  const q = { page: query.page ?? FIRST_PAGE, per_page: query.per_page ?? PAGE_SIZE };
  const filter = query.status ? { status: query.status } : {};
  const [total, docs] = await Promise.all([
    collection.count(filter),
    collection.find(filter, { sort: { created_at: -1, _id: 1 }, skip: (q.page - 1) * q.per_page, limit: q.per_page }),
  ]);
  return { total, docs, ...q };
}

const outcomeBody = (o: WebhookOutcome) => ({
  success: true,
  data: {
    event_id: o.event_id,
    type: o.type,
    duplicate: o.duplicate,
    outcome: o.outcome,
    subscription: o.subscription ? subscriptionView(o.subscription) : null,
  },
});

const secretView: JsonSchema = {
  type: 'object',
  required: ['configured', 'source', 'value'],
  properties: { configured: { type: 'boolean' }, source: { enum: ['saved', 'env', 'config', 'none'] }, value: { type: 'string' } },
};
const settingsData: JsonSchema = {
  type: 'object',
  required: [...SECRET_NAMES],
  properties: Object.fromEntries(SECRET_NAMES.map((n) => [n, secretView])),
};

export function billingSurface(service: BillingService, c: BillingCollections, secrets: Secrets): SurfaceDefinition {
  const webhooks: RouteDefinition[] = [...webhookRoutes(service)];

  const admin: RouteDefinition[] = [
    ...subscriptionRoutes(service, c),
    ...eventRoutes(service),
    ...accountRoutes(c),
    ...mailRoutes(c),
    ...settingsRoutes(secrets),
  ];

  return defineSurface({ id: 'billing', namespace: NAMESPACE, routes: [...webhooks, ...admin] });
}

/** Subscriptions: the list and one with its events. */
function subscriptionRoutes(service: BillingService, c: BillingCollections): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/subscriptions',
      permission: MANAGE,
      summary: 'Subscriptions, newest first; filter by status',
      schema: {
        query: statusListQuery(SUBSCRIPTION_STATUSES),
        responses: {
          200: successBody({
            data: { type: 'array', items: subscriptionSchema },
            total: { type: 'integer' },
            total_pages: { type: 'integer' },
            page: { type: 'integer' },
            per_page: { type: 'integer' },
          }),
        },
      },
      async handle(request) {
        const { total, docs, ...q } = await newestFirst(c.subscriptions, request.query);
        return { success: true, data: docs.map(subscriptionView), total, total_pages: Math.ceil(total / q.per_page), ...q };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/subscriptions/{id}',
      permission: MANAGE,
      summary: 'One subscription with its event history (oldest first)',
      schema: {
        params: Type.Object({ id: idString(SUB_ID, 200) }),
        responses: {
          200: successBody({
            data: {
              allOf: [
                subscriptionSchema,
                { type: 'object', required: ['events'], properties: { events: { type: 'array', items: eventSchema } } },
              ],
            },
          }),
          404: errorBody('subscription_not_found'),
        },
      },
      async handle(request) {
        const id = request.params.id;
        const sub = await c.subscriptions.findOne({ _id: id });
        if (!sub) throw billingError('subscription_not_found', { message: `No subscription ${id}.`, data: { subscription_id: id } });
        const events = await service.events.history(id);
        return { success: true, data: { ...subscriptionView(sub), events: events.map(eventView) } };
      },
    }),
  ];
}

/** Stored webhook events, and replaying one. */
function eventRoutes(service: BillingService): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/events/{event_id}',
      permission: MANAGE,
      summary: 'One stored event, with its replays',
      schema: {
        params: eventIdParams,
        responses: { 200: successBody({ data: eventDetailSchema }), 404: errorBody('event_not_found') },
      },
      async handle(request) {
        const id = request.params.event_id;
        const event = await service.events.get(id);
        if (!event) throw billingError('event_not_found', { message: `No stored event ${id}.`, data: { event_id: id } });
        const replays = await service.replays.of(id);
        return { success: true, data: { ...eventView(event), replay_attempts: replays.map(replayView) } };
      },
    }),
    defineRoute({
      method: 'POST',
      path: '/events/{event_id}/replay',
      permission: MANAGE,
      summary:
        "Re-processes a stored event as a new attempt (idempotent: only what is missing is done); answers the attempt's record, the original's outcome is kept",
      schema: {
        params: eventIdParams,
        responses: {
          200: successBody({ data: replaySchema }),
          400: errorBody('invalid_payload', 'subscription_deleted'),
          404: errorBody('event_not_found'),
        },
      },
      async handle(request) {
        return { success: true, data: replayView(await service.replay(request.params.event_id)) };
      },
    }),
  ];
}

/** What a customer and a domain hold. */
function accountRoutes(c: BillingCollections): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/customers/{customer_id}/credits',
      permission: MANAGE,
      summary: "A customer's credit balance and purchase count (over every purchase), and one page of the purchases, oldest first",
      schema: {
        params: Type.Object({ customer_id: idString(SUB_ID, 200) }),
        query: Type.Object({
          page,
          per_page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: CREDITS_PAGE_SIZE })),
        }),
        responses: {
          200: successBody({
            data: creditsSchema,
            page: { type: 'integer' },
            per_page: { type: 'integer' },
            total_pages: { type: 'integer' },
          }),
        },
      },
      async handle(request) {
        const id = request.params.customer_id;
        const q = { page: request.query.page ?? FIRST_PAGE, per_page: request.query.per_page ?? CREDITS_PAGE_SIZE };
        const [total, entries] = await Promise.all([
          creditTotal(c, id),
          c.credits.find({ customer_id: id }, { sort: { created_at: 1, _id: 1 }, skip: (q.page - 1) * q.per_page, limit: q.per_page }),
        ]);
        return {
          success: true,
          data: creditsView(id, total, entries),
          page: q.page,
          per_page: q.per_page,
          total_pages: Math.ceil(total.purchases / q.per_page),
        };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/domains/{domain}',
      permission: MANAGE,
      summary: "A domain's renewal date",
      schema: {
        params: Type.Object({ domain: idString('^[A-Za-z0-9][A-Za-z0-9.-]*$', 253) }),
        responses: { 200: successBody({ data: domainSchema }), 404: errorBody('domain_not_found') },
      },
      async handle(request) {
        const name = request.params.domain.toLowerCase();
        const domain = await c.domains.findOne({ _id: name });
        if (!domain) throw billingError('domain_not_found', { message: `No renewal recorded for ${name}.`, data: { domain: name } });
        return { success: true, data: domainView(domain) };
      },
    }),
  ];
}

/** The e-mail outbox: what was sent, and what is still pending with its last error. */
function mailRoutes(c: BillingCollections): RouteDefinition[] {
  return [
    defineRoute({
      method: 'GET',
      path: '/mail',
      permission: MANAGE,
      summary: 'The e-mail outbox, newest first: pending mail shows its attempts and last SMTP error',
      schema: {
        query: statusListQuery(['pending', 'sent']),
        responses: {
          200: successBody({
            data: { type: 'array', items: mailSchema },
            total: { type: 'integer' },
            page: { type: 'integer' },
            per_page: { type: 'integer' },
          }),
        },
      },
      async handle(request) {
        const { total, docs, ...q } = await newestFirst(c.mail, request.query);
        return { success: true, data: docs.map(mailView), total, ...q };
      },
    }),
  ];
}

/** The webhook, Stripe and SMTP secrets (values masked). */
function settingsRoutes(secrets: Secrets): RouteDefinition[] {
  return [
    {
      method: 'GET',
      path: '/settings',
      permission: MANAGE,
      summary: 'Which webhook, Stripe and SMTP secrets are configured, and where from (values masked)',
      schema: { responses: { 200: successBody({ data: settingsData }) } },
      async handle() {
        return { success: true, data: await secrets.view() };
      },
    },
    defineRoute({
      method: 'PUT',
      path: '/settings',
      permission: MANAGE,
      summary: "Saves secrets sealed in the store ('' removes one, the masked value keeps it)",
      schema: {
        body: Type.Object(
          {
            internal_key: secretValue,
            provisioner_token: secretValue,
            stripe_webhook_secret: secretValue,
            stripe_api_key: secretValue,
            smtp_password: secretValue,
          } satisfies Record<SecretName, typeof secretValue>,
          { additionalProperties: false },
        ),
        responses: { 200: successBody({ data: settingsData }) },
      },
      async handle(request) {
        await secrets.save(request.body);
        return reply(200, { success: true, data: await secrets.view() });
      },
    }),
  ];
}

/** The two webhooks: public, each authenticated by its own secret before its body is read. */
function webhookRoutes(service: BillingService): RouteDefinition[] {
  return [
    {
      method: 'POST',
      path: '/webhook/provisioner',
      permission: 'public',
      // Its own credentials only: a Bearer token here is the provisioner's, not a user's.
      credentials: 'ignored',
      decodeBody: false,
      bodyLimit: WEBHOOK_BODY_LIMIT,
      summary: 'Provisioning callback (provisioning_complete); X-Provisioner-Internal-Key and Authorization: Bearer required',
      schema: {
        responses: {
          200: successBody({ data: webhookResultSchema }),
          400: errorBody('invalid_payload', 'unsupported_event', 'subscription_deleted'),
          401: errorBody('provisioner_unauthorized'),
          404: errorBody('subscription_not_found'),
        },
      },
      async handle(request) {
        // The verification step: before the body is even parsed.
        await service.authenticateProvisioner(request.headers, request.ip);
        return outcomeBody(await service.provisioningCallback(request.rawBody));
      },
    },
    {
      method: 'POST',
      path: '/webhook/payments',
      permission: 'public',
      credentials: 'ignored',
      // The signature covers the exact bytes: decoding first could change them.
      decodeBody: false,
      bodyLimit: WEBHOOK_BODY_LIMIT,
      summary: 'Payment provider (Stripe) events, verified with the Stripe-Signature header',
      schema: {
        responses: {
          200: successBody({ data: webhookResultSchema }),
          400: errorBody('invalid_payload'),
          401: errorBody('payment_signature_invalid'),
        },
      },
      async handle(request) {
        return outcomeBody(await service.paymentWebhook(request.rawBody, request.headers['stripe-signature'], request.ip));
      },
    },
  ];
}
