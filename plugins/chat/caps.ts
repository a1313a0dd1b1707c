/**
 * Bounds on what a session stores and sends back to the model, so a long-lived session
 * or one huge tool result cannot grow a session document (and every model call) without
 * limit. The numbers are documented in docs/chat.md ("Limits").
 */
import type { DisplayMessage } from './types.js';

/** Model messages kept (and sent again): at most this many... */
export const MODEL_MESSAGES_MAX = 200;
/** ...and at most this many characters of JSON. */
export const MODEL_CHARS_MAX = 200_000;
/** Display messages kept in the session's conversation. */
export const DISPLAY_MESSAGES_MAX = 200;
/** ...and at most this many characters of JSON (user messages may be 32,000 each). */
export const DISPLAY_CHARS_MAX = 400_000;
/** A tool result longer than this (as JSON) is replaced by a preview. */
export const TOOL_RESULT_CHARS_MAX = 16_000;
/** A tool error longer than this is cut. */
export const TOOL_ERROR_CHARS_MAX = 4_000;

/** The user message put first when trimming had to cut inside a chain of tool turns. */
export const TRIMMED_NOTE = '(Earlier messages of this conversation were removed to keep it short.)';

type Message = Record<string, unknown>;

/** A result that fits, or a preview of it that says it was cut (the model sees this). */
export function capToolResult(result: unknown): unknown {
  const json = JSON.stringify(result ?? null);
  if (json.length <= TOOL_RESULT_CHARS_MAX) return result;
  return { truncated: true, original_chars: json.length, preview: json.slice(0, TOOL_RESULT_CHARS_MAX) };
}

export const capToolError = (error: string): string =>
  error.length <= TOOL_ERROR_CHARS_MAX ? error : `${error.slice(0, TOOL_ERROR_CHARS_MAX)}… (cut from ${error.length} characters)`;

const isNote = (m: Message | undefined) => m?.role === 'user' && m.content === TRIMMED_NOTE;

/**
 * Drops the oldest model messages, in place, until both bounds hold. It cuts before a user
 * message when it can, else before a model response; never before a tool result, so a tool
 * call is never separated from its result. After a cut before a response the first message
 * is a user note (some providers refuse a conversation that opens with the model). The
 * newest exchange is always kept, even alone over the bounds.
 */
export function trimModelMessages(messages: Message[]): void {
  const size = () => messages.reduce((n, m) => n + JSON.stringify(m).length, 0);
  while (messages.length > MODEL_MESSAGES_MAX || size() > MODEL_CHARS_MAX) {
    const start = isNote(messages[0]) ? 1 : 0;
    let cut = -1;
    for (let i = start + 1; i < messages.length; i++) {
      if (messages[i]!.role === 'user') {
        cut = i;
        break;
      }
    }
    if (cut === -1) {
      for (let i = start + 1; i < messages.length; i++) {
        if (messages[i]!.role !== 'tool') {
          cut = i;
          break;
        }
      }
    }
    if (cut === -1) return;
    messages.splice(start, cut - start);
    if (messages[0]!.role !== 'user') messages.unshift({ role: 'user', content: TRIMMED_NOTE });
    else if (isNote(messages[0]) && messages[1]?.role === 'user') messages.shift();
  }
}

/** Keeps the newest display messages within both bounds, in place, never opening on a tool result. */
export function trimConversation(conversation: DisplayMessage[]): void {
  let cut = Math.max(0, conversation.length - DISPLAY_MESSAGES_MAX);
  let size = conversation.slice(cut).reduce((n, m) => n + JSON.stringify(m).length, 0);
  while (cut < conversation.length - 1 && (size > DISPLAY_CHARS_MAX || conversation[cut]!.role === 'tool')) {
    size -= JSON.stringify(conversation[cut]).length;
    cut += 1;
  }
  if (cut > 0) conversation.splice(0, cut);
}
