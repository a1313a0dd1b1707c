/**
 * Chat: an assistant that builds and runs workflows through tool calls. POST /chat runs
 * one user message through the tool loop (loop.ts) with the caller's rights; sessions are
 * kept per user in this plugin's `sessions` collection. Tools: tools.ts.
 */
import { randomUUID } from 'node:crypto';
import { actingUserOf, ApiError, badRequest, definePlugin, defineSurface, errorBody, services, successBody, type CallContext, type Collection, type JsonSchema, type ProviderMessage } from '../../sdk/index.js';
import { LoopProviderError, runChatLoop } from './loop.js';
import { chatTools } from './tools/index.js';
import { enabledTools } from './tools/enabled.js';
import { chatToolDeps, type DisplayMessage, type SessionRecord } from './types.js';

export interface ChatSettings {
  /** Model calls one POST /chat may make (default 8). */
  max_turns: number;
}

const manage = { capability: 'manage_options' } as const;
const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const free: JsonSchema = { type: 'object', additionalProperties: true };
const message: JsonSchema = {
  type: 'object',
  required: ['role', 'content'],
  properties: { role: str, content: str, tool_calls: { type: 'array', items: free }, metadata: free },
  additionalProperties: false,
};
const conversation: JsonSchema = { type: 'array', items: message };
const toolCall: JsonSchema = {
  type: 'object',
  required: ['id', 'tool', 'args', 'turn'],
  properties: { id: str, tool: str, args: free, turn: int, result: {}, error: str, skipped: { type: 'boolean' } },
  additionalProperties: false,
};
const metadata: JsonSchema = { type: 'object', required: ['last_activity', 'message_count'], properties: { last_activity: str, message_count: int }, additionalProperties: false };
const sessionSummaryFields: Record<string, JsonSchema> = {
  session_id: str,
  title: str,
  first_message: str,
  created_at: str,
  updated_at: str,
  message_count: int,
  agent_type: { enum: ['chat', 'cli'] },
};
const sessionSummary: JsonSchema = { type: 'object', required: Object.keys(sessionSummaryFields), properties: sessionSummaryFields, additionalProperties: false };
const sessionDetail: JsonSchema = {
  type: 'object',
  required: [...Object.keys(sessionSummaryFields), 'provider', 'model', 'conversation'],
  properties: { ...sessionSummaryFields, provider: str, model: str, conversation },
  additionalProperties: false,
};
const sessionIdParams = { type: 'object', required: ['session_id'], properties: { session_id: { type: 'string', pattern: '^[a-f0-9-]{1,64}$' } } } as const;
const sessionErrors = { 403: errorBody('session_access_denied'), 404: errorBody('session_not_found') };

const summaryOf = (s: SessionRecord) => ({
  session_id: s.session_id,
  title: s.title,
  first_message: s.first_message,
  created_at: new Date(s.created_at).toISOString(),
  updated_at: new Date(s.updated_at).toISOString(),
  message_count: s.message_count,
  agent_type: s.agent_type,
});

