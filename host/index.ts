/** Assembling your own build: `import { createHost } from 'flowhost/host'`. */
export { createHost, type Host, type CreateHostOptions } from './create-host.js';
export { loadConfig, ConfigError } from './config/load-config.js';
export type { HostConfig } from './config/schema.js';
export { buildDefaultHost } from './default-build.js';
export { resolvePlugins } from './plugin-resolver.js';
export { defaultPlugins, optionalPlugins } from '../plugins/index.js';
