import { services, type ResolvedDeps } from '../../sdk/index.js';

/** The core services the chat tools act through. */
export const chatToolDeps = {
  pipelines: services.pipelines,
  flows: services.flows,
  execute: services.execute,
  credentials: services.credentials,
  /** The handlers and step types this host runs (core-workflows' catalogue). */
  catalogue: services.handlerCatalogue,
} as const;
/** What the tools are given: the services above and the site settings (the plugin lists those itself). */
export type ResolvedChatServices = ResolvedDeps<typeof chatToolDeps & { settings: typeof services.settings }>;

/** A message as the admin client shows it. */
export interface DisplayMessage extends Record<string, unknown> {
  role: 'user' | 'assistant' | 'tool';
  content: string;
  tool_calls?: SpecToolCall[];
  metadata: {
    type: string;
    timestamp: string;
    tool_name?: string;
    parameters?: Record<string, unknown>;
    success?: boolean;
    turn?: number;
    confirmed_by_user?: boolean;
  };
}

/** A tool call as the spec shapes it: its name and its arguments as encoded JSON. */
export interface SpecToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

/**
 * One tool call of a POST /chat, as its answer lists it: the spec's shape, plus what came
 * of it (docs/api.md, "Chat"): the turn, and `result` or `error`.
 */
export interface ToolCallRecord extends SpecToolCall, Record<string, unknown> {
  turn: number;
  result?: unknown;
  error?: string;
  /** An identical call made earlier in the same request: not run again. */
  skipped?: boolean;
  /** A destructive call held, not run: it waits for the user's confirmation. */
  awaiting_confirmation?: boolean;
  /** A held call the user confirmed, run in this request. */
  confirmed?: boolean;
}

/** A stored session (the plugin's `sessions` collection). */
export interface SessionRecord extends Record<string, unknown> {
  _id: string;
  session_id: string;
  user_id: number;
  title: string;
  first_message: string;
  agent_type: 'chat' | 'cli';
  provider: string;
  model: string;
  /** What the model is sent again next time (user, response and tool messages). */
  messages: Array<Record<string, unknown>>;
  conversation: DisplayMessage[];
  message_count: number;
  created_at: Date;
  updated_at: Date;
  /** The model's last answer was final (nothing for /chat/continue to do). */
  completed?: boolean;
  /** Model calls since the user's last message, or since the last stop at the turn limit. */
  chain_turns?: number;
  /** A destructive call the model made, held until the user confirms it (docs/chat.md). */
  pending_confirmation?: (SpecToolCall & { turn: number }) | null;
  /** The request running on this session (repository.ts): who holds it and until when. */
  lease_owner?: string;
  lease_until?: Date;
}

/** The fields a save writes: never the lease (only the lease functions touch it). */
export type SessionFields = Omit<SessionRecord, '_id' | 'lease_owner' | 'lease_until'>;
