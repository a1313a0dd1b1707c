import { definePlugin, defineStepType } from '../../sdk/index.js';

/** The engine's step types: three run a handler of their kind, `ai` calls a provider. */
export default definePlugin({
  id: 'steps-core',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Step types fetch, ai, publish and update.',
  setup(host) {
    host.hooks.stepTypes.tap({ name: 'steps-core', stage: -10 }, (list) => [
      defineStepType({ type: 'fetch', label: 'Fetch', handlerType: 'fetch' }),
      defineStepType({ type: 'ai', label: 'AI', handlerType: null }),
      defineStepType({ type: 'publish', label: 'Publish', handlerType: 'publish' }),
      defineStepType({ type: 'update', label: 'Update', handlerType: 'update' }),
      ...list,
    ]);
  },
});
