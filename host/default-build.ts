import { defaultPlugins, optionalPlugins } from '../plugins/index.js';
import { createHost, type CreateHostOptions, type Host } from './create-host.js';
import type { HostConfig } from './config/schema.js';
import { resolvePlugins } from './plugin-resolver.js';

/** The stock build: the default built-ins plus whatever FLOWHOST_PLUGINS / config names. */
export async function buildDefaultHost(
  config: HostConfig,
  options: Pick<CreateHostOptions, 'clusterWorker' | 'reservedPort'> = {},
): Promise<Host> {
  const extra = await resolvePlugins(config.plugins, optionalPlugins);
  return createHost({ plugins: [...defaultPlugins, ...extra], config, env: {}, ...options });
}
