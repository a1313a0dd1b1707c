/** The chat surface: POST /chat, POST /chat/continue and the caller's sessions. */
import { Type } from '../../sdk/index.js';
import {
  actingUserOf,
  defineRoute,
  defineSurface,
  reply,
  successBody,
  type CallContext,
  type Clock,
  type GuardedFetch,
  type RouteRequest,
  type SurfaceDefinition,
} from '../../sdk/index.js';
import type { RequestIds } from './idempotency.js';
import type { SessionsRepository } from './repository.js';
import {
  chatBody,
  chatResponses,
  continueBody,
  continueResponses,
  sessionDetail,
  sessionErrors,
  sessionIdParams,
  sessionSummary,
} from './schemas.js';
import type { chatService } from './service.js';
import type { SessionRecord } from './types.js';

const manage = { capability: 'manage_options' } as const;
// The host applies the query's default before the handler runs; the field stays optional
// in the schema (a client may leave it out), so the handler falls back to the same value.
const PAGE_SIZE = 20;

const summaryOf = (s: SessionRecord) => ({
  session_id: s.session_id,
  title: s.title,
  first_message: s.first_message,
  created_at: new Date(s.created_at).toISOString(),
  updated_at: new Date(s.updated_at).toISOString(),
  message_count: s.message_count,
  agent_type: s.agent_type,
});

interface RouteDeps {
  repository: SessionsRepository;
  requestIds: RequestIds;
  service: ReturnType<typeof chatService>;
  clock: Clock;
  fetch: GuardedFetch;
}

export function chatSurface({ repository, requestIds, service, clock, fetch }: RouteDeps): SurfaceDefinition {
  const contextOf = (request: RouteRequest): CallContext => ({ user: actingUserOf(request.user), log: request.log, clock, fetch });

  /**
   * Runs once per X-Request-ID: a retry gets the stored answer (marked by the
   * X-Request-Replayed header) and nothing runs again; a failure frees the id.
   */
  const once = async (request: RouteRequest, route: string, run: () => Promise<Record<string, unknown>>) => {
    const claim = await requestIds.claim(request.headers['x-request-id'], request.user!.userId, route, request.body);
    if (claim && 'replay' in claim) return reply(200, claim.replay, { 'X-Request-Replayed': 'true' });
    try {
      const answer = await run();
      await claim?.finish(answer);
      return answer;
    } catch (error) {
      await claim?.abandon();
      throw error;
    }
  };

  return defineSurface({
    id: 'chat',
    routes: [
      defineRoute({
        method: 'GET',
        path: '/chat/sessions',
        permission: manage,
        summary: "The caller's chat sessions, most recently active first",
        schema: {
          query: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: PAGE_SIZE })),
            page: Type.Optional(Type.Integer({ minimum: 1, maximum: 100000, default: 1 })),
          }),
          responses: {
            200: successBody({
              data: {
                type: 'object',
                required: ['sessions', 'total'],
                properties: { sessions: { type: 'array', items: sessionSummary }, total: { type: 'integer' } },
                additionalProperties: false,
              },
            }),
          },
        },
        async handle(request) {
          const { limit = PAGE_SIZE, page = 1 } = request.query;
          const filter = { user_id: request.user!.userId };
          const [items, total] = await Promise.all([
            repository.sessions.find(filter, { sort: { updated_at: -1, _id: 1 }, skip: (page - 1) * limit, limit }),
            repository.sessions.count(filter),
          ]);
          return { success: true, data: { sessions: items.map(summaryOf), total } };
        },
      }),
      defineRoute({
        method: 'POST',
        path: '/chat',
        permission: manage,
        summary: 'One user message through the assistant and its tool calls',
        schema: { body: chatBody, responses: chatResponses },
        handle: (request) => once(request, 'chat', () => service.chat(request.body, request.user!.userId, contextOf(request))),
      }),
      defineRoute({
        method: 'POST',
        path: '/chat/continue',
        permission: manage,
        summary: 'One more model call (and its tool calls) for a session that stopped before a final answer',
        schema: { body: continueBody, responses: continueResponses },
        handle: (request) => once(request, 'continue', () => service.continueChat(request.body, request.user!.userId, contextOf(request))),
      }),
      defineRoute({
        method: 'GET',
        path: '/chat/{session_id}',
        permission: manage,
        summary: "One of the caller's chat sessions with its conversation",
        schema: {
          params: sessionIdParams,
          responses: {
            200: successBody({ session_id: { type: 'string' }, conversation: { type: 'array' }, data: sessionDetail }),
            ...sessionErrors,
          },
        },
        async handle(request) {
          const session = await repository.own(request.params.session_id, request.user!.userId);
          return {
            success: true,
            session_id: session.session_id,
            conversation: session.conversation,
            data: { ...summaryOf(session), provider: session.provider, model: session.model, conversation: session.conversation },
          };
        },
      }),
      defineRoute({
        method: 'DELETE',
        path: '/chat/{session_id}',
        permission: manage,
        summary: "Deletes one of the caller's chat sessions",
        schema: {
          params: sessionIdParams,
          responses: {
            200: successBody({
              data: {
                type: 'object',
                required: ['deleted', 'session_id'],
                properties: { deleted: { const: true }, session_id: { type: 'string' } },
                additionalProperties: false,
              },
            }),
            ...sessionErrors,
          },
        },
        async handle(request) {
          const session = await repository.own(request.params.session_id, request.user!.userId);
          await repository.sessions.deleteOne({ _id: session._id });
          return { success: true, data: { deleted: true, session_id: session.session_id } };
        },
      }),
    ],
  });
}
