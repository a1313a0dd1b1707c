import type { PluginDefinition } from './kernel/plugin.js';
import { usersPlugin } from './users/plugin.js';
import { contentPlugin } from './content/plugin.js';
import { logsPlugin } from './logs/plugin.js';
import { settingsPlugin } from './settings/plugin.js';
import { workflowsPlugin } from './workflows-plugin.js';
import { retentionPlugin } from './jobs/retention-plugin.js';
import { enginePlugin } from './engine/plugin.js';
import { webhooksPlugin } from './webhooks/plugin.js';
import { credentialsPlugin } from './credentials/plugin.js';
import { mediaPlugin } from './media/plugin.js';

/**
 * The core domains, as plugins on the same SDK as everyone's: each provides its services
 * and adds its routes and jobs. Every build loads them (createHost adds them).
 */
export const corePlugins: ReadonlyArray<PluginDefinition> = [
  usersPlugin,
  contentPlugin,
  settingsPlugin,
  logsPlugin,
  credentialsPlugin,
  workflowsPlugin,
  retentionPlugin,
  enginePlugin,
  webhooksPlugin,
  mediaPlugin,
];
