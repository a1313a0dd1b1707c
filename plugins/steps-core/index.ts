import { aiToolSources } from '../../sdk/ai/index.js';
import { definePlugin, defineStepType, services } from '../../sdk/index.js';
import { runAiStep } from './ai-step.js';
import { approvalSettingsSchema, runApprovalStep } from './approval-step.js';

/**
 * The engine's step types: three run a handler of their kind, `ai` calls a provider,
 * `approval` waits for decisions. Owns the point `ai.toolSources` (flowhost/ai): plugins
 * offer the ai step tools through it.
 */
export default definePlugin({
  id: 'steps-core',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Step types fetch, ai, publish, update and approval.',
  extensionPoints: [aiToolSources],
  deps: {
    stepTypes: services.stepTypes,
    registries: services.registries,
    settings: services.settings,
    toolSources: aiToolSources.contributions,
  },
  setup({ stepTypes, registries, settings, toolSources }) {
    const defaults = async () => {
      const site = await settings.get();
      return { provider: site.default_provider, model: site.default_model };
    };
    stepTypes.add(defineStepType({ type: 'fetch', label: 'Fetch', handlerType: 'fetch' }));
    stepTypes.add(
      defineStepType({
        type: 'ai',
        label: 'AI',
        handlerType: null,
        run: (ctx, packets) =>
          runAiStep(
            () => registries.providers(),
            defaults,
            ctx,
            packets,
            () => toolSources.list(),
          ),
      }),
    );
    stepTypes.add(defineStepType({ type: 'publish', label: 'Publish', handlerType: 'publish' }));
    stepTypes.add(defineStepType({ type: 'update', label: 'Update', handlerType: 'update' }));
    // A person (or a signed link, a webhook delivery, a timeout) decides each item before it goes on.
    stepTypes.add(
      defineStepType({ type: 'approval', label: 'Approval', handlerType: null, settings: approvalSettingsSchema, run: runApprovalStep }),
    );
  },
});
