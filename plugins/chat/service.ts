/**
 * Running a session: POST /chat (a user message, then model calls and tool calls up to the
 * turn limit) and POST /chat/continue (one more model call and its tool calls). Both hold
 * the session's lease while they run and save (trimmed to the caps) after every turn.
 */
import { randomUUID } from 'node:crypto';
import type { CallContext, ChatToolDefinition, Clock, ProviderDefinition, ProviderMessage } from '../../sdk/index.js';
import { trimConversation, trimModelMessages } from './caps.js';
import { LoopProviderError, runChatLoop, runTool, type LoopResult, type ToolOutcome } from './loop.js';
import type { Lease, SessionsRepository } from './repository.js';
import type { DisplayMessage, SessionRecord, ToolCallRecord } from './types.js';
import { chatError } from './errors.js';

export interface ChatInput {
  message: string;
  session_id?: string;
  provider?: string;
  model?: string;
  selected_pipeline_id?: number;
  agent_type?: 'chat' | 'cli';
}
/** `confirm_tool_call_id`: the user confirms the call the session holds (docs/chat.md). */
export type ContinueInput = Omit<ChatInput, 'message' | 'agent_type'> & { session_id: string; confirm_tool_call_id?: string };

interface ServiceDeps {
  repository: SessionsRepository;
  clock: Clock;
  /** The site setting `max_turns`, read per request (a change applies to the next one). */
  maxTurns: () => Promise<number>;
  /** The tools to offer the model now, as this caller (a tool that needs configuration may be left out). */
  tools: (ctx: CallContext) => Promise<ReadonlyArray<ChatToolDefinition>>;
  readyProvider(
    ctx: CallContext,
    slug: string | undefined,
    model: string | undefined,
  ): Promise<{ provider: ProviderDefinition; model: string }>;
  systemPrompt(ctx: CallContext, agentType: string, selected: number | undefined): Promise<string>;
  /** Whether the site enabled this destructive tool for chat (plugins.chat.destructive_tools). */
  destructiveEnabled: (name: string) => boolean;
}

/** The answer's fields both routes share (the spec's top level). */
function topLevel(session: SessionRecord, result: LoopResult) {
  return {
    success: true,
    session_id: session.session_id,
    response: result.response,
    tool_calls: result.toolCalls,
    conversation: session.conversation,
    metadata: { last_activity: new Date(session.updated_at).toISOString(), message_count: session.message_count },
  };
}

/** A session whose last answer was final has nothing for /chat/continue to do. */
function finished(session: SessionRecord): boolean {
  if (typeof session.completed === 'boolean') return session.completed;
  const last = session.conversation.at(-1);
  return !last || (last.role === 'assistant' && !last.tool_calls?.length);
}

