import { definePlugin } from '../kernel/define-plugin.js';
import { createServiceFactory } from '../kernel/service-ref.js';
import { services } from '../kernel/services.js';
import { ContentService } from './service.js';

/** Posts and taxonomy terms: the site's content, which handlers and surfaces build on. */
export const contentPlugin = definePlugin({
  id: 'core-content',
  version: '1.0.0',
  flowhost: '^1.0.0',
  description: 'Posts and taxonomy terms.',
  collections: ['posts', 'terms'],
  provides: [
    createServiceFactory({
      service: services.content,
      deps: { store: services.rootStore, clock: services.clock },
      async factory({ store, clock }) {
        const content = new ContentService(store, clock);
        await content.init();
        return content;
      },
    }),
  ],
  setup: () => undefined,
});
