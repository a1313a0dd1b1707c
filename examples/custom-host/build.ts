// A team's own build: pick the plugins, set defaults, serve. Nothing else is loaded.
// An embedding program's build is unknown to the `flowhost` CLI: flowhost.build.json beside
// this file declares the same plugins, so the CLI (`--build`) runs this build, not the stock one.
import { createHost, defaultPlugins, type HostConfig } from 'flowhost/host';
import hello from '../hello-plugin/index.js';

export async function buildCustomHost(config: Partial<HostConfig> = {}, env: NodeJS.ProcessEnv = process.env) {
  return createHost({
    plugins: [...defaultPlugins, hello],
    // This build mounts the API where the original plugin's clients expect it.
    config: { apiPrefix: '/wp-json', pluginSettings: { hello: { greeting: 'Welcome' } }, ...config },
    env,
  });
}
