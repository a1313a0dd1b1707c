/**
 * What a chat request is sent with: the provider and model it talks to, and the system
 * prompt (what the assistant is for, then the inventory as the caller may see it).
 */
import { type CallContext, type Registries, type ResolvedDeps, services, apiError } from '../../sdk/index.js';
import type { ResolvedChatServices } from './types.js';
import { chatError } from './errors.js';

export const contextDeps = { settings: services.settings } as const;

export function chatContext(
  { settings }: ResolvedDeps<typeof contextDeps>,
  registries: Registries,
  { pipelines, flows }: Pick<ResolvedChatServices, 'pipelines' | 'flows'>,
) {
  /** Provider and model: the request's, else the defaults GET /providers shows. */
  const chooseProvider = async (ctx: CallContext, slug: string | undefined, model: string | undefined) => {
    const providers = registries.providers();
    if (slug) {
      const provider = providers.find((p) => p.slug === slug);
      if (!provider)
        throw apiError('provider_not_found', {
          message: `No AI provider '${slug}' is registered (known: ${providers.map((p) => p.slug).join(', ')})`,
          status: 400,
        });
      const site = await settings.get();
      return { provider, model: model || (slug === site.default_provider && site.default_model) || (await provider.models(ctx))[0] || '' };
    }
    const site = await settings.get();
    let provider = site.default_provider ? providers.find((p) => p.slug === site.default_provider) : undefined;
    const chosen = Boolean(provider);
    if (!provider) {
      for (const p of providers) {
        if (await p.configured(ctx)) {
          provider = p;
          break;
        }
      }
    }
    provider ??= providers[0];
    if (!provider) throw chatError('provider_not_configured', { message: 'No AI provider is registered on this host' });
    return { provider, model: model || (chosen && site.default_model) || (await provider.models(ctx))[0] || '' };
  };

  /** The system prompt: what the assistant is for, then what exists (as the caller may see it). */
  const systemPrompt = async (ctx: CallContext, agentType: string, selected: number | undefined): Promise<string> => {
    const lines = [
      'You are the Flowhost assistant. You build and run content workflows with the tools you have.',
      'A pipeline is a template of steps (fetch, ai, publish, update); a flow is a pipeline with a handler and settings per step, and a schedule.',
      'Use the ids the tools return. Never repeat an identical tool call. Answer in plain text once the work is done.',
    ];
    if (agentType === 'cli') lines.push('You are answering a command-line user: keep answers short, no Markdown.');
    if (ctx.user?.can('manage_options')) {
      const [p, f] = await Promise.all([pipelines.list({ perPage: 100, offset: 0 }), flows.list({ perPage: 100, offset: 0 })]);
      lines.push('', `Pipelines (${p.total}):`);
      for (const pipeline of p.items) {
        lines.push(
          `- pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}": ${
            [...pipeline.steps]
              .sort((a, b) => a.execution_order - b.execution_order)
              .map((s) => `${s.pipeline_step_id} ${s.label ? `"${s.label}" ` : ''}(${s.step_type})`)
              .join(', ') || 'no steps'
          }`,
        );
      }
      lines.push('', `Flows (${f.total}):`);
      for (const flow of f.items) {
        const handlers = Object.values(flow.steps ?? {})
          .map((s) => s.handler_slug)
          .filter(Boolean);
        lines.push(`- flow ${flow.flow_id} "${flow.flow_name}" (pipeline ${flow.pipeline_id}): handlers ${handlers.join(', ') || 'none'}`);
      }
      if (selected !== undefined) {
        const pipeline =
          p.items.find((x) => x.pipeline_id === selected) ?? ((await pipelines.exists(selected)) ? await pipelines.get(selected) : null);
        if (pipeline) {
          lines.push('', `The user is working on pipeline ${pipeline.pipeline_id} "${pipeline.pipeline_name}". Its steps:`);
          for (const s of pipeline.steps)
            lines.push(`- ${s.pipeline_step_id}: ${s.step_type}, position ${s.execution_order}, config ${JSON.stringify(s.config ?? {})}`);
          const ofPipeline = f.items.filter((x) => x.pipeline_id === pipeline.pipeline_id);
          lines.push(`Its flows: ${ofPipeline.map((x) => `${x.flow_id} "${x.flow_name}"`).join(', ') || 'none'}`);
        }
      }
    }
    return lines.join('\n');
  };

  /** The provider and model to use, refusing (400, nothing sent) one without a key or a model. */
  const readyProvider = async (ctx: CallContext, slug: string | undefined, model: string | undefined) => {
    const chosen = await chooseProvider(ctx, slug, model);
    if (!(await chosen.provider.configured(ctx))) {
      throw chatError('provider_not_configured', {
        message: `${chosen.provider.label} has no API key: set one with PUT /settings (ai_provider_keys.${chosen.provider.slug}) or flowhost providers set-key ${chosen.provider.slug}`,
      });
    }
    if (!chosen.model)
      throw chatError('provider_not_configured', { message: `${chosen.provider.label} offers no model: give one in model` });
    return chosen;
  };

  return { readyProvider, systemPrompt };
}