export function chatService(deps: ServiceDeps) {
  const { repository, clock } = deps;

  /** Saves the session (trimmed to the caps) while this request holds its lease. */
  const saver = (session: SessionRecord, lease: Lease, log: CallContext['log']) => async () => {
    trimModelMessages(session.messages);
    trimConversation(session.conversation);
    session.updated_at = clock.now();
    session.message_count = session.conversation.length;
    const { _id, lease_owner: _owner, lease_until: _until, ...fields } = session;
    if (!(await repository.save(_id, lease, fields)))
      log.warn({ session_id: _id }, 'chat session lease lost or session deleted mid-request; this turn was not saved');
  };

  const runLoop = async (
    session: SessionRecord,
    lease: Lease,
    ctx: CallContext,
    model: { provider: ProviderDefinition; model: string },
    maxTurns: number,
    selected: number | undefined,
  ) => {
    try {
      return await runChatLoop({
        provider: model.provider,
        model: model.model,
        system: await deps.systemPrompt(ctx, session.agent_type, selected),
        tools: await deps.tools(ctx),
        maxTurns,
        ctx,
        messages: session.messages as unknown as ProviderMessage[],
        conversation: session.conversation,
        now: () => clock.now().toISOString(),
        save: saver(session, lease, ctx.log),
        destructiveEnabled: deps.destructiveEnabled,
      });
    } catch (error) {
      if (error instanceof LoopProviderError) {
        const status = error.code === 'not_configured' ? 400 : 502;
        throw chatError('provider_error', {
          message: error.message,
          status,
          data: { provider: model.provider.slug, model: model.model, provider_code: error.code, session_id: session.session_id },
        });
      }
      throw error;
    }
  };

  /**
   * Runs the call the session holds, because the user (not the model) confirmed it by its
   * id: with the arguments the model gave when it asked, as the user was shown them. The
   * model hears the outcome as a user message (its own call was already answered "not run
   * yet"); the conversation shows it as a tool result confirmed by the user.
   */
  async function runConfirmed(
    session: SessionRecord,
    callId: string,
    ctx: CallContext,
  ): Promise<{ call: ToolCallRecord; added: DisplayMessage[] }> {
    const held = session.pending_confirmation;
    if (!held || held.id !== callId) {
      throw chatError('nothing_to_confirm', {
        message: held
          ? `Chat session ${session.session_id} holds call ${held.id}, not ${callId}`
          : `Chat session ${session.session_id} holds no call waiting for confirmation`,
        data: { session_id: session.session_id, pending: held?.id ?? null },
      });
    }
    session.pending_confirmation = null;
    const name = held.function.name;
    const args = JSON.parse(held.function.arguments) as Record<string, unknown>;
    const tool = (await deps.tools(ctx)).find((t) => t.name === name);
    const outcome: ToolOutcome = !deps.destructiveEnabled(name)
      ? { error: `Not run: ${name} is no longer enabled for chat on this site (plugins.chat.destructive_tools)` }
      : await runTool(tool, name, args, ctx);
    const output = 'result' in outcome ? { success: true, result: outcome.result } : { success: false, error: outcome.error };
    const now = clock.now().toISOString();
    session.messages.push({
      role: 'user',
      content: `I confirm call ${held.id} (${name} ${held.function.arguments}). It was run; its outcome: ${JSON.stringify(output)}`,
    });
    const added: DisplayMessage[] = [
      { role: 'user', content: `Confirmed: ${name}`, metadata: { type: 'confirmation', timestamp: now } },
      {
        role: 'tool',
        content: JSON.stringify(output),
        metadata: {
          type: 'tool_result',
          timestamp: now,
          tool_name: name,
          parameters: args,
          success: 'result' in outcome,
          confirmed_by_user: true,
        },
      },
    ];
    session.conversation.push(...added);
    session.completed = false;
    return { call: { id: held.id, type: 'function', function: held.function, turn: held.turn, confirmed: true, ...outcome }, added };
  }

  async function chat(input: ChatInput, userId: number, ctx: CallContext) {
    const held = input.session_id ? await repository.acquire(input.session_id, userId) : null;
    let lease = held?.lease;
    let session = held?.session;
    try {
      const chosen = await deps.readyProvider(
        ctx,
        input.provider ?? session?.provider,
        input.model ?? (session && !input.provider ? session.model : undefined),
      );
      const now = clock.now();
      if (!session) {
        const id = randomUUID();
        session = {
          _id: id,
          session_id: id,
          user_id: userId,
          title: input.message.replace(/\s+/g, ' ').trim().slice(0, 80),
          first_message: input.message.slice(0, 1000),
          agent_type: input.agent_type ?? 'chat',
          provider: chosen.provider.slug,
          model: chosen.model,
          messages: [],
          conversation: [],
          message_count: 0,
          created_at: now,
          updated_at: now,
        };
        lease = await repository.insertLeased(session);
      }
      session.provider = chosen.provider.slug;
      session.model = chosen.model;
      if (input.agent_type) session.agent_type = input.agent_type;
      session.messages.push({ role: 'user', content: input.message });
      session.conversation.push({
        role: 'user',
        content: input.message,
        metadata: { type: 'text', timestamp: now.toISOString() },
      } as DisplayMessage);
      session.completed = false;
      session.chain_turns = 0;
      // A new message moves on: a held call is confirmed by the next request or not at all.
      session.pending_confirmation = null;
      await saver(session, lease!, ctx.log)();

      const maxTurns = await deps.maxTurns();
      const result = await runLoop(session, lease!, ctx, chosen, maxTurns, input.selected_pipeline_id);
      session.completed = result.completed;
      session.pending_confirmation = result.pending;
      // A stop at the limit starts a fresh budget for /chat/continue.
      session.chain_turns = result.maxTurnsReached ? 0 : result.turns;
      await saver(session, lease!, ctx.log)();
      return {
        ...topLevel(session, result),
        data: {
          session_id: session.session_id,
          response: result.response,
          tool_calls: result.toolCalls,
          conversation: session.conversation,
          completed: result.completed,
          turn_number: result.turns,
          max_turns_reached: result.maxTurnsReached,
          pending_confirmation: session.pending_confirmation ?? null,
        },
      };
    } finally {
      if (session && lease) await repository.release(session._id, lease);
    }
  }

  async function continueChat(input: ContinueInput, userId: number, ctx: CallContext) {
    const { session, lease } = await repository.acquire(input.session_id, userId);
    try {
      const confirmed = input.confirm_tool_call_id === undefined ? null : await runConfirmed(session, input.confirm_tool_call_id, ctx);
      if (!confirmed && finished(session))
        throw chatError('nothing_to_continue', {
          message: `Chat session ${session.session_id} ended with the assistant's answer: send a new message with POST /chat`,
          data: { session_id: session.session_id },
        });
      const chosen = await deps.readyProvider(
        ctx,
        input.provider ?? session.provider,
        input.model ?? (input.provider ? undefined : session.model),
      );
      session.provider = chosen.provider.slug;
      session.model = chosen.model;
      const maxTurns = await deps.maxTurns();
      if (confirmed) await saver(session, lease, ctx.log)();
      const looped = await runLoop(session, lease, ctx, chosen, 1, input.selected_pipeline_id);
      const result = confirmed
        ? { ...looped, added: [...confirmed.added, ...looped.added], toolCalls: [confirmed.call, ...looped.toolCalls] }
        : looped;
      const turn = (session.chain_turns ?? 0) + result.turns;
      const maxReached = !result.completed && turn >= maxTurns;
      session.completed = result.completed;
      session.pending_confirmation = result.pending;
      session.chain_turns = maxReached ? 0 : turn;
      await saver(session, lease, ctx.log)();
      // One turn that made tool calls has no final answer: its text (if any) is the response.
      const response = result.completed ? result.response : (result.added.filter((m) => m.role === 'assistant').at(-1)?.content ?? '');
      return {
        ...topLevel(session, { ...result, response }),
        data: {
          session_id: session.session_id,
          new_messages: result.added,
          response,
          tool_calls: result.toolCalls,
          completed: result.completed,
          turn_number: turn,
          max_turns_reached: maxReached,
          pending_confirmation: session.pending_confirmation ?? null,
        },
      };
    } finally {
      await repository.release(session._id, lease);
    }
  }

  return { chat, continueChat };
}
