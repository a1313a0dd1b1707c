import type { AiToolSource } from '../../sdk/ai/index.js';
import type { CallContext, DataPacket, ProviderDefinition, StepRunContext, TokenUsage } from '../../sdk/index.js';
import { generateWithTools, stepTools, toolCallLimit, type ToolCallRecord } from './ai-tools.js';

/** The site's defaults for a step that names no provider or model. */
export interface AiDefaults {
  provider: string;
  model: string;
}

/** The packet's fields the model sees, as labelled text. */
function packetContext(packet: DataPacket): string {
  const data = packet.data;
  const field = (name: string) =>
    typeof data[name] === 'string' && data[name] ? `${name[0]!.toUpperCase()}${name.slice(1)}: ${String(data[name])}` : null;
  return [field('title'), field('link'), typeof data.content === 'string' && data.content ? `Content:\n${data.content}` : null]
    .filter(Boolean)
    .join('\n');
}

/**
 * The model's text as a publish step's fields: a first line `# Heading` or `Title: ...`
 * becomes the title and the rest the content; otherwise all of it is the content.
 */
export function titleAndContent(text: string): { title: string | null; content: string } {
  const trimmed = text.trim();
  const match = /^(?:#{1,6}\s+|title:\s*)(.+)\n+([\s\S]*)$/i.exec(trimmed);
  if (match && match[2]!.trim()) return { title: match[1]!.replace(/\*+/g, '').trim(), content: match[2]!.trim() };
  return { title: null, content: trimmed };
}

async function call(
  provider: ProviderDefinition,
  model: string,
  system: string | undefined,
  user: string,
  ctx: CallContext,
): Promise<{ text: string; usage: TokenUsage }> {
  if (provider.generate) {
    const result = await provider.generate({ model, messages: [{ role: 'user', content: user }], ...(system ? { system } : {}) }, ctx);
    return { text: result.text, usage: result.usage };
  }
  if (!provider.complete) throw new Error(`AI provider '${provider.slug}' cannot generate text`);
  const result = await provider.complete(
    { model, messages: [...(system ? [{ role: 'system' as const, content: system }] : []), { role: 'user' as const, content: user }] },
    ctx,
  );
  return { text: result.content, usage: { input_tokens: 0, output_tokens: 0, total_tokens: 0 } };
}

/**
 * The `ai` step: for each incoming packet (or once, with none), the flow step's user
 * message and the packet's title, link and content go to the provider with the pipeline
 * step's system prompt; the answer becomes the packet's content (and title, when it
 * starts with one). Provider and model default to the site settings. The step's outcome
 * records provider, model, token usage, calls and latency. With tools named in its settings
 * (`mcp_tools`, through the tool sources of other plugins) the model may call them, and the
 * outcome records each call (`tool_calls`).
 */
export async function runAiStep(
  providers: () => ReadonlyArray<ProviderDefinition>,
  defaults: () => Promise<AiDefaults>,
  ctx: StepRunContext,
  packets: DataPacket[],
  toolSources: () => ReadonlyArray<AiToolSource> = () => [],
): Promise<DataPacket[]> {
  const config = ctx.config as Record<string, unknown>;
  const text = (name: string) => (typeof config[name] === 'string' ? (config[name] as string) : '');
  const site = await defaults();
  const slug = text('provider') || site.provider;
  if (!slug) throw new Error('No AI provider is set on this step and no default_provider in the settings');
  const provider = providers().find((p) => p.slug === slug);
  if (!provider) throw new Error(`AI provider '${slug}' is not registered`);
  const model = text('model') || (slug === site.provider && site.model) || (await provider.models(ctx))[0];
  if (!model) throw new Error(`AI provider '${provider.slug}' has no model`);
  const system = text('system_prompt') || undefined;
  const userMessage = text('user_message');

  const tools = await stepTools(toolSources(), config, ctx);
  const budget = { left: toolCallLimit(config) };
  const records: ToolCallRecord[] = [];

  const usage: TokenUsage = { input_tokens: 0, output_tokens: 0, total_tokens: 0 };
  let calls = 0;
  const started = Date.now();
  const report = () =>
    ctx.report({
      ai: {
        provider: provider.slug,
        model,
        usage: { ...usage },
        calls,
        latency_ms: Date.now() - started,
        ...(tools.length ? { tools: tools.map((t) => t.label), tool_calls: records.map((r) => ({ ...r })) } : {}),
      },
    });
  const ask = async (context: string) => {
    const prompt = [userMessage, context].filter(Boolean).join('\n\n');
    if (!prompt) throw new Error('The ai step has neither a user message nor incoming items');
    if (tools.length) {
      const onCall = () => {
        calls += 1;
        report();
      };
      try {
        return titleAndContent(await generateWithTools({ provider, model, system, prompt, tools, budget, ctx, usage, records, onCall }));
      } finally {
        report(); // the failed call too: the record shows what the tool was asked
      }
    }
    const answer = await call(provider, model, system, prompt, ctx);
    calls += 1;
    usage.input_tokens += answer.usage.input_tokens;
    usage.output_tokens += answer.usage.output_tokens;
    usage.total_tokens += answer.usage.total_tokens;
    report();
    return titleAndContent(answer.text);
  };

  const metadata = { ai_provider: provider.slug, ai_model: model };
  if (packets.length === 0) {
    const { title, content } = await ask('');
    return [
      {
        type: 'ai',
        data: { ...(title ? { title } : {}), content },
        metadata: { ...metadata, item_id: `ai:${ctx.jobId}:${ctx.flowStepId}` },
      },
    ];
  }
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const { title, content } = await ask(packetContext(packet));
    out.push({ ...packet, data: { ...packet.data, ...(title ? { title } : {}), content }, metadata: { ...packet.metadata, ...metadata } });
  }
  return out;
}
