/**
 * Running a session: POST /chat (a user message, then model calls and tool calls up to the
 * turn limit) and POST /chat/continue (one more model call and its tool calls). Both hold
 * the session's lease while they run and save (trimmed to the caps) after every turn.
 */
import { randomUUID } from 'node:crypto';
import type { CallContext, ChatToolDefinition, Clock, ProviderDefinition } from '../../sdk/index.js';
import { runConfirmed } from './confirmed-call.js';
import type { LoopResult } from './loop.js';
import type { SessionsRepository } from './repository.js';
import { sessionRunner, type SessionRunner } from './session-runner.js';
import type { DisplayMessage, SessionRecord } from './types.js';
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

export interface ServiceDeps {
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

/** POST /chat and POST /chat/continue, each a function of its own below. */
export function chatService(deps: ServiceDeps) {
  const runner = sessionRunner(deps);
  return {
    chat: (input: ChatInput, userId: number, ctx: CallContext) => chat(deps, runner, input, userId, ctx),
    continueChat: (input: ContinueInput, userId: number, ctx: CallContext) => continueChat(deps, runner, input, userId, ctx),
  };
}

async function chat(deps: ServiceDeps, { saver, runLoop }: SessionRunner, input: ChatInput, userId: number, ctx: CallContext) {
  const { repository, clock } = deps;
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

async function continueChat(deps: ServiceDeps, { saver, runLoop }: SessionRunner, input: ContinueInput, userId: number, ctx: CallContext) {
  const { repository } = deps;
  const { session, lease } = await repository.acquire(input.session_id, userId);
  try {
    const confirmed = input.confirm_tool_call_id === undefined ? null : await runConfirmed(deps, session, input.confirm_tool_call_id, ctx);
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
