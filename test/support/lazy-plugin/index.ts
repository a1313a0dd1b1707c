import { definePlugin } from '../../../sdk/index.js';

/** The plugin itself: nothing but its id (its CLI noun is declared by the manifest). */
export default definePlugin({ id: 'lazy-fixture', version: '1.0.0', flowhost: '^1.0.0', setup: () => undefined });
