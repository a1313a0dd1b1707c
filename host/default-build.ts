import { createHost, type CreateHostOptions, type Host } from './create-host.js';
import type { HostConfig } from './config/schema.js';
import { type DeclaredBuild, findBuild } from './build/build-declaration.js';
import { type ResolvedBuild, resolveBuild } from './build/build-plugins.js';
import { loadPluginEntries } from './plugin-resolver.js';
import { ConfigError } from './config/load-config.js';

/**
 * The host of a declared build (`--build`, FLOWHOST_BUILD, ./flowhost.build.json), or of the
 * stock build (the default built-ins plus FLOWHOST_PLUGINS) when none is declared. `serve`
 * and every CLI command that starts a host come through here.
 */
export async function buildDefaultHost(
  config: HostConfig,
  options: Pick<CreateHostOptions, 'clusterWorker' | 'reservedPort'> & { build?: DeclaredBuild } = {},
): Promise<Host> {
  const { build, ...rest } = options;
  return hostOfBuild(await resolveBuild(config, build ?? findBuild(undefined)), rest);
}

/** The host of a build already resolved (a CLI command checks it against the data directory first). */
export async function hostOfBuild(
  build: ResolvedBuild,
  options: Pick<CreateHostOptions, 'clusterWorker' | 'reservedPort'> = {},
): Promise<Host> {
  if (build.missing.length) throw new ConfigError(`This host cannot start: ${build.missing.join('; ')}`);
  const plugins = await loadPluginEntries(build.entries);
  return createHost({ plugins, config: build.config, env: {}, ...options });
}
