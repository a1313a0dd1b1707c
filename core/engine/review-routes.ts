import { page, type RouteReply, type SurfaceDefinition } from '../kernel/routes.js';
import { withResponses } from '../kernel/response-schemas.js';
import { defineRoute } from '../../sdk/define.js';
import { isApiError } from '../errors.js';
import { apiError } from '../errors/catalogue.js';
import type { ReviewDecision } from '../kernel/contributions.js';
import type { Engine } from './engine.js';
import type { DecisionResult } from './review.js';
import { reviewResponses } from './review-responses.js';
import { escapeHtml, pendingItemsHtml } from './review-page.js';

const jobParams = { type: 'object', required: ['job_id'], properties: { job_id: { type: 'integer', minimum: 1 } } } as const;
const itemsBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    items: {
      type: 'array',
      maxItems: 500,
      items: { type: 'string', minLength: 1, maxLength: 500 },
      description: 'The item ids to decide (`review.items[].item_id`); none or empty: every pending item',
    },
  },
} as const;
const token = { type: 'string', minLength: 1, maxLength: 400 } as const;
const decisionField = { enum: ['approve', 'reject'] } as const;

/** The link's small pages: a title, a message, optionally the form that makes the decision. */
function reviewPage(status: number, title: string, message: string, form = ''): RouteReply {
  return page(
    status,
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${form}</main></body></html>`,
  );
}

const decisionOf = (word: 'approve' | 'reject'): ReviewDecision => (word === 'approve' ? 'approved' : 'rejected');

/** The answer of a decision: what it decided, what is left, whether the run goes on. */
function decisionAnswer(result: DecisionResult, decision: ReviewDecision) {
  const { job, decided, pending, resumed } = result;
  return {
    success: true,
    message: `Job ${job.job_id}: ${decided.length} item${decided.length === 1 ? '' : 's'} ${decision}${resumed ? '; the run goes on' : `; ${pending} still waiting`}.`,
    data: { job_id: job.job_id, status: job.status, decision, decided, pending, resumed },
  };
}

/**
 * POST /jobs/{id}/approve and /reject (administrators), the signed one-time link
 * (GET shows the choice, POST makes it; the token is the credential) and a webhook-mode
 * wait's delivery URL. docs/api.md, "Waiting jobs".
 */
export function reviewSurface(engine: Engine): SurfaceDefinition {
  const reviews = engine.reviews;
  const decide = (word: 'approve' | 'reject') =>
    defineRoute({
      method: 'POST',
      path: `/jobs/{job_id}/${word}`,
      permission: { capability: 'manage_options' },
      summary: `${word === 'approve' ? 'Approve' : 'Reject'} a waiting job’s items (the ids given, or every pending one); the run goes on once every item is decided`,
      schema: { params: jobParams, body: itemsBody },
      async handle(request) {
        const decision = decisionOf(word);
        const by = request.user ? request.user.login : 'an administrator';
        return decisionAnswer(await reviews.decide(request.params.job_id, decision, request.body.items ?? null, by), decision);
      },
    });
  return withResponses(
    {
      id: 'job-review',
      routes: [
        decide('approve'),
        decide('reject'),
        defineRoute({
          method: 'GET',
          path: '/jobs/{job_id}/review-links',
          permission: { capability: 'manage_options' },
          summary:
            'A waiting job’s signed one-time links: the review page, and a webhook-mode wait’s delivery URL (fresh ones when they had expired)',
          schema: { params: jobParams },
          async handle(request) {
            const job = await reviews.withLiveLinks(request.params.job_id);
            const links = engine.reviewLinks(job.job_id, job.review!);
            return { success: true, data: { job_id: job.job_id, ...links, expires_at: job.review!.link_expires_at.toISOString() } };
          },
        }),
        defineRoute({
          method: 'GET',
          path: '/jobs/{job_id}/review',
          permission: 'public',
          credentials: 'ignored',
          summary: 'The signed review link: a page offering the decision (nothing changes until its form is sent)',
          schema: { params: jobParams, query: { type: 'object', required: ['token'], properties: { token, decision: decisionField } } },
          async handle(request) {
            const { job_id } = request.params;
            try {
              const job = await reviews.peek(job_id, request.query.token);
              const pending = job.review!.items.filter((i) => i.decision === null).length;
              const choices = (request.query.decision ? [request.query.decision] : ['approve', 'reject']) as Array<'approve' | 'reject'>;
              const buttons = choices
                .map((c) => `<button type="submit" name="decision" value="${c}">${c === 'approve' ? 'Approve' : 'Reject'} all</button>`)
                .join(' ');
              const form = `${pendingItemsHtml(job.review!)}<form method="post"><input type="hidden" name="token" value="${escapeHtml(request.query.token)}">${buttons}</form>`;
              return reviewPage(
                200,
                `Review job ${job_id}`,
                `${pending} item${pending === 1 ? '' : 's'} of "${job.label}" wait for a decision. This link works once.`,
                form,
              );
            } catch (error) {
              if (!isApiError(error)) throw error;
              return reviewPage(error.status, `Review job ${job_id}`, error.message);
            }
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/jobs/{job_id}/review',
          permission: 'public',
          credentials: 'ignored',
          summary: 'Use the signed review link once: approve or reject every pending item (JSON, or the link page’s form)',
          schema: {
            params: jobParams,
            body: { type: 'object', required: ['token', 'decision'], properties: { token, decision: decisionField } },
          },
          async handle(request) {
            const form = (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded');
            // The page's own form in a browser gets pages, refusals too; any other caller JSON (errors included).
            const browser = form && String(request.headers.accept ?? '').includes('text/html');
            const decision = decisionOf(request.body.decision);
            try {
              const answer = decisionAnswer(await reviews.useLink(request.params.job_id, request.body.token, decision), decision);
              return form ? reviewPage(200, `Job ${request.params.job_id}`, answer.message) : answer;
            } catch (error) {
              if (!browser || !isApiError(error)) throw error;
              return reviewPage(error.status, `Review job ${request.params.job_id}`, error.message);
            }
          },
        }),
        defineRoute({
          method: 'POST',
          path: '/jobs/{job_id}/webhook',
          permission: 'public',
          credentials: 'ignored',
          summary:
            'A webhook-mode wait’s delivery (signed URL, once): its JSON object is merged into the run’s engine_data and the run goes on',
          schema: { params: jobParams, query: { type: 'object', required: ['token'], properties: { token } }, body: { type: 'object' } },
          async handle(request) {
            // The body must be a JSON object (docs/api.md): none at all is refused, not taken as {}.
            // (The decoder hands an empty body on as {}, so its bytes tell.)
            const payload = request.body as Record<string, unknown> | null | undefined;
            const empty = request.rawBody.toString('utf8').trim() === '';
            if (empty || payload === null || payload === undefined || typeof payload !== 'object' || Array.isArray(payload))
              throw apiError('rest_invalid_param', {
                message: 'The webhook delivery’s body must be a JSON object (send {} to carry nothing)',
                data: { params: { body: 'a JSON object' } },
              });
            return decisionAnswer(await reviews.deliver(request.params.job_id, request.query.token, payload), 'approved');
          },
        }),
      ],
    },
    reviewResponses,
  );
}
