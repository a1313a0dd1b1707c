/** How `flowhost chat` prints an answer, a tool call and a stored conversation for people. */

/** A tool call of an answer: the spec's shape (arguments as encoded JSON) and its outcome. */
export interface ChatToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
  turn: number;
  result?: unknown;
  error?: string;
  skipped?: boolean;
}

export interface ChatAnswer {
  session_id: string;
  response: string;
  tool_calls: ChatToolCall[];
  data: { completed: boolean; turn_number: number; max_turns_reached: boolean };
}

export interface ChatMessageView {
  role: string;
  content: string;
  metadata?: { type?: string; tool_name?: string; parameters?: Record<string, unknown>; success?: boolean; timestamp?: string };
}

const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** `name {"a":1}`: the call with its arguments cut to one line. */
export const callSummary = (tool: string, args: unknown) => `${tool} ${clip(JSON.stringify(args ?? {}), 120)}`;

/** The arguments a call carries as encoded JSON; the text itself when it is not JSON. */
function decodedArguments(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** One line per tool call: what ran, with which arguments, and how it went. */
export function toolCallLine(call: ChatToolCall): string {
  const outcome = call.skipped ? 'skipped (repeat)' : call.error !== undefined ? `error: ${clip(call.error, 200)}` : 'ok';
  return `  [turn ${call.turn}] ${callSummary(call.function.name, decodedArguments(call.function.arguments))} -> ${outcome}`;
}

/** The lines printed after a request: its tool calls, the answer, and a hint when it stopped early. */
export function answerLines(answer: ChatAnswer, continueHint: string): string[] {
  const lines = answer.tool_calls.map(toolCallLine);
  if (answer.response) lines.push(answer.response);
  if (answer.data.max_turns_reached) lines.push(`(stopped at the turn limit after ${answer.data.turn_number} turns: ${continueHint})`);
  else if (!answer.data.completed) lines.push(`(no final answer yet: ${continueHint})`);
  return lines;
}

/** A stored conversation, one message per line (tool results as their tool and outcome). */
export function conversationLines(conversation: ChatMessageView[]): string[] {
  return conversation.map((m) => {
    if (m.role === 'tool')
      return `tool: ${callSummary(m.metadata?.tool_name ?? '?', m.metadata?.parameters)} -> ${m.metadata?.success ? 'ok' : 'error'}`;
    if (m.role === 'assistant' && m.metadata?.type === 'tool_call' && !m.content) return 'assistant: (calls tools)';
    return `${m.role}: ${m.content}`;
  });
}
