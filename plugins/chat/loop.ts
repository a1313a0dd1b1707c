/**
 * One POST /chat turn loop: generate → run each tool call (validated against the tool's
 * JSON Schema, identical repeats skipped) → generate again, until the model answers with
 * no tool calls or the turn limit. `save` is called after every turn. A tool's result or
 * error is capped (caps.ts) before the model, the session or the answer sees it.
 */
import {
  parameterValidators,
  stableJson,
  type ValidateFunction,
  type CallContext,
  type ChatToolDefinition,
  type JsonValue,
  type ProviderDefinition,
  type ProviderMessage,
} from '../../sdk/index.js';
import { capToolError, capToolResult } from './caps.js';
import type { DisplayMessage, SpecToolCall, ToolCallRecord } from './types.js';

const validatorOf = parameterValidators<ChatToolDefinition>();

/** A value as plain JSON (no undefined, no Dates), fit for the store and the model. */
export const plain = <T>(value: T): T => (value === undefined ? (null as T) : (JSON.parse(JSON.stringify(value)) as T));

/** The spec's tool call: a client built on the spec reads `function.name` and `function.arguments`. */
export const specToolCall = (id: string, name: string, args: unknown): SpecToolCall => ({
  id,
  type: 'function',
  function: { name, arguments: JSON.stringify(args ?? {}) },
});

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
  /** Whether the site enabled this destructive tool (plugins.chat.destructive_tools). */
  destructiveEnabled: (name: string) => boolean;
}

/** A destructive call held until the user confirms it (POST /chat/continue). */
export type PendingCall = SpecToolCall & { turn: number };

export interface LoopResult {
  response: string;
  /** The display messages this run added, in order (what /chat/continue answers). */
  added: DisplayMessage[];
  toolCalls: ToolCallRecord[];
  completed: boolean;
  turns: number;
  maxTurnsReached: boolean;
  /** The destructive call this run held for the user's confirmation, if any. */
  pending: PendingCall | null;
}

export type ToolOutcome = { result: unknown } | { error: string; skipped?: boolean; awaiting_confirmation?: boolean };

/** Why the arguments do not fit the tool's schema, or null when they do. */
function argumentProblem(tool: ChatToolDefinition | undefined, name: string, given: Record<string, unknown>): string | null {
  if (!tool) return `There is no tool named '${name}'`;
  let validate: ValidateFunction;
  try {
    validate = validatorOf(tool);
  } catch (error) {
    return `Tool '${name}' has an invalid parameters schema: ${(error as Error).message}`;
  }
  if (validate(given)) return null;
  const issues = (validate.errors ?? []).map(
    (e) =>
      `${e.instancePath || '(arguments)'} ${e.message ?? 'is invalid'}${e.keyword === 'additionalProperties' ? ` (${String((e.params as { additionalProperty?: string }).additionalProperty)})` : ''}`,
  );
  return `Invalid arguments for ${name}: ${issues.join('; ')}`;
}

/** Runs one call: arguments checked against the tool's schema, result or error capped. */
export async function runTool(
  tool: ChatToolDefinition | undefined,
  name: string,
  args: Record<string, unknown>,
  ctx: CallContext,
): Promise<ToolOutcome> {
  const given = plain(args ?? {});
  const problem = argumentProblem(tool, name, given);
  if (problem) return { error: problem };
  try {
    return { result: capToolResult(plain(await tool!.run(given, ctx))) };
  } catch (error) {
    return { error: capToolError(error instanceof Error ? error.message : String(error)) };
  }
}

/** Whether this call of the tool deletes or resets data (the tool says so; see ToolDefinition). */
export function isDestructiveCall(tool: ChatToolDefinition, args: Record<string, unknown>): boolean {
  if (typeof tool.destructive === 'function') {
    try {
      return tool.destructive(args);
    } catch {
      return true; // a check that fails must not let a deleting call through
    }
  }
  return tool.destructive === true;
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
  let pending: PendingCall | null = null;
  for (;;) {
    if (turns >= input.maxTurns) {
      await input.save();
      return {
        response: lastText || `Stopped after ${turns} turns without a final answer.`,
        added,
        toolCalls,
        completed: false,
        turns,
        maxTurnsReached: true,
        pending,
      };
    }
    turns += 1;
    let answer;
    try {
      if (!provider.generate) throw new Error(`AI provider '${provider.slug}' cannot hold a conversation with tools`);
      answer = await provider.generate(
        { model: input.model, system: input.system, messages: [...messages], ...(toolSpecs.length ? { tools: toolSpecs } : {}) },
        ctx,
      );
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
      return { response: answer.text, added, toolCalls, completed: true, turns, maxTurnsReached: false, pending };
    }
    for (const call of answer.toolCalls) {
      const args = (call.args && typeof call.args === 'object' ? call.args : {}) as Record<string, unknown>;
      const key = `${call.name}\u0000${stableJson(args)}`;
      let outcome: ToolOutcome;
      if (seen.has(key)) {
        outcome = {
          error: `Not run: this exact ${call.name} call was already made in this request; its result is above. Do not repeat it.`,
          skipped: true,
        };
      } else {
        seen.add(key);
        const tool = input.tools.find((t) => t.name === call.name);
        const problem = argumentProblem(tool, call.name, plain(args));
        if (tool && !problem && isDestructiveCall(tool, args)) {
          // Never run on the model's word: its own `confirm: true` is no confirmation.
          if (!input.destructiveEnabled(call.name)) {
            outcome = {
              error: `Not run: ${call.name} with these arguments deletes or resets data, and this site has not enabled it for chat (plugins.chat.destructive_tools). Tell the user; do not try another way.`,
            };
          } else if (pending) {
            outcome = {
              error: `Not run: call ${pending.id} (${pending.function.name}) already waits for the user's confirmation; one at a time.`,
            };
          } else {
            pending = { ...specToolCall(call.id, call.name, args), turn: turns };
            outcome = {
              error: `Not run yet: ${call.name} deletes or resets data, so it runs only when the user confirms call ${call.id} in a request of their own; arguments such as confirm do not confirm it. Tell the user exactly what it will delete and ask them to confirm.`,
              awaiting_confirmation: true,
            };
          }
        } else {
          outcome = problem ? { error: problem } : await runTool(tool, call.name, args, ctx);
        }
      }
      const output = (
        'result' in outcome ? { success: true, result: outcome.result } : { success: false, error: outcome.error }
      ) as JsonValue;
      messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, output });
      show({
        role: 'tool',
        content: JSON.stringify(output),
        metadata: {
          type: 'tool_result',
          timestamp: input.now(),
          tool_name: call.name,
          parameters: plain(args),
          success: 'result' in outcome,
          turn: turns,
        },
      });
      toolCalls.push({ ...specToolCall(call.id, call.name, args), turn: turns, ...outcome });
    }
    await input.save();
  }
}
