import type { DataPacket, ProviderDefinition, StepRunContext } from '../../sdk/index.js';

/**
 * The `ai` step: each packet's title and content, with the flow step's user message and
 * the pipeline step's system prompt, through the configured provider; the answer becomes
 * the packet's content.
 */
export async function runAiStep(providers: () => ReadonlyArray<ProviderDefinition>, ctx: StepRunContext, packets: DataPacket[]): Promise<DataPacket[]> {
  const { provider: slug, model: wanted, system_prompt: systemPrompt, user_message: userMessage } = ctx.config as Record<string, string | undefined>;
  const provider = providers().find((p) => p.slug === slug);
  if (!provider) throw new Error(`AI provider '${slug ?? ''}' is not registered`);
  if (!provider.complete) throw new Error(`AI provider '${provider.slug}' cannot complete text`);
  const model = wanted || (await provider.models(ctx))[0];
  if (!model) throw new Error(`AI provider '${provider.slug}' has no model`);
  const out: DataPacket[] = [];
  for (const packet of packets) {
    const input = [packet.data.title, packet.data.content].filter((v) => typeof v === 'string' && v).join('\n\n');
    const messages = [
      ...(systemPrompt ? [{ role: 'system' as const, content: systemPrompt }] : []),
      { role: 'user' as const, content: [userMessage, input].filter(Boolean).join('\n\n') },
    ];
    const result = await provider.complete({ model, messages }, ctx);
    out.push({ ...packet, data: { ...packet.data, content: result.content }, metadata: { ...packet.metadata, ai_provider: provider.slug, ai_model: model } });
  }
  return out;
}
