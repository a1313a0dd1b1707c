/**
 * The ai step's tools: the names its settings list (`mcp_tools: ["docs/search"]`) resolved
 * through the tool sources other plugins contribute (`ai.toolSources`), and the loop that
 * lets the model call them: generate → run each call → generate again, bounded by
 * `max_tool_calls`. Every call and its result (cut to a size) goes to the step's record.
 */
import type { AiStepTool, AiToolSource } from '../../sdk/ai/index.js';
import {
  maskDeep,
  type AiToolCallRecord,
  type CallContext,
  type JsonValue,
  type ProviderDefinition,
  type ProviderMessage,
  type TokenUsage,
} from '../../sdk/index.js';

/** Calls one step may make when the settings say nothing; `max_tool_calls` may raise it to MAX_TOOL_CALLS. */
export const DEFAULT_TOOL_CALLS = 8;
export const MAX_TOOL_CALLS = 50;
/** How much of a result the step's record keeps (the model gets it whole, within the source's own limits). */
const RECORD_LIMIT = 4000;

/** One call as the step's record shows it. */
export type ToolCallRecord = AiToolCallRecord;

/** The tools the step's settings name, by source; none when no setting names any. */
export async function stepTools(
  sources: ReadonlyArray<AiToolSource>,
  config: Readonly<Record<string, unknown>>,
  ctx: CallContext,
): Promise<AiStepTool[]> {
  const tools: AiStepTool[] = [];
  for (const source of sources) {
    const names = config[source.setting];
    if (names === undefined || names === null) continue;
    if (!Array.isArray(names) || names.some((n) => typeof n !== 'string'))
      throw new Error(`The ai step's ${source.setting} must be a list of tool names`);
    if (names.length > 0) tools.push(...(await source.resolve(names as string[], ctx)));
  }
  return tools;
}

/** `max_tool_calls` from the settings, within 0..MAX_TOOL_CALLS. */
export function toolCallLimit(config: Readonly<Record<string, unknown>>): number {
  const given = config.max_tool_calls;
  if (typeof given !== 'number' || !Number.isInteger(given)) return DEFAULT_TOOL_CALLS;
  return Math.max(0, Math.min(MAX_TOOL_CALLS, given));
}

/** A result as the record keeps it: whole when small, else its JSON cut with a note. */
function recorded(value: JsonValue): JsonValue {
  const text = JSON.stringify(value);
  return text.length <= RECORD_LIMIT ? value : `${text.slice(0, RECORD_LIMIT)}… (${text.length} characters, cut)`;
}

export interface ToolLoopInput {
  provider: ProviderDefinition;
  model: string;
  system: string | undefined;
  prompt: string;
  tools: ReadonlyArray<AiStepTool>;
  /** Calls left for the whole step (shared by its items); decremented in place. */
  budget: { left: number };
  ctx: CallContext;
  usage: TokenUsage;
  records: ToolCallRecord[];
  /** After each model call (the step's report). */
  onCall: () => void;
}

/**
 * The conversation for one item: the model may call the tools until it answers with text.
 * Once the budget is spent the model is asked once more without tools, so it must answer.
 * A tool that cannot be reached throws: the step fails naming the tool.
 */
export async function generateWithTools(input: ToolLoopInput): Promise<string> {
  const { provider, ctx } = input;
  if (!provider.generate) throw new Error(`AI provider '${provider.slug}' cannot call tools (it has no generate())`);
  const byName = new Map(input.tools.map((t) => [t.name, t]));
  const specs = input.tools.map((t) => ({ name: t.name, description: t.description, parameters: t.parameters }));
  const messages: ProviderMessage[] = [{ role: 'user', content: input.prompt }];
  for (;;) {
    const offer = input.budget.left > 0;
    const answer = await provider.generate(
      {
        model: input.model,
        messages: [...messages],
        ...(input.system ? { system: input.system } : {}),
        ...(offer ? { tools: specs } : {}),
      },
      ctx,
    );
    input.usage.input_tokens += answer.usage.input_tokens;
    input.usage.output_tokens += answer.usage.output_tokens;
    input.usage.total_tokens += answer.usage.total_tokens;
    input.onCall();
    if (answer.toolCalls.length === 0 || !offer) return answer.text;
    messages.push(...answer.responseMessages);
    for (const call of answer.toolCalls) {
      const tool = byName.get(call.name);
      let output: JsonValue;
      if (!tool) {
        output = { success: false, error: `There is no tool named '${call.name}'` };
        input.records.push({ tool: call.name, args: maskDeep(call.args), error: 'no such tool' });
      } else if (input.budget.left <= 0) {
        output = { success: false, error: 'Not run: this step has made all the tool calls it may; answer with what you have.' };
        input.records.push({ tool: tool.label, args: maskDeep(call.args), error: 'tool call limit reached' });
      } else {
        input.budget.left -= 1;
        // The record masks secret-named arguments, as a step's recorded packets do; the tool gets them whole.
        const record: ToolCallRecord = { tool: tool.label, args: maskDeep(call.args) };
        input.records.push(record);
        try {
          const result = await tool.run(call.args, ctx);
          record.result = recorded(result);
          output = { success: true, result };
        } catch (error) {
          record.error = error instanceof Error ? error.message : String(error);
          throw new Error(`Tool ${tool.label} failed: ${record.error}`);
        }
      }
      messages.push({ role: 'tool', toolCallId: call.id, toolName: call.name, output });
    }
  }
}
