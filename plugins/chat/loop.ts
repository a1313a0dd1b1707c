/**
 * One POST /chat turn loop: generate → run each tool call (validated against the tool's
 * JSON Schema, identical repeats skipped) → generate again, until the model answers with
 * no tool calls or the turn limit. `save` is called after every turn. A tool's result or
 * error is capped (caps.ts) before the model, the session or the answer sees it.
 */
import { parameterValidators, stableJson, type ValidateFunction, type CallContext, type ChatToolDefinition, type JsonValue, type ProviderDefinition, type ProviderMessage } from '../../sdk/index.js';
import { capToolError, capToolResult } from './caps.js';
import type { DisplayMessage, SpecToolCall, ToolCallRecord } from './types.js';

const validatorOf = parameterValidators<ChatToolDefinition>();

/** A value as plain JSON (no undefined, no Dates), fit for the store and the model. */
export const plain = <T>(value: T): T => (value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T));

/** The spec's tool call: a client built on the spec reads `function.name` and `function.arguments`. */
export const specToolCall = (id: string, name: string, args: unknown): SpecToolCall => ({ id, type: 'function', function: { name, arguments: JSON.stringify(args ?? {}) } });

/** A provider's failure during the loop (after the session was saved). */
export class LoopProviderError extends Error {
  constructor(
    message: string,
    readonly code: string,
  ) {
    super(message);
  }
}

export interface LoopInput {
  provider: ProviderDefinition;
  model: string;
  system: string;
  tools: ReadonlyArray<ChatToolDefinition>;
  maxTurns: number;
  ctx: CallContext;
  /** The session's model messages and display messages: appended to in place. */
  messages: ProviderMessage[];
  conversation: DisplayMessage[];
  now: () => string;
  save: () => Promise<void>;
}

export interface LoopResult {
  response: string;
  /** The display messages this run added, in order (what /chat/continue answers). */
  added: DisplayMessage[];
  toolCalls: ToolCallRecord[];
  completed: boolean;
  turns: number;
  maxTurnsReached: boolean;
}

type ToolOutcome = { result: unknown } | { error: string; skipped?: boolean };

async function runTool(tool: ChatToolDefinition | undefined, name: string, args: Record<string, unknown>, ctx: CallContext): Promise<ToolOutcome> {
  if (!tool) return { error: `There is no tool named '${name}'` };
  const given = plain(args ?? {});
  let validate: ValidateFunction;
  try {
    validate = validatorOf(tool);
  } catch (error) {
    return { error: `Tool '${name}' has an invalid parameters schema: ${(error as Error).message}` };
  }
  if (!validate(given)) {
    const issues = (validate.errors ?? []).map((e) => `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`);
    return { error: `Invalid arguments for ${name}: ${issues.join('; ')}` };
  }
  try {
    return { result: capToolResult(plain(await tool.run(given, ctx))) };
  } catch (error) {
    return { error: capToolError(error instanceof Error ? error.message : String(error)) };
  }
}

export async function runChatLoop(input: LoopInput): Promise<LoopResult> {
  const { provider, ctx, messages, conversation } = input;
  const toolSpecs = input.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const seen = new Set<string>();
  const toolCalls: ToolCallRecord[] = [];
  const added: DisplayMessage[] = [];
  const show = (message: DisplayMessage) => {
    conversation.push(message);
    added.push(message);
  };
  let turns = 0;
  let lastText = '';
  for (;;) {
    if (turns >= input.maxTurns) {
      await input.save();
      return { response: lastText || `Stopped after ${turns} turns without a final answer.`, added, toolCalls, completed: false, turns, maxTurnsReached: true };
    }
    turns += 1;
    let answer;
    try {
      if (!provider.generate) throw new Error(`AI provider '${provider.slug}' cannot hold a conversation with tools`);
      answer = await provider.generate({ model: input.model, system: input.system, messages: [...messages], ...(toolSpecs.length ? { tools: toolSpecs } : {}) }, ctx);
    } catch (error) {
      await input.save();
      const code = typeof (error as { code?: unknown }).code === 'string' ? (error as { code: string }).code : 'unavailable';
      throw new LoopProviderError(error instanceof Error ? error.message : String(error), code);
    }
    messages.push(...plain(answer.responseMessages));
    if (answer.text) lastText = answer.text;
    show({
      role: 'assistant',
      content: answer.text,
      ...(answer.toolCalls.length ? { tool_calls: answer.toolCalls.map((c) => specToolCall(c.id, c.name, c.args)) } : {}),
      metadata: { type: answer.toolCalls.length ? 'tool_call' : 'text', timestamp: input.now(), turn: turns },
    });
    if (answer.toolCalls.length === 0) {
      await input.save();
      return { response: answer.text, added, toolCalls, completed: true, turns, maxTurnsReached: false };
    }
    for (const call of answer.toolCalls) {
      const args = (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>;
      const key = `${call.name}\u0000${stableJson(args)}`;
      let outcome: ToolOutcome;
      if (seen.has(key)) {
        outcome = { error: `Not run: this exact ${call.name} call was already made in this request; its result is above. Do not repeat it.`, skipped: true };
      } else {
        seen.add(key);
        outcome = await runTool(input.tools.find((t) => t.name === call.name), call.name, args, ctx);
      }
      const output = ('result' in outcome ? { success: true, result: outcome.result } : { success: false, error: outcome.error }) as JsonValue;
      messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, output });
      show({ role: 'tool', content: JSON.stringify(output), metadata: { type: 'tool_result', timestamp: input.now(), tool_name: call.name, parameters: plain(args), success: 'result' in outcome, turn: turns } });
      toolCalls.push({ ...specToolCall(call.id, call.name, args), turn: turns, ...outcome });
    }
    await input.save();
  }
}
