import { definePlugin, defineStepType, services } from '../../sdk/index.js';
import { runAiStep } from './ai-step.js';

/** The engine's step types: three run a handler of their kind, `ai` calls a provider. */
export default definePlugin({
  id: 'steps-core',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Step types fetch, ai, publish and update.',
  deps: { stepTypes: services.stepTypes, registries: services.registries },
  setup({ stepTypes, registries }) {
    stepTypes.add(defineStepType({ type: 'fetch', label: 'Fetch', handlerType: 'fetch' }));
    stepTypes.add(defineStepType({ type: 'ai', label: 'AI', handlerType: null, run: (ctx, packets) => runAiStep(() => registries.providers(), ctx, packets) }));
    stepTypes.add(defineStepType({ type: 'publish', label: 'Publish', handlerType: 'publish' }));
    stepTypes.add(defineStepType({ type: 'update', label: 'Update', handlerType: 'update' }));
  },
});