export default definePlugin({
  id: 'chat',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Chat: an AI assistant that builds and runs workflows with tool calls (POST /chat), with per-user sessions.',
  settingsSchema: { type: 'object', properties: { max_turns: { type: 'integer', minimum: 1, maximum: 50, default: 8 } } },
  deps: {
    routes: services.routes,
    tools: services.chatTools,
    store: services.store,
    config: services.configOf<ChatSettings>(),
    settings: services.settings,
    registries: services.registries,
    clock: services.clock,
    fetch: services.fetch,
    ...chatToolDeps,
  },
  async setup({ routes, tools, store, config, settings, registries, clock, fetch, pipelines, flows, execute, credentials }) {
    for (const tool of chatTools({ pipelines, flows, execute, settings, credentials }, registries)) tools.add(tool);
    const sessions = store.collection<SessionRecord>('sessions') as Collection<SessionRecord>;
    await sessions.createIndex({ fields: { user_id: 1, updated_at: -1 }, name: 'chat_sessions_user' });

    /** The caller's session, or 404 / 403. */
    const ownSession = async (sessionId: string, userId: number): Promise<SessionRecord> => {
      const session = (await sessions.findOne({ _id: sessionId })) as SessionRecord | null;
      if (!session) throw new ApiError('session_not_found', `No chat session ${sessionId}`, 404);
      if (session.user_id !== userId) throw new ApiError('session_access_denied', `Chat session ${sessionId} belongs to another user`, 403);
      return session;
    };

    /** Provider and model: the request's, else the defaults GET /providers shows. */
    const chooseProvider = async (ctx: CallContext, slug: string | undefined, model: string | undefined) => {
      const providers = registries.providers();
      if (slug) {
        const provider = providers.find((p) => p.slug === slug);
        if (!provider) throw badRequest('provider_not_found', `No AI provider '${slug}' is registered (known: ${providers.map((p) => p.slug).join(', ')})`);
        const site = await settings.get();
        return { provider, model: model || (slug === site.default_provider && site.default_model) || (await provider.models(ctx))[0] || '' };
      }
      const site = await settings.get();
      let provider = site.default_provider ? providers.find((p) => p.slug === site.default_provider) : undefined;
      const chosen = Boolean(provider);
      if (!provider) {
        for (const p of providers) {
          if (await p.configured(ctx)) {
            provider = p;
            break;
          }
        }
      }
      provider ??= providers[0];
      if (!provider) throw badRequest('provider_not_configured', 'No AI provider is registered on this host');
      return { provider, model: model || (chosen && site.default_model) || (await provider.models(ctx))[0] || '' };
    };

    /** The system prompt: what the assistant is for, then what exists (as the caller may see it). */
    const systemPrompt = async (ctx: CallContext, agentType: string, selected: number | undefined): Promise<string> => {
      const lines = [
        'You are the Flowhost assistant. You build and run content workflows with the tools you have.',
        'A pipeline is a template of steps (fetch, ai, publish, update); a flow is a pipeline with a handler and settings per step, and a schedule.',
        'Use the ids the tools return. Never repeat an identical tool call. Answer in plain text once the work is done.',
      ];
      if (agentType === 'cli') lines.push('You are answering a command-line user: keep answers short, no Markdown.');
      if (ctx.user?.can('manage_options')) {
        const [p, f] = await Promise.all([pipelines.list({ perPage: 100, offset: 0 }), flows.list({ perPage: 100, offset: 0 })]);
        lines.push('', `Pipelines (${p.total}):`);
        for (const pipeline of p.items) {
          lines.push(`- pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}": ${[...pipeline.steps].sort((a, b) => a.execution_order - b.execution_order).map((s) => `${s.pipeline_step_id} ${s.label ? `"${s.label}" ` : ''}(${s.step_type})`).join(', ') || 'no steps'}`);
        }
        lines.push('', `Flows (${f.total}):`);
        for (const flow of f.items) {
          const handlers = Object.values(flow.steps ?? {}).map((s) => s.handler_slug).filter(Boolean);
          lines.push(`- flow ${flow.flow_id} "${flow.flow_name}" (pipeline ${flow.pipeline_id}): handlers ${handlers.join(', ') || 'none'}`);
        }
        if (selected !== undefined) {
          const pipeline = p.items.find((x) => x.pipeline_id === selected) ?? (await pipelines.exists(selected) ? await pipelines.get(selected) : null);
          if (pipeline) {
            lines.push('', `The user is working on pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}". Its steps:`);
            for (const s of pipeline.steps) lines.push(`- ${s.pipeline_step_id}: ${s.step_type}, position ${s.execution_order}, config ${JSON.stringify(s.config ?? {})}`);
            const ofPipeline = f.items.filter((x) => x.pipeline_id === pipeline.pipeline_id);
            lines.push(`Its flows: ${ofPipeline.map((x) => `${x.flow_id} "${x.flow_name}"`).join(', ') || 'none'}`);
          }
        }
      }
      return lines.join('\n');
    };

    routes.add(
      defineSurface({
        id: 'chat',
        routes: [
          {
            method: 'GET',
            path: '/chat/sessions',
            permission: manage,
            summary: "The caller's chat sessions, most recently active first",
            schema: {
              query: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 }, page: { type: 'integer', minimum: 1, maximum: 100000, default: 1 } } },
              responses: { 200: successBody({ data: { type: 'object', required: ['sessions', 'total'], properties: { sessions: { type: 'array', items: sessionSummary }, total: int }, additionalProperties: false } }) },
            },
            async handle(request) {
              const { limit, page } = request.query as { limit: number; page: number };
              const filter = { user_id: request.user!.userId };
              const [items, total] = await Promise.all([sessions.find(filter, { sort: { updated_at: -1, _id: 1 }, skip: (page - 1) * limit, limit }), sessions.count(filter)]);
              return { success: true, data: { sessions: (items as SessionRecord[]).map(summaryOf), total } };
            },
          },
          {
            method: 'POST',
            path: '/chat',
            permission: manage,
            summary: 'One user message through the assistant and its tool calls',
            schema: {
              body: {
                type: 'object',
                required: ['message'],
                properties: {
                  message: { type: 'string', minLength: 1, maxLength: 32000 },
                  session_id: { type: 'string', pattern: '^[a-f0-9-]{1,64}$' },
                  provider: { type: 'string', minLength: 1, maxLength: 64 },
                  model: { type: 'string', minLength: 1, maxLength: 200 },
                  selected_pipeline_id: { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER },
                  agent_type: { enum: ['chat', 'cli'] },
                },
              },
              responses: {
                200: successBody({
                  session_id: str,
                  response: str,
                  tool_calls: { type: 'array', items: toolCall },
                  conversation,
                  metadata,
                  data: {
                    type: 'object',
                    required: ['session_id', 'response', 'tool_calls', 'conversation', 'completed', 'turn_number', 'max_turns_reached'],
                    properties: { session_id: str, response: str, tool_calls: { type: 'array', items: toolCall }, conversation, completed: { type: 'boolean' }, turn_number: int, max_turns_reached: { type: 'boolean' } },
                    additionalProperties: false,
                  },
                }),
                400: errorBody('provider_not_found', 'provider_not_configured', 'provider_error'),
                502: errorBody('provider_error'),
                ...sessionErrors,
              },
            },
            async handle(request) {
              const body = request.body as { message: string; session_id?: string; provider?: string; model?: string; selected_pipeline_id?: number; agent_type?: 'chat' | 'cli' };
              const userId = request.user!.userId;
              const ctx: CallContext = { user: actingUserOf(request.user), log: request.log, clock, fetch };
              const existing = body.session_id ? await ownSession(body.session_id, userId) : null;
              const { provider, model } = await chooseProvider(ctx, body.provider ?? (existing ? existing.provider : undefined), body.model ?? (existing && !body.provider ? existing.model : undefined));
              if (!(await provider.configured(ctx))) {
                throw badRequest('provider_not_configured', `${provider.label} has no API key: set one with PUT /settings (ai_provider_keys.${provider.slug}) or flowhost providers set-key ${provider.slug}`);
              }
              if (!model) throw badRequest('provider_not_configured', `${provider.label} offers no model: give one in model`);

              const now = clock.now();
              const session: SessionRecord = existing ?? {
                _id: randomUUID(),
                session_id: '',
                user_id: userId,
                title: body.message.replace(/\s+/g, ' ').trim().slice(0, 80),
                first_message: body.message.slice(0, 1000),
                agent_type: body.agent_type ?? 'chat',
                provider: provider.slug,
                model,
                messages: [],
                conversation: [],
                message_count: 0,
                created_at: now,
                updated_at: now,
              };
              session.session_id = session._id;
              session.provider = provider.slug;
              session.model = model;
              if (body.agent_type) session.agent_type = body.agent_type;
              const messages = session.messages as unknown as ProviderMessage[];
              messages.push({ role: 'user', content: body.message });
              session.conversation.push({ role: 'user', content: body.message, metadata: { type: 'text', timestamp: now.toISOString() } } as DisplayMessage);

              let stored = Boolean(existing);
              const save = async () => {
                session.updated_at = clock.now();
                session.message_count = session.conversation.length;
                const { _id, ...fields } = session;
                if (stored) await sessions.updateOne({ _id }, { $set: fields });
                else {
                  await sessions.insertOne(session);
                  stored = true;
                }
              };
              await save();

              let result;
              try {
                result = await runChatLoop({
                  provider,
                  model,
                  system: await systemPrompt(ctx, session.agent_type, body.selected_pipeline_id),
                  tools: await enabledTools(registries.chatTools(), ctx),
                  maxTurns: config.max_turns ?? 8,
                  ctx,
                  messages,
                  conversation: session.conversation,
                  now: () => clock.now().toISOString(),
                  save,
                });
              } catch (error) {
                if (error instanceof LoopProviderError) {
                  const status = error.code === 'not_configured' ? 400 : 502;
                  throw new ApiError('provider_error', error.message, status, { provider: provider.slug, model, provider_code: error.code, session_id: session.session_id });
                }
                throw error;
              }
              return {
                success: true,
                session_id: session.session_id,
                response: result.response,
                tool_calls: result.toolCalls,
                conversation: session.conversation,
                metadata: { last_activity: new Date(session.updated_at).toISOString(), message_count: session.message_count },
                data: { session_id: session.session_id, response: result.response, tool_calls: result.toolCalls, conversation: session.conversation, completed: result.completed, turn_number: result.turns, max_turns_reached: result.maxTurnsReached },
              };
            },
          },
          {
            method: 'GET',
            path: '/chat/{session_id}',
            permission: manage,
            summary: "One of the caller's chat sessions with its conversation",
            schema: { params: sessionIdParams, responses: { 200: successBody({ session_id: str, conversation, data: sessionDetail }), ...sessionErrors } },
            async handle(request) {
              const session = await ownSession((request.params as { session_id: string }).session_id, request.user!.userId);
              return { success: true, session_id: session.session_id, conversation: session.conversation, data: { ...summaryOf(session), provider: session.provider, model: session.model, conversation: session.conversation } };
            },
          },
          {
            method: 'DELETE',
            path: '/chat/{session_id}',
            permission: manage,
            summary: "Deletes one of the caller's chat sessions",
            schema: { params: sessionIdParams, responses: { 200: successBody({ data: { type: 'object', required: ['deleted', 'session_id'], properties: { deleted: { const: true }, session_id: str }, additionalProperties: false } }), ...sessionErrors } },
            async handle(request) {
              const session = await ownSession((request.params as { session_id: string }).session_id, request.user!.userId);
              await sessions.deleteOne({ _id: session._id });
              return { success: true, data: { deleted: true, session_id: session.session_id } };
            },
          },
        ],
      }),
    );
  },
});
